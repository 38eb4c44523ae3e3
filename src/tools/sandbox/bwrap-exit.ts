import { readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * bwrap reports a command's end as soon as the command itself ends, while the kernel may still be
 * stopping what else the command started in its PID namespace: for a few milliseconds a process
 * left in the background can still run (and, in a writable sandbox, still write). The namespace's
 * first process is the one whose end takes every other with it — the kernel ends them all before
 * it lets that process finish — so waiting for it to be gone means nothing of the command runs.
 * bwrap names it on the descriptor given to `--info-fd`.
 */

/** The descriptor bwrap writes its information to: the fourth of the spawned process's stdio. */
export const BWRAP_INFO_DESCRIPTOR = 3;
export const BWRAP_INFO_ARGUMENTS = ["--info-fd", String(BWRAP_INFO_DESCRIPTOR)];

/** The host pid of the namespace's first process, from bwrap's JSON information. */
export function namespaceInitPid(info: string): number | undefined {
  const match = /"child-pid"\s*:\s*(\d+)/.exec(info);
  return match ? Number(match[1]) : undefined;
}

/** How long to wait at most; the kernel takes microseconds, so this only bounds a surprise. */
const MAX_WAIT_MS = 5_000;
const POLL_MS = 2;

/**
 * Resolves once the process `pid` has ended (gone, or a zombie: its namespace is empty by then),
 * or after MAX_WAIT_MS with false. Never throws.
 */
export async function waitForNamespaceEnd(pid: number): Promise<boolean> {
  const deadline = Date.now() + MAX_WAIT_MS;
  for (;;) {
    if (await hasEnded(pid)) return true;
    if (Date.now() > deadline) return false;
    await sleep(POLL_MS);
  }
}

async function hasEnded(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // The state follows the command name, which is in parentheses and may hold any character.
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state === "Z" || state === "X";
  } catch {
    return true;
  }
}
