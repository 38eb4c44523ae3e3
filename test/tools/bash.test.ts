import { mkdir, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { existsSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashTool, SHELL_DIRECTORY } from "../../src/tools/bash.js";
import { createReadTool } from "../../src/tools/read.js";
import type { ToolContext } from "../../src/tools/define-tool.js";
import { makeToolContext } from "../helpers/tool-context.js";

let directory: string;
/** A folder outside the workspace for tool output files. */
let outputRoot: string;
/** Background pids a test started, killed afterwards in case the tool under test leaked them. */
let startedPids: Array<{ pid: number; started: string | undefined }>;

beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-bash-")));
  startedPids = [];
  outputRoot = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-bash-output-")));
});

afterEach(async () => {
  for (const { pid, started } of startedPids) {
    try {
      // Only the process the test saw: a pid freed early may already be another test's process.
      if (started === undefined || startTimeOf(pid) !== started) continue;
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone, as it should be.
    }
  }
  await rm(directory, { recursive: true, force: true });
  await rm(outputRoot, { recursive: true, force: true });
});

function makeContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return makeToolContext(directory, overrides);
}

/**
 * A killed process whose parent also died may stay a zombie when PID 1 does not reap orphans
 * (common in containers); a zombie runs nothing, so it counts as gone.
 */
function isProcessGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** When a process started (field 22 of /proc/PID/stat), to tell it from a later one given the same pid. */
function startTimeOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").at(-1)!.split(" ")[19];
  } catch {
    return undefined;
  }
}

async function waitUntilGone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (isProcessGone(pid)) return true;
    await sleep(50);
  }
  return isProcessGone(pid);
}

async function readPid(fileName: string): Promise<number> {
  const pid = Number((await readFile(path.join(directory, fileName), "utf8")).trim());
  startedPids.push({ pid, started: startTimeOf(pid) });
  return pid;
}

