import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentwireEnv, BIN, createWorkspace, runAgentwire, type Workspace } from "../helpers/agentwire.js";

let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

const HAS_SCRIPT = spawnSync("script", ["--version"]).status === 0;

describe("-p text mode: the answer on stdout, progress on stderr", () => {
  it("--verbose shows the run as agentwire render does; stdout keeps only the answer", async () => {
    workspace = await createWorkspace("write");
    const run = await runAgentwire(["-p", "Create the file", "--verbose"], { workspace });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Created out/new.txt.\n");
    const stderr = run.stderr.split("\n");
    expect(stderr[0]).toMatch(/^● session [0-9a-f-]{36} · claude-opus-5-5 · anthropic · .+ · default$/);
    expect(stderr.slice(1)).toEqual([
      "⏺ Write out/new.txt",
      expect.stringMatching(/^ {2}⎿ Permission to use Write was denied: File edits need approval/),
      ...Array.from({ length: stderr.length - 7 }, () => expect.stringMatching(/^ {4}\S/)),
      // stdout is not a terminal: the answer is in the progress too.
      "Created out/new.txt.",
      "  ✗ denied: Write out/new.txt",
      expect.stringMatching(/^✓ success · 2 turns · [\d,]+ tokens \([\d,]+ in, [\d,]+ out\) · \$\d+\.\d{4} · \d+\.\d s$/),
      "",
    ]);
    expect(run.stderr).not.toMatch(/\u001b\[/);
  });

  it("without --verbose a denied call is still reported on stderr, and nothing else", async () => {
    workspace = await createWorkspace("write");
    const run = await runAgentwire(["-p", "Create the file"], { workspace });
    expect(run.stdout).toBe("Created out/new.txt.\n");
    expect(run.stderr).toMatch(/^agentwire: Permission to use Write was denied: File edits need approval in this mode/);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("a failed run shows its error once: in the progress with --verbose, as Error: without", async () => {
    workspace = await createWorkspace("api-401");
    const quiet = await runAgentwire(["-p", "hello"], { workspace });
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).toBe("");
    expect(quiet.stderr).toContain("Error: Authentication failed (HTTP 401)");
    const verbose = await runAgentwire(["-p", "hello", "--verbose"], { workspace });
    expect(verbose.code).toBe(1);
    expect(verbose.stdout).toBe("");
    expect(verbose.stderr).not.toContain("Error:");
    expect(verbose.stderr).toMatch(/\n✗ error_during_execution: Authentication failed \(HTTP 401\)[^\n]*· 1 turn/);
  });

  it("--output-last-message writes the answer to a file in every output format, and not after a failure", async () => {
    workspace = await createWorkspace("text");
    for (const format of ["text", "json", "stream-json"]) {
      await workspace.useScenario({ turns: [{ text: "Hello! I am the mock model. 2 + 2 = 4." }] });
      const file = join(workspace.cwd, `answer-${format}.txt`);
      const run = await runAgentwire(
        ["-p", "hi", "--output-format", format, "--verbose", "--output-last-message", `answer-${format}.txt`],
        { workspace },
      );
      expect(run.code).toBe(0);
      expect(readFileSync(file, "utf8")).toBe("Hello! I am the mock model. 2 + 2 = 4.\n");
    }
    await workspace.useScenario({
      turns: [{ error: { status: 401, type: "authentication_error", message: "invalid x-api-key" }, repeat: true }],
    });
    const failed = await runAgentwire(["-p", "hi", "--output-last-message", "failed.txt"], { workspace });
    expect(failed.code).toBe(1);
    expect(existsSync(join(workspace.cwd, "failed.txt"))).toBe(false);
    expect(failed.stderr).toContain(`the last turn failed; ${join(workspace.cwd, "failed.txt")} was not written`);
  });

  it.skipIf(!HAS_SCRIPT)("shows progress by default when stderr is a terminal (util-linux script gives a real pty)", async () => {
    workspace = await createWorkspace("write");
    const answer = join(workspace.cwd, "answer.txt");
    writeFileSync(join(workspace.cwd, "run.sh"), `exec "${process.execPath}" "${BIN}" -p "Create the file" > "${answer}"\n`);
    // Not spawnSync: the replay server runs in this process and must go on answering.
    const child = spawn("script", ["-q", "-e", "-c", "sh run.sh", "/dev/null"], {
      cwd: workspace.cwd,
      env: { ...agentwireEnv(workspace), TERM: "xterm" },
      // script copies its stdin to the terminal; /dev/null ends that at once.
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const result = { status, stdout: output };
    expect(result.status).toBe(0);
    expect(readFileSync(answer, "utf8")).toBe("Created out/new.txt.\n");
    // A terminal gets colour: the call line is bold, the denial red.
    expect(result.stdout).toContain("\u001b[1m⏺ Write\u001b[22m out/new.txt");
    expect(result.stdout).toMatch(/\u001b\[31m {2}⎿ Permission to use Write was denied/);
    expect(result.stdout).toMatch(/\u001b\[32m✓ success · 2 turns/);
  });
});
