import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { captureCappedOutput } from "../../src/process/capped-output.js";
import { exitStatusOf } from "../../src/process/process-end.js";
import { startSupervisedProcess, type SupervisedProcessRequest } from "../../src/process/supervised-process.js";

function start(script: string, extra: Partial<SupervisedProcessRequest> = {}) {
  const child = startSupervisedProcess({
    file: "/bin/sh",
    args: ["-c", script],
    cwd: tmpdir(),
    environment: { inherited: { PATH: process.env.PATH, ANTHROPIC_API_KEY: "sk-ant-secret", PLAIN: "kept" }, pass: [] },
    stdin: "ignore",
    ...extra,
  });
  if ("startError" in child) throw child.startError;
  return child;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(condition: () => boolean, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

describe("startSupervisedProcess", () => {
  it("gives the child the environment without credentials, plus what the caller adds after the filter", async () => {
    const child = start('printf "%s|%s|%s" "$PLAIN" "$ANTHROPIC_API_KEY" "$ADDED"', {
      environment: {
        inherited: { PATH: process.env.PATH, ANTHROPIC_API_KEY: "sk-ant-secret", PLAIN: "kept" },
        pass: [],
        added: { ADDED: "named" },
      },
    });
    const output = captureCappedOutput(child, 1024);
    const end = await child.ended;
    child.release();
    expect(exitStatusOf(end)).toBe(0);
    expect(output.stdout.text()).toBe("kept||named");
  });

  it("a timeout stops the whole group, background jobs included, and says why", async () => {
    const child = start("sleep 30 & echo $!; wait", { timeoutMs: 300 });
    const output = captureCappedOutput(child, 1024);
    await waitUntil(() => output.stdout.text().includes("\n"));
    const backgroundPid = Number(output.stdout.text().trim());
    const end = await child.ended;
    child.release();
    expect(child.stopReason).toBe("timeout");
    expect(exitStatusOf(end)).toBeGreaterThan(128);
    expect(await waitUntil(() => !isAlive(backgroundPid))).toBe(true);
  });

  it("an abort stops it; the first reason is kept", async () => {
    const controller = new AbortController();
    const child = start("sleep 30", { signal: controller.signal, timeoutMs: 10_000 });
    controller.abort();
    child.stop("timeout");
    await child.ended;
    child.release();
    expect(child.stopReason).toBe("aborted");
  });

  it("a program that does not exist ends with the reason instead of an exit", async () => {
    const child = start("", { file: "/nonexistent/agentwire-test-program" });
    const end = await child.ended;
    child.release();
    expect(child.pid).toBeUndefined();
    expect(end.error?.message).toMatch(/ENOENT/);
  });

  it("reports a shell's status for a signal as 128 + its number", () => {
    expect(exitStatusOf({ code: 3, signal: null })).toBe(3);
    expect(exitStatusOf({ code: null, signal: "SIGKILL" })).toBe(137);
    expect(exitStatusOf({ code: null, signal: null })).toBe(1);
  });
});
