import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent, UserEvent } from "../../protocol/events.js";
import { createSession } from "../../src/session/session.js";
import type { SubagentSpec } from "../../src/session/subagent/subagent-spec.js";
import { toUserMessage } from "../../src/session/user-input.js";
import { FakeProvider, textTurn, toolTurn } from "../helpers/fake-provider.js";

/** The subagent seam in this process: agent types handed to the session as a list, a scripted provider. */
let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

const REVIEWER: SubagentSpec = {
  name: "reviewer",
  description: "Reviews code.",
  prompt: "You review code and say what is wrong.",
  // A definition written for Claude Code names the Agent tool Task.
  tools: ["Read", "Task"],
  model: "inherit",
};

async function runWith(provider: FakeProvider, subagents: SubagentSpec[]) {
  root = await mkdtemp(join(tmpdir(), "agentwire-subagent-"));
  const events: OutputEvent[] = [];
  const session = createSession({
    cwd: root,
    provider: "anthropic",
    model: "claude-opus-5-5",
    env: {},
    home: join(root, ".home"),
    providerInstance: provider,
    subagents,
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

describe("agent types handed to the session", () => {
  it("a type's tools, prompt and inherited model make the subagent's requests; its messages stay out of the session file", async () => {
    const provider = new FakeProvider([
      toolTurn([
        { id: "toolu_review", name: "Agent", input: { description: "Review", prompt: "Review main.ts", subagent_type: "reviewer" } },
      ]),
      textTurn("main.ts looks fine"),
      textTurn("The reviewer found nothing."),
    ]);
    const { events, result, transcript } = await runWith(provider, [REVIEWER]);
    expect(result.subagent_stats).toMatchObject({ spawned: 1, completed: 1, by_type: { reviewer: 1 } });
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
    const { events, result } = await runWith(provider, [REVIEWER]);
    const block = agentResult(events).message.content[0];
    expect(block).toMatchObject({ is_error: true });
    expect(JSON.stringify(block)).toContain('There is no agent type \\"nobody\\". Available types: reviewer.');
    expect(result.subagent_stats).toMatchObject({ spawned: 0, requested: { unset: 1 } });
    expect(provider.requests).toHaveLength(2);
  });
});
