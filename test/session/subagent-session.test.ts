import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent, UserEvent } from "../../protocol/events.js";
import { createSession } from "../../src/session/session.js";
import { toUserMessage } from "../../src/session/user-input.js";
import { FakeProvider, textTurn, toolTurn } from "../helpers/fake-provider.js";

/** Agent types through the library's `agents` option, in this process, with a scripted provider. */
let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

const REVIEWER = {
  description: "Reviews code.",
  prompt: "You review code and say what is wrong.",
  // A definition written for Claude Code names the Agent tool Task.
  tools: ["Read", "Task"],
  model: "inherit",
};

async function runWith(provider: FakeProvider, agents: Record<string, unknown>) {
  root = await mkdtemp(join(tmpdir(), "agentwire-subagent-"));
  const events: OutputEvent[] = [];
  const session = createSession({
    cwd: root,
    provider: "anthropic",
    model: "claude-opus-5-5",
    env: {},
    home: join(root, ".home"),
    providerInstance: provider,
    agents,
    onEvent: (event) => events.push(event),
  });
  const result = await session.runTurn(toUserMessage("review it"));
  await session.close();
  return { events, result, transcript: session.transcriptPath! };
}

const agentResult = (events: OutputEvent[]) =>
  events.find(
    (event): event is UserEvent =>
      event.type === "user" && event.parent_tool_use_id === null && event.message.content[0].type === "tool_result",
  )!;

describe("agent types given to the session", () => {
  it("a type's tools, prompt and inherited model make the subagent's requests; its messages stay out of the session file", async () => {
    const provider = new FakeProvider([
      toolTurn([
        { id: "toolu_review", name: "Agent", input: { description: "Review", prompt: "Review main.ts", subagent_type: "reviewer" } },
      ]),
      textTurn("main.ts looks fine"),
      textTurn("The reviewer found nothing."),
    ]);
    const { events, result, transcript } = await runWith(provider, { reviewer: REVIEWER });
    expect(result.subagent_stats).toMatchObject({ spawned: 1, completed: 1, by_type: { reviewer: 1 } });
    const agentTool = provider.requests[0]!.tools.find((tool) => tool.name === "Agent")!;
    expect(agentTool.description).toContain("- reviewer: Reviews code. (Tools: Read, Task)");
    expect(agentTool.description).toContain("- Explore: ");
    const sub = provider.requests[1]!;
    expect(sub.tools.map((tool) => tool.name)).toEqual(["Agent", "Read"]);
    expect(sub.system).toMatch(/^You review code and say what is wrong\.\n\n# Environment/);
    expect(sub.model).toBe("claude-opus-5-5");
    expect(agentResult(events).tool_use_result).toMatchObject({
      agentType: "reviewer",
      content: [{ type: "text", text: "main.ts looks fine" }],
    });
    const stored = (await readFile(transcript, "utf8")).split("\n").filter((line) => line.includes('"type":"message"'));
    // The main conversation's four messages only: prompt, Agent call, its result, the answer.
    expect(stored).toHaveLength(4);
  });

  it("an unknown type starts nothing, and the model hears which types there are", async () => {
    const provider = new FakeProvider([
      toolTurn([{ id: "toolu_x", name: "Agent", input: { description: "x", prompt: "x", subagent_type: "nobody" } }]),
      textTurn("ok"),
    ]);
    const { events, result } = await runWith(provider, { reviewer: REVIEWER });
    const block = agentResult(events).message.content[0];
    expect(block).toMatchObject({ is_error: true });
    expect(JSON.stringify(block)).toContain(
      'There is no agent type \\"nobody\\". Available types: Explore, fork, general-purpose, Plan, reviewer.',
    );
    expect(result.subagent_stats).toMatchObject({ spawned: 0, requested: { unset: 1 } });
    expect(provider.requests).toHaveLength(2);
  });

  it("a host's agents set after start-up apply from the next turn: listed, started, their disallowed tools and turn limit honoured", async () => {
    root = await mkdtemp(join(tmpdir(), "agentwire-subagent-"));
    const provider = new FakeProvider([
      textTurn("first"),
      toolTurn([{ id: "toolu_t", name: "Agent", input: { description: "Test", prompt: "Run it", subagent_type: "tester" } }]),
      toolTurn([{ id: "toolu_sub", name: "Read", input: { file_path: "nothing.txt" } }]),
      textTurn("The tester ran out of turns."),
    ]);
    const events: OutputEvent[] = [];
    const session = createSession({
      cwd: root,
      provider: "anthropic",
      model: "claude-opus-5-5",
      env: {},
      home: join(root, ".home"),
      providerInstance: provider,
      onEvent: (event) => events.push(event),
    });
    await session.runTurn(toUserMessage("hello"));
    session.setHostAgents({
      tester: { description: "Runs tests.", prompt: "You run tests.", disallowedTools: ["Bash", "Write"], maxTurns: 1 },
    });
    const result = await session.runTurn(toUserMessage("test it"));
    await session.close();
    const listing = (index: number) => provider.requests[index]!.tools.find((tool) => tool.name === "Agent")!.description;
    expect(listing(0)).not.toContain("tester");
    expect(listing(1)).toContain("- tester: Runs tests. (Tools: all except Bash, Write)");
    const subTools = provider.requests[2]!.tools.map((tool) => tool.name);
    expect(subTools).toContain("Read");
    expect(subTools).not.toContain("Bash");
    expect(subTools).not.toContain("Write");
    expect(provider.requests[2]!.system).toMatch(/^You run tests\./);
    // maxTurns 1: the subagent's one request made a tool call, and it stopped there.
    expect(result.subagent_stats).toMatchObject({ spawned: 1, failed: 1, by_type: { tester: 1 } });
    expect(JSON.stringify(agentResult(events).message.content[0])).toContain("its limit of 1 model requests");
  });
});
