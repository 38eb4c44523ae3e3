import { readdirSync, readFileSync } from "node:fs";

/** The pids of running processes whose whole command line is `commandLine` (a unique `sleep` marks a test's processes). */
export function pidsRunning(commandLine: string): number[] {
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      return cmdline === commandLine ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/** Polls `condition` until it holds or `timeoutMs` has passed; its last answer. */
export async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

/** Whether a process with this pid exists (signal 0 checks without signalling). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
