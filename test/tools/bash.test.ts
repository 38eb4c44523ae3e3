import { mkdir, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bashTool } from "../../src/tools/bash.js";
import type { ToolContext } from "../../src/tools/define-tool.js";

let directory: string;
/** Background pids a test started, killed afterwards in case the tool under test leaked them. */
let startedPids: number[];

beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-bash-")));
  startedPids = [];
});

afterEach(async () => {
  for (const pid of startedPids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone, as it should be.
    }
  }
  await rm(directory, { recursive: true, force: true });
});

function makeContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return { cwd: directory, signal: new AbortController().signal, sessionState: new Map(), ...overrides };
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
  startedPids.push(pid);
  return pid;
}

describe("bashTool", () => {
  it("returns stdout then stderr joined by a newline, trailing newline trimmed (reference 05-bash)", async () => {
    const result = await bashTool.execute(
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
    const result = await bashTool.execute({ command: "true" }, makeContext());
    expect(result.content).toBe("(Bash completed with no output)");
    expect(result.isError).toBe(false);
  });

  it("reports a non-zero exit code after the output", async () => {
    const result = await bashTool.execute({ command: "echo partial; echo broken >&2; exit 3" }, makeContext());
    expect(result.isError).toBe(true);
    expect(result.content).toBe("partial\nbroken\nExit code 3");
    expect(result.details).toMatchObject({ stdout: "partial", stderr: "broken", exitCode: 3, interrupted: false });
  });

  it("gives the command no stdin", async () => {
    const result = await bashTool.execute({ command: "cat; echo after-cat" }, makeContext());
    expect(result.content).toBe("after-cat");
  });

  it("kills the whole process group on timeout", async () => {
    const startedAt = Date.now();
    const result = await bashTool.execute(
      { command: "echo before-timeout; sleep 30 & echo $! > background.pid; sleep 30", timeout: 500 },
      makeContext(),
    );
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(result.isError).toBe(true);
    expect(result.code).toBe("timeout");
    expect(result.content).toBe(
      "before-timeout\nCommand timed out after 500 ms; it and every process it started were stopped.",
    );
    expect(result.details).toMatchObject({ stdout: "before-timeout", interrupted: true });
    const backgroundPid = await readPid("background.pid");
    expect(await waitUntilGone(backgroundPid, 2_000)).toBe(true);
  });

  it("kills the whole process group when the signal aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await bashTool.execute(
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
    const first = await bashTool.execute({ command: "cd sub" }, context);
    expect(first.isError).toBe(false);
    expect(context.sessionState.get("bash.cwd")).toBe(path.join(directory, "sub"));
    const second = await bashTool.execute({ command: "pwd" }, context);
    expect(second.content).toBe(path.join(directory, "sub"));
  });

  it("does not share the working directory between sessions", async () => {
    await mkdir(path.join(directory, "sub"));
    await bashTool.execute({ command: "cd sub" }, makeContext());
    const otherSession = await bashTool.execute({ command: "pwd" }, makeContext());
    expect(otherSession.content).toBe(directory);
  });

  it("starts in the session cwd again when the previous directory was removed", async () => {
    const context = makeContext();
    await mkdir(path.join(directory, "gone"));
    await bashTool.execute({ command: "cd gone" }, context);
    await rm(path.join(directory, "gone"), { recursive: true });
    const result = await bashTool.execute({ command: "pwd" }, context);
    expect(result.content).toBe(directory);
  });

  it("keeps the head and tail of long output and counts the lines cut from the middle", async () => {
    const result = await bashTool.execute({ command: "seq 1 100000" }, makeContext());
    expect(result.isError).toBe(false);
    const lines = (result.content as string).split("\n");
    const markerIndex = lines.findIndex((line) => line.startsWith("[... "));
    const marker = lines[markerIndex] ?? "";
    const truncatedLines = Number(/^\[\.\.\. (\d+) lines truncated \.\.\.\]$/.exec(marker)?.[1]);
    const lastHeadNumber = Number(lines[markerIndex - 1]);
    const firstTailNumber = Number(lines[markerIndex + 1]);
    expect(lines[0]).toBe("1");
    expect(lines.at(-1)).toBe("100000");
    expect(truncatedLines).toBe(firstTailNumber - lastHeadNumber - 1);
    expect((result.content as string).length).toBeLessThan(31_000);
  });

  it("counts bytes when one enormous line is cut, keeping both its ends", async () => {
    const result = await bashTool.execute(
      { command: "printf 'start'; head -c 100000 /dev/zero | tr '\\0' x; printf 'end\\n'" },
      makeContext(),
    );
    const text = result.content as string;
    expect(text.startsWith("startxxx")).toBe(true);
    expect(text.endsWith("xxxend")).toBe(true);
    // 5 + 100000 + 4 bytes printed, 15000 kept at each end.
    expect(text).toContain("\n[... 70009 bytes truncated ...]\n");
  });

  it("fails with io_error when the shell cannot start", async () => {
    const result = await bashTool.execute({ command: "true" }, makeContext({ cwd: path.join(directory, "missing") }));
    expect(result.isError).toBe(true);
    expect(result.code).toBe("io_error");
  });
});
