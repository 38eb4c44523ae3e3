import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentwireEnv, BIN, createWorkspace, expectWellFormedRun, results, runAgentwire, type Workspace } from "../helpers/agentwire.js";

const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

/** `agentwire render …` in the workspace, with `stdin` piped in. */
async function render(args: string[], stdin = "", env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, "render", ...args], { cwd: workspace!.cwd, env: { ...agentwireEnv(workspace!), ...env }, stdio: ["pipe", "pipe", "pipe"] });
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
    { text: "## Plan\n\n- write the file\n- fix it", tool_calls: [{ name: "Write", input: { file_path: "notes.txt", content: "alpha\nbeta\n" } }] },
    { tool_calls: [{ name: "Edit", input: { file_path: "notes.txt", old_string: "beta", new_string: "gamma" } }] },
    { tool_calls: [{ name: "Bash", input: { command: "cat notes.txt; exit 3" } }] },
    { text: "Done." },
  ],
};

describe("agentwire render", () => {
  it("renders a live run piped in: markdown, calls, the Write and Edit diffs, the Bash exit code, the closing line", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(EDIT_SCENARIO);
    const run = await runAgentwire(["-p", "Write notes", ...STREAM, "--permission-mode", "acceptEdits", "--allowedTools", "Bash"], { workspace });
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
    const run = await runAgentwire(["-p", "Write notes", ...STREAM, "--permission-mode", "acceptEdits", "--allowedTools", "Bash"], { workspace });
    const sessionId = results(run.events)[0]!.session_id;
    const stored = await render([sessionId, "--width", "60"]);
    expect(stored.code).toBe(0);
    expect(stored.stdout).toContain(`● session ${sessionId} · ${workspace.cwd}`);
    expect(stored.stdout).toContain("\n> Write notes\n");
    // The session file keeps each tool call's structured result: the edit reads as it did live.
    expect(stored.stdout).toContain("⏺ Edit notes.txt\n  ⎿ updated notes.txt: +1 -1\n    @@ -1,2 +1,2 @@\n     alpha\n    -beta\n    +gamma\n");
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
});
