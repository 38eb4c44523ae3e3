import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, expectWellFormedRun, results, runAgentwire, type Workspace } from "../helpers/agentwire.js";

const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

// claude-opus-5-5 lists $4 per million input tokens: a response reporting 1M input tokens costs $4.
const expensive = { input_tokens: 1_000_000, output_tokens: 10 };

describe("--max-budget-usd", () => {
  it("a response that crosses the budget ends the turn: its tool calls are answered without running", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: "touch ran.txt" } }], usage: expensive }, { text: "never asked" }],
    });
    const run = await runAgentwire(["-p", "go", ...STREAM, "--max-budget-usd", "1", "--dangerously-skip-permissions"], { workspace });
    expectWellFormedRun(run, 1);
    expect(run.code).toBe(1);
    expect(results(run.events)[0]).toMatchObject({
      subtype: "error_max_budget_usd",
      is_error: true,
      terminal_reason: "budget_exhausted",
      errors: ["Reached maximum budget ($1)"],
    });
    expect(results(run.events)[0]!.total_cost_usd).toBeGreaterThan(1);
    expect(existsSync(join(workspace.cwd, "ran.txt"))).toBe(false);
    expect(workspace.server.requests).toHaveLength(1);
    const toolResult = run.events.find((event) => event.type === "user")!;
    expect(JSON.stringify(toolResult)).toContain("Not run: the session's budget (--max-budget-usd) is spent.");
  });

  it("no request starts over budget: a finished answer stands, the next turn stops before asking", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "An expensive answer.", usage: expensive }, { text: "never asked" }] });
    const stdin = ["First?", "Second?"].map((text) => `${JSON.stringify({ type: "user", content: text })}\n`).join("");
    const run = await runAgentwire(["--input-format", "stream-json", ...STREAM, "--max-budget-usd", "2"], { workspace, stdin });
    expectWellFormedRun(run, 2);
    expect(results(run.events).map((result) => result.subtype)).toEqual(["success", "error_max_budget_usd"]);
    expect(workspace.server.requests).toHaveLength(1);
  });
});

describe("the default cap on model requests per turn", () => {
  it("a model that never stops calling tools is stopped at 200 requests", async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, "a.txt"), "a\n");
    await workspace.useScenario({ turns: [{ tool_calls: [{ name: "Read", input: { file_path: "a.txt" } }], repeat: true }] });
    const run = await runAgentwire(["-p", "loop", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(results(run.events)[0]).toMatchObject({ subtype: "error_max_turns", errors: ["Reached maximum number of turns (200)"] });
    expect(workspace.server.requests).toHaveLength(200);
  }, 60_000);
});