describe("createBashTool()", () => {
  it("returns stdout then stderr joined by a newline, trailing newline trimmed (reference 05-bash)", async () => {
    const result = await createBashTool().execute(
      { command: "echo to-stderr >&2; sleep 0.1; printf 'hello.txt\\nnotes.md\\nsrc\\n'" },
      makeContext(),
    );
    expect(result).toEqual({
      content: "hello.txt\nnotes.md\nsrc\nto-stderr",
      isError: false,
      details: {
        stdout: "hello.txt\nnotes.md\nsrc",
        stderr: "to-stderr",
        interrupted: false,
        isImage: false,
        noOutputExpected: false,
        exitCode: 0,
      },
    });
  });

  it("says so when the command prints nothing", async () => {
    const result = await createBashTool().execute({ command: "true" }, makeContext());
    expect(result.content).toBe("(Bash completed with no output)");
    expect(result.isError).toBe(false);
  });

  it("reports a non-zero exit code after the output", async () => {
    const result = await createBashTool().execute({ command: "echo partial; echo broken >&2; exit 3" }, makeContext());
    expect(result.isError).toBe(true);
    expect(result.content).toBe("partial\nbroken\nExit code 3");
    expect(result.details).toMatchObject({ stdout: "partial", stderr: "broken", exitCode: 3, interrupted: false });
  });

  it("gives the command no stdin", async () => {
    const result = await createBashTool().execute({ command: "cat; echo after-cat" }, makeContext());
    expect(result.content).toBe("after-cat");
  });

  it("kills the whole process group on timeout", async () => {
    const startedAt = Date.now();
    const result = await createBashTool().execute(
      { command: "echo before-timeout; sleep 30 & echo $! > background.pid; sleep 30", timeout: 500 },
      makeContext(),
    );
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(result.isError).toBe(true);
    expect(result.code).toBe("timeout");
    expect(result.content).toBe("before-timeout\nCommand timed out after 500 ms; it and every process it started were stopped.");
    expect(result.details).toMatchObject({ stdout: "before-timeout", interrupted: true });
    const backgroundPid = await readPid("background.pid");
    expect(await waitUntilGone(backgroundPid, 2_000)).toBe(true);
  });

  it("kills the whole process group when the signal aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await createBashTool().execute(
      { command: "sleep 30 & echo $! > background.pid; wait" },
      makeContext({ signal: controller.signal }),
    );
    expect(result.isError).toBe(true);
    expect(result.code).toBe("aborted");
    expect(result.details).toMatchObject({ interrupted: true });
    const backgroundPid = await readPid("background.pid");
    expect(await waitUntilGone(backgroundPid, 2_000)).toBe(true);
  });

  it("keeps the working directory across calls that share session state", async () => {
    const context = makeContext();
    await mkdir(path.join(directory, "sub"));
    const first = await createBashTool().execute({ command: "cd sub" }, context);
    expect(first.isError).toBe(false);
    expect(context.sessionState.get(SHELL_DIRECTORY)).toBe(path.join(directory, "sub"));
    const second = await createBashTool().execute({ command: "pwd" }, context);
    expect(second.content).toBe(path.join(directory, "sub"));
  });

  it("does not share the working directory between sessions", async () => {
    await mkdir(path.join(directory, "sub"));
    await createBashTool().execute({ command: "cd sub" }, makeContext());
    const otherSession = await createBashTool().execute({ command: "pwd" }, makeContext());
    expect(otherSession.content).toBe(directory);
  });

  it("starts in the session cwd again when the previous directory was removed", async () => {
    const context = makeContext();
    await mkdir(path.join(directory, "gone"));
    await createBashTool().execute({ command: "cd gone" }, context);
    await rm(path.join(directory, "gone"), { recursive: true });
    const result = await createBashTool().execute({ command: "pwd" }, context);
    expect(result.content).toBe(directory);
  });

  it("shows the first and last 50 lines of long output, counts the lines cut, and saves the full output", async () => {
    const result = await createBashTool().execute({ command: "seq 1 100000" }, makeContext());
    expect(result.isError).toBe(false);
    const details = result.details as { stdout: string; fullOutputPath: string };
    const lines = details.stdout.split("\n");
    expect(lines.slice(0, 50)).toEqual(Array.from({ length: 50 }, (_, index) => String(index + 1)));
    expect(lines[50]).toBe("[... 99900 lines truncated ...]");
    expect(lines.slice(51)).toEqual(Array.from({ length: 50 }, (_, index) => String(99_951 + index)));
    expect(details.fullOutputPath).toBe(path.join(directory, ".agentwire-output", "bash-1.log"));
    expect(result.content).toBe(
      `${details.stdout}\n(Output too long to show whole. The full output (100000 lines, 588895 bytes, stdout and stderr interleaved) is in ${details.fullOutputPath}; page through it with Read offset/limit or search it with Grep.)`,
    );
    expect(readFileSync(details.fullOutputPath, "utf8")).toBe(`${Array.from({ length: 100_000 }, (_, index) => index + 1).join("\n")}\n`);
  });

  it("counts bytes when one enormous line is cut, keeping both its ends", async () => {
    const result = await createBashTool().execute(
      { command: "printf 'start'; head -c 100000 /dev/zero | tr '\\0' x; printf 'end\\n'" },
      makeContext(),
    );
    const stdout = (result.details as { stdout: string }).stdout;
    expect(stdout.startsWith("startxxx")).toBe(true);
    expect(stdout.endsWith("xxxend")).toBe(true);
    // 5 + 100000 + 4 bytes printed, 15000 kept at each end.
    expect(stdout).toContain("\n[... 70009 bytes truncated ...]\n");
  });

  it("keeps short output off the disk", async () => {
    const result = await createBashTool().execute({ command: "seq 1 100" }, makeContext());
    expect(result.content).toBe(Array.from({ length: 100 }, (_, index) => index + 1).join("\n"));
    expect(result.details).not.toHaveProperty("fullOutputPath");
    expect(existsSync(path.join(directory, ".agentwire-output"))).toBe(false);
  });

  it("5 MB of output: head and tail shown, the full output pageable with Read, nothing lost", async () => {
    const context = makeContext();
    // 5 MB on stdout (lines "line N" padded to 64 bytes) and a few lines on stderr in between.
    const command =
      'awk \'BEGIN { for (i = 1; i <= 81920; i++) { printf "line %-58d\\n", i; if (i == 40000) print "midway" > "/dev/stderr" } }\'';
    const result = await createBashTool().execute({ command }, context);
    expect(result.isError).toBe(false);
    const details = result.details as { stdout: string; stderr: string; fullOutputPath: string };
    const shown = details.stdout.split("\n");
    expect(shown[0]!.trimEnd()).toBe("line 1");
    expect(shown[49]!.trimEnd()).toBe("line 50");
    expect(shown[50]).toBe("[... 81820 lines truncated ...]");
    expect(shown.at(-1)!.trimEnd()).toBe("line 81920");
    expect(details.stderr).toBe("midway");
    expect((result.content as string).length).toBeLessThan(10_000);
    expect(statSync(details.fullOutputPath).size).toBe(81_920 * 64 + "midway\n".length);

    // The spool file is outside the workspace roots here, and Read still pages through it.
    const outsideContext = makeContext({
      outputDirectory: path.join(outputRoot, "session"),
      workspace: { roots: [directory], allowOutside: false },
    });
    const spooled = await createBashTool().execute({ command }, outsideContext);
    const spoolPath = (spooled.details as { fullOutputPath: string }).fullOutputPath;
    expect(spoolPath.startsWith(outputRoot)).toBe(true);
    const page = await createReadTool().execute({ file_path: spoolPath, offset: 81_000, limit: 2 }, outsideContext);
    expect(page.isError).toBe(false);
    expect(page.content).toMatch(/^81000\tline \d+ *\n81001\tline \d+ *\n\n\(Showing lines 81000-81001 of 81922\./);
  });

  it("returns to the session cwd when a command ends outside the workspace, and says so", async () => {
    const context = makeContext();
    const result = await createBashTool().execute({ command: `cd ${outputRoot}` }, context);
    expect(result.content).toBe(`Shell cwd was reset to ${directory}`);
    const next = await createBashTool().execute({ command: "pwd" }, context);
    expect(next.content).toBe(directory);
    // With permissions bypassed the directory is kept.
    const bypass = makeContext({ workspace: { roots: [directory], allowOutside: true } });
    await createBashTool().execute({ command: `cd ${outputRoot}` }, bypass);
    expect((await createBashTool().execute({ command: "pwd" }, bypass)).content).toBe(outputRoot);
  });

  it("reports progress about once a second while a command runs", async () => {
    const progress: Array<{ message: string; details?: Record<string, unknown> }> = [];
    const result = await createBashTool().execute(
      { command: "seq 1 1000; sleep 1.4; echo done" },
      makeContext({ onProgress: (update) => progress.push(update) }),
    );
    expect(result.isError).toBe(false);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]!.details).toEqual({ outputBytes: 3893, outputLines: 1000 });
    expect(progress[0]!.message).toMatch(/^Running for 1 s: 3893 bytes \(1000 lines\) of output so far$/);
  });

  it("fails with io_error when the shell cannot start", async () => {
    const result = await createBashTool().execute({ command: "true" }, makeContext({ cwd: path.join(directory, "missing") }));
    expect(result.isError).toBe(true);
    expect(result.code).toBe("io_error");
  });

  it("fails with io_error, not a crash, when the command is over the kernel's argument limit", async () => {
    // Node's spawn throws E2BIG at once rather than emitting 'error'.
    const result = await createBashTool().execute({ command: `echo ${"x".repeat(200_000)}` }, makeContext());
    expect(result).toMatchObject({ isError: true, code: "io_error" });
    expect(result.content).toMatch(/Could not start .*E2BIG/);
    const next = await createBashTool().execute({ command: "echo still here" }, makeContext());
    expect(next.content).toBe("still here");
  });
});
