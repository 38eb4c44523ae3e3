import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ResultEvent } from "../../protocol/events.js";
import { createWorkspace, expectWellFormedRun, results, runAgentwire, type Workspace } from "../helpers/agentwire.js";

/**
 * The command lines real Claude Code hosts run, as they run them: Yume's backend (its title
 * generator and its chat turns, with both of its model choices) and the Python Agent SDK's
 * default command line and environment.
 */
let workspace: Workspace;
afterEach(async () => {
  await workspace?.cleanup();
});

type Body = {
  model: string;
  system?: string | Array<{ text: string }>;
  messages: Array<{ content: string | Array<{ type: string; text?: string }> }>;
};
const bodyOf = (index: number) => workspace.server.requests[index]!.body as Body;
const systemText = (body: Body) =>
  typeof body.system === "string" ? body.system : (body.system ?? []).map((block) => block.text).join("\n");
const promptText = (body: Body) => {
  const content = body.messages[0]!.content;
  return typeof content === "string" ? content : content.flatMap((block) => (block.type === "text" ? [block.text!] : [])).join("\n");
};
/** Claude Code's cost of a result's tokens at the given USD per million input / output tokens. */
const costAt = (result: ResultEvent, input: number, output: number) =>
  (result.usage.input_tokens * input + result.usage.output_tokens * output) / 1_000_000;

describe("Yume's backend", () => {
  const YUME_CHAT = [
    "--print",
    "--output-format",
    "stream-json",
    "--verbose",
    "--dangerously-skip-permissions",
    "--disallowed-tools",
    "AskUserQuestion,EnterPlanMode,ExitPlanMode",
    "--append-system-prompt",
    "you are in yume ui. be concise.",
  ];

  it("the title generator (-p PROMPT --print --output-format json): the answer, priced, nothing on stderr", async () => {
    workspace = await createWorkspace("text");
    const title = 'user message: "fix the flaky test"\ntask: reply with ONLY 1-3 words describing what user wants.';
    const run = await runAgentwire(["-p", title, "--print", "--output-format", "json", "--model", "claude-3-5-haiku-20241022"], {
      workspace,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const [result] = results(run.events);
    expect(result).toMatchObject({ subtype: "success", result: "Hello! I am the mock model. 2 + 2 = 4." });
    expect(promptText(bodyOf(0))).toContain(title);
    expect(result!.total_cost_usd).toBeGreaterThan(0);
    expect(result!.total_cost_usd).toBeCloseTo(costAt(result!, 0.8, 4), 10);
  });

  it("chat turns with its default model and then its sonnet choice, the message on stdin, resumed: priced as Claude Code prices them", async () => {
    workspace = await createWorkspace("multi-turn");
    const first = await runAgentwire([...YUME_CHAT, "--model", "claude-opus-4-5-20251101"], { workspace, stdin: "hello" });
    expect(first.stderr).toBe("");
    expectWellFormedRun(first, 1);
    const opus = results(first.events)[0]!;
    expect(opus.total_cost_usd).toBeCloseTo(costAt(opus, 5, 25), 10);
    expect(opus.total_cost_usd).toBeGreaterThan(0);

    const second = await runAgentwire([...YUME_CHAT, "--model", "claude-sonnet-4-5-20250929", "--resume", opus.session_id], {
      workspace,
      stdin: "and now?",
    });
    expect(second.stderr).toBe("");
    expectWellFormedRun(second, 1);
    const sonnet = results(second.events)[0]!;
    expect(sonnet.session_id).toBe(opus.session_id);
    expect(sonnet.modelUsage["claude-sonnet-4-5-20250929"]!.costUSD).toBeCloseTo(costAt(sonnet, 3, 15), 10);
    expect(bodyOf(1)).toMatchObject({ model: "claude-sonnet-4-5-20250929" });
    expect(systemText(bodyOf(1))).toContain("you are in yume ui. be concise.");
  });
});

describe("the Python Agent SDK's default command line", () => {
  const PYTHON_SDK = ["--output-format", "stream-json", "--verbose", "--system-prompt", "", "--input-format", "stream-json"];
  const PYTHON_ENV = { CLAUDE_CODE_ENTRYPOINT: "sdk-py", CLAUDE_AGENT_SDK_VERSION: "0.2.143" };
  const userLine = (text: string) =>
    `${JSON.stringify({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "default" })}\n`;

  it('runs with the SDK\'s environment; --system-prompt "" leaves who the agent is, its environment and the memory files, as Claude Code does, but no instructions', async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, "AGENTS.md"), "Answer in French.\n");
    const run = await runAgentwire([...PYTHON_SDK], { workspace, env: { ...PYTHON_ENV, PWD: workspace.cwd }, stdin: userLine("hi") });
    expect(run.stderr).toBe("");
    expectWellFormedRun(run, 1);
    const system = systemText(bodyOf(0));
    expect(system).toMatch(/^You are an agent running inside agentwire/);
    expect(system).toContain(`Working directory: ${workspace.cwd}`);
    expect(system).toContain("Answer in French.");
    expect(system).not.toContain("Be concise.");
  });

  it("a system prompt the user set replaces agentwire's whole prompt", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(
      ["--output-format", "stream-json", "--verbose", "--system-prompt", "You are a pirate.", "--input-format", "stream-json"],
      { workspace, env: PYTHON_ENV, stdin: userLine("hi") },
    );
    expectWellFormedRun(run, 1);
    expect(systemText(bodyOf(0))).toBe("You are a pirate.");
  });
});

describe("list flags as Claude Code reads them", () => {
  it("take the words after them: --tools Read Grep offers both; a prompt after them is one of them, so there is none", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "hi", "--output-format", "json", "--tools", "Read", "Grep"], { workspace });
    expect(run.code).toBe(0);
    expect((workspace.server.requests[0]!.body as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name).sort()).toEqual([
      "Grep",
      "Read",
    ]);

    const swallowed = await runAgentwire(["-p", "--allowedTools", "Read", "hello", "--output-format", "json"], { workspace });
    expect(swallowed.code).toBe(1);
    expect(swallowed.stderr).toMatch(/^Error: Input must be provided either through stdin or as a prompt argument when using --print/);
    expect(workspace.server.requests).toHaveLength(1);
  });
});
