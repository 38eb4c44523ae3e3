import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  agentwireEnv,
  BIN,
  createWorkspace,
  expectWellFormedRun,
  results,
  ROOT,
  runAgentwire,
  type Workspace,
} from "../helpers/agentwire.js";

const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

/** `agentwire render …` in the workspace, with `stdin` piped in. */
async function render(
  args: string[],
  stdin = "",
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, "render", ...args], {
    cwd: workspace!.cwd,
    env: { ...agentwireEnv(workspace!), ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(stdin);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr };
}

const EDIT_SCENARIO = {
  turns: [
    {
      text: "## Plan\n\n- write the file\n- fix it",
      tool_calls: [{ name: "Write", input: { file_path: "notes.txt", content: "alpha\nbeta\n" } }],
    },
    { tool_calls: [{ name: "Edit", input: { file_path: "notes.txt", old_string: "beta", new_string: "gamma" } }] },
    { tool_calls: [{ name: "Bash", input: { command: "cat notes.txt; exit 3" } }] },
    { text: "Done." },
  ],
};

describe("agentwire render", () => {
  it("renders a live run piped in: markdown, calls, the Write and Edit diffs, the Bash exit code, the closing line", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(EDIT_SCENARIO);
    const run = await runAgentwire(["-p", "Write notes", ...STREAM, "--permission-mode", "acceptEdits", "--allowedTools", "Bash"], {
      workspace,
    });
    expectWellFormedRun(run, 1);
    const rendered = await render([], run.stdout);
    expect(rendered.code).toBe(0);
    expect(rendered.stderr).toBe("");
    const lines = rendered.stdout.split("\n");
    // Not a terminal: no colour.
    expect(rendered.stdout).not.toMatch(/\u001b\[/);
    expect(lines[0]).toMatch(/^● session [0-9a-f-]{36} · claude-opus-5-5 · anthropic · .+ · acceptEdits$/);
    expect(lines.slice(1)).toEqual([
      "Plan",
      "",
      "• write the file",
      "• fix it",
      "⏺ Write notes.txt",
      "  ⎿ created notes.txt (2 lines)",
      "    +alpha",
      "    +beta",
      "⏺ Edit notes.txt",
      "  ⎿ updated notes.txt: +1 -1",
      "    @@ -1,2 +1,2 @@",
      "     alpha",
      "    -beta",
      "    +gamma",
      "⏺ Bash cat notes.txt; exit 3",
      "  ⎿ exit 3",
      "    alpha",
      "    gamma",
      "Done.",
      expect.stringMatching(/^✓ success · 4 turns · [\d,]+ tokens \([\d,]+ in, [\d,]+ out\) · \$\d+\.\d{4} · \d+\.\d s$/),
      "",
      "",
    ]);

    // FORCE_COLOR turns colour on for a pipe; NO_COLOR wins over it.
    const coloured = await render([], run.stdout, { FORCE_COLOR: "1" });
    expect(coloured.stdout).toContain("\u001b[32m    +gamma\u001b[39m");
    expect((await render([], run.stdout, { FORCE_COLOR: "1", NO_COLOR: "1" })).stdout).toBe(rendered.stdout);
    expect((await render(["--no-color"], run.stdout, { FORCE_COLOR: "1" })).stdout).toBe(rendered.stdout);
  });

  it("renders a stored session by id and a saved file, showing malformed lines and going on", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(EDIT_SCENARIO);
    const run = await runAgentwire(["-p", "Write notes", ...STREAM, "--permission-mode", "acceptEdits", "--allowedTools", "Bash"], {
      workspace,
    });
    const sessionId = results(run.events)[0]!.session_id;
    const stored = await render([sessionId, "--width", "60"]);
    expect(stored.code).toBe(0);
    expect(stored.stdout).toContain(`● session ${sessionId} · ${workspace.cwd}`);
    expect(stored.stdout).toContain("\n> Write notes\n");
    // The session file keeps each tool call's structured result: the edit reads as it did live.
    expect(stored.stdout).toContain(
      "⏺ Edit notes.txt\n  ⎿ updated notes.txt: +1 -1\n    @@ -1,2 +1,2 @@\n     alpha\n    -beta\n    +gamma\n",
    );
    expect(stored.stdout).toMatch(/── end of turn · session cost \$\d+\.\d{4} ──/);

    const file = join(workspace.cwd, "saved.jsonl");
    writeFileSync(file, `not json at all\n${run.stdout}{"type":"brand_new_event","x":1}\n{"type":"assistant","message":null}\n`);
    const saved = await render(["saved.jsonl"]);
    expect(saved.code).toBe(0);
    expect(saved.stdout.split("\n")[0]).toBe("? not json at all");
    expect(saved.stdout).toContain("    +gamma\n");
    expect(saved.stdout).toContain('? {"type":"brand_new_event","x":1}\n? {"type":"assistant","message":null}\n');

    const missing = await render(["no-such-session"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no-such-session is neither a file nor a stored session");
    expect((await render(["--bogus"])).code).toBe(1);
    expect((await render(["--help"])).stdout).toContain("agentwire render [SESSION_ID|FILE]");
  });

  it("shows the answer of a result-only transcript: Claude Code's and agentwire's --output-format json", async () => {
    workspace = await createWorkspace("text");
    // The shape Claude Code 2.1.330 prints for `-p … --output-format json`: one result object, no assistant lines.
    const claudeCodeJson = {
      type: "result",
      subtype: "success",
      is_error: false,
      duration_ms: 1234,
      num_turns: 1,
      result: "The sum is **4**.\n\n- checked twice",
      session_id: "5d1c9a0e-1111-4c2b-9a55-0a1b2c3d4e5f",
      total_cost_usd: 0.0125,
      usage: { input_tokens: 2000, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 12 },
      permission_denials: [],
      terminal_reason: "completed",
      uuid: "0c7e5a52-2222-4f6e-8d3c-1a2b3c4d5e6f",
    };
    const rendered = await render([], `${JSON.stringify(claudeCodeJson)}\n`);
    expect(rendered.code).toBe(0);
    expect(rendered.stdout.split("\n")).toEqual([
      "The sum is 4.",
      "",
      "• checked twice",
      "✓ success · 1 turn · 2,012 tokens (2,000 in, 12 out) · $0.0125 · 1.2 s",
      "",
      "",
    ]);

    // The real Claude Code's output for `-p … --output-format json` (fixtures/claude-code/16-output-json.jsonl).
    const recorded = await render([join(ROOT, "fixtures", "claude-code", "16-output-json.jsonl")]);
    expect(recorded.stdout.split("\n").slice(0, 2)).toEqual([
      "Hello! I am the mock model. 2 + 2 = 4.",
      expect.stringMatching(/^✓ success · 1 turn · 2,553 tokens \(2,543 in, 10 out\) · \$0\.0104 · 0\.2 s$/),
    ]);

    // agentwire's own json output renders the same way.
    await workspace.useScenario({ turns: [{ text: "Hello from the model." }] });
    const run = await runAgentwire(["-p", "hi", "--output-format", "json"], { workspace });
    expect(run.code).toBe(0);
    const own = await render([], run.stdout);
    expect(own.stdout.split("\n")[0]).toBe("Hello from the model.");
    expect(own.stdout.split("\n")[1]).toMatch(/^✓ success · 1 turn · /);

    // A failed result keeps its one closing line, with the error in it.
    const failed = await render(
      [],
      `${JSON.stringify({ ...claudeCodeJson, subtype: "error_during_execution", is_error: true, result: "API Error: 500" })}\n`,
    );
    expect(failed.stdout.split("\n")[0]).toMatch(/^✗ error_during_execution: API Error: 500 · 1 turn/);
    expect(failed.stdout.split("\n")).toHaveLength(3);
  });

  it("does not repeat the answer a stream-json transcript already showed", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "Only once." }] });
    const run = await runAgentwire(["-p", "hi", ...STREAM], { workspace });
    const rendered = await render([], run.stdout);
    expect(rendered.stdout.match(/Only once\./g)).toHaveLength(1);
  });

  it("folds each subagent's work under its Agent call, from the golden subagent streams (fixtures/subagents)", async () => {
    workspace = await createWorkspace("text");
    // Two foreground subagents whose lines interleave on stdout; the Explore one fails first.
    const concurrent = await render([join(ROOT, "fixtures", "subagents", "two-concurrent.jsonl")]);
    expect(concurrent.code).toBe(0);
    expect(concurrent.stderr).toBe("");
    expect(concurrent.stdout.split("\n")).toEqual([
      "● session 3f6c2a10-5b7e-4d2c-9a41-7e0d5c8b9a01 · claude-opus-5-5 · /repo · bypassPermissions",
      "I'll hand both questions to subagents.",
      "⏺ Agent general-purpose: Count lines",
      "⏺ Agent Explore: Find TODOs",
      "  ⎿ Explore: Find TODOs",
      "    ⏺ Grep TODO in src",
      "      ⎿ 2 lines",
      "    ✗ failed · 1 tool use · 1,100 tokens · 0.9 s",
      "    API Error: 500 Internal server error",
      "  ⎿ general-purpose: Count lines",
      "    ⏺ Read hello.txt",
      "      ⎿ read 4 lines",
      "    ⏺ Bash wc -l hello.txt",
      "      ⎿ 1 line of output",
      "    ✓ completed · 2 tool uses · 2,667 tokens (2,580 in, 87 out) · 1.3 s",
      "    hello.txt has 3 lines.",
      "",
      "    I read it, then checked with wc -l.",
      "hello.txt has 3 lines; the TODO search failed.",
      "✓ success · 2 turns · 2,020 tokens (2,000 in, 20 out) · $0.1884 · 4.2 s",
      "",
      "",
    ]);

    // A background shell: a line when it starts, one when it ends (after the turn), then the turn it wakes.
    const background = await render([join(ROOT, "fixtures", "subagents", "background-bash.jsonl")]);
    expect(background.code).toBe(0);
    expect(background.stdout.split("\n")).toEqual([
      "● session 3f6c2a10-5b7e-4d2c-9a41-7e0d5c8b9a01 · claude-opus-5-5 · /repo · bypassPermissions",
      "⏺ Bash npm run build",
      "◇ background shell b5c7peivx started: Build in the background",
      "  ⎿ running in the background as b5c7peivx",
      "The build is running in the background.",
      "✓ success · 2 turns · 2,020 tokens (2,000 in, 20 out) · $0.0081 · 0.9 s",
      "",
      '◆ background task b5c7peivx completed: Background command "Build in the background" completed (exit code 0)',
      "● session 3f6c2a10-5b7e-4d2c-9a41-7e0d5c8b9a01 · claude-opus-5-5 · /repo · bypassPermissions",
      "The build finished.",
      "✓ success · 1 turn · 1,106 tokens (1,100 in, 6 out) · $0.0123 · 0.4 s",
      "",
      "",
    ]);
  });

  it("folds a real run's subagents, one failing, and shows its background shell starting and ending", async () => {
    workspace = await createWorkspace("text");
    writeFileSync(join(workspace.cwd, "hello.txt"), "hi there\n");
    const agent = (id: string, word: string) => ({
      name: "Agent",
      id,
      input: { description: `Task ${word}`, prompt: `${word}: look at hello.txt and report`, run_in_background: false },
    });
    // Turns are matched by each conversation's first message: the parent's, ALPHA's and BETA's.
    await workspace.useScenario({
      turns: [
        { match: "PARENT", tool_calls: [agent("toolu_alpha", "ALPHA"), agent("toolu_beta", "BETA")] },
        {
          match: "ALPHA",
          tool_calls: [{ name: "Read", input: { file_path: "hello.txt" } }],
          usage: { input_tokens: 20_000, output_tokens: 250 },
        },
        { match: "BETA", error: { status: 400, message: "bad request from the model" } },
        { match: "ALPHA", text: "ALPHA says **hi there**", usage: { input_tokens: 20_000, output_tokens: 250 } },
        {
          match: "PARENT",
          tool_calls: [{ name: "Bash", input: { command: "echo built", run_in_background: true, description: "Build" } }],
        },
        { match: "PARENT", tool_calls: [{ name: "Bash", input: { command: "sleep 1" } }] },
        { match: "PARENT", text: "Done." },
      ],
    });
    const run = await runAgentwire(["-p", "PARENT: do both", ...STREAM, "--dangerously-skip-permissions"], { workspace });
    expectWellFormedRun(run, 1);
    const rendered = await render([], run.stdout);
    expect(rendered.code).toBe(0);
    expect(rendered.stdout).toContain("⏺ Agent general-purpose: Task ALPHA\n⏺ Agent general-purpose: Task BETA\n");
    expect(rendered.stdout).toMatch(
      /\n {2}⎿ general-purpose: Task ALPHA\n {4}⏺ Read hello\.txt\n {6}⎿ read 2 lines\n {4}✓ completed · 1 tool use · 40,500 tokens \(40,000 in, 500 out\) · \$0\.1700 · \d+\.\d s\n {4}ALPHA says hi there\n/,
    );
    expect(rendered.stdout).toMatch(
      /\n {2}⎿ general-purpose: Task BETA\n {4}✗ failed · [^\n]*\n {4}API error \(HTTP 400\): bad request from the model\n/,
    );
    // Nothing of a subagent outside its fold.
    expect(rendered.stdout.match(/Read hello\.txt/g)).toHaveLength(1);
    expect(rendered.stdout).toMatch(
      /⏺ Bash echo built\n◇ background shell (b[0-9a-z]{8}) started: Build\n {2}⎿ running in the background as \1\n/,
    );
    expect(rendered.stdout).toMatch(/\n◆ background task b[0-9a-z]{8} completed: Background command "Build" completed \(exit code 0\)\n/);
    expect(rendered.stdout).toMatch(/Done\.\n✓ success · /);
  });
});
