import { readlinkSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { signalQuietly, statFields } from "../../process/process-table.js";

/**
 * What ends a bwrap command's PID namespace. The namespace's first process is the one whose end
 * takes every other with it (the kernel ends them all before it lets that process finish). bwrap
 * names it, and the namespace's inode, on the descriptor given to `--info-fd`. Two uses:
 *
 * - bwrap reports a command's end as soon as the command itself ends, while the kernel may still
 *   be stopping what else the command started in the namespace: for a few milliseconds a process
 *   left in the background can still run (and, in a writable sandbox, still write). Waiting for
 *   the first process to be gone means nothing of the command runs.
 * - Stopping bwrap's process group does not always stop the namespace. The first process leaves
 *   the group (`--new-session`) and asks to die with bwrap (`--die-with-parent`) only some
 *   milliseconds into bwrap's start; a stop that lands in between kills bwrap and leaves the
 *   namespace running, in a session of its own, holding the command's output pipes. Measured:
 *   stops 0–4 ms after the start left `sleep 30` running in 10 of 15 tries. So a stop
 *   also kills the first process, once bwrap has named it.
 */

/** The descriptor bwrap writes its information to: the fourth of the spawned process's stdio. */
export const BWRAP_INFO_DESCRIPTOR = 3;
export const BWRAP_INFO_ARGUMENTS = ["--info-fd", String(BWRAP_INFO_DESCRIPTOR)];

/** A command's PID namespace, as bwrap names it. */
export interface BwrapNamespace {
  /** Kills everything in the namespace: now if bwrap has named it, else as soon as it does. */
  stop(): void;
  /** Resolves once nothing in the namespace runs, or after MAX_WAIT_MS with false; true at once when bwrap never named it. */
  ended(): Promise<boolean>;
}

/** Reads bwrap's information from `info` (which it drains, so the pipe never holds the command's end). */
export function watchBwrapNamespace(info: Readable): BwrapNamespace {
  let text = "";
  let stopping = false;
  let named: NamedNamespace | undefined;
  info.on("data", (chunk: Buffer) => {
    if (named?.inode !== undefined) return;
    text += chunk.toString();
    named = namedNamespace(text);
    if (stopping) killNamespace(named);
  });
  return {
    stop() {
      stopping = true;
      killNamespace(named);
    },
    ended: () => (named === undefined ? Promise.resolve(true) : waitForEnd(named)),
  };
}

interface NamedNamespace {
  /** The host pid of the namespace's first process. */
  firstPid: number;
  /** The namespace's inode: `/proc/<pid>/ns/pid` of every process in it links to `pid:[inode]`. Named since bwrap 0.4. */
  inode: string | undefined;
}

/** The namespace named in bwrap's JSON information, so far as it has arrived. */
function namedNamespace(info: string): NamedNamespace | undefined {
  const firstPid = /"child-pid"\s*:\s*(\d+)/.exec(info)?.[1];
  return firstPid === undefined ? undefined : { firstPid: Number(firstPid), inode: /"pid-namespace"\s*:\s*(\d+)/.exec(info)?.[1] };
}

/** Whether `pid` is a process of the namespace `inode`: once the namespace has ended, the number may belong to an unrelated process. */
function inNamespace(pid: number, inode: string): boolean {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`) === `pid:[${inode}]`;
  } catch {
    return false;
  }
}

/**
 * SIGKILLs the namespace's first process (a signal from outside the namespace reaches it only as
 * SIGKILL or SIGSTOP) if it is still the namespace's: only with the namespace's inode (an older
 * bwrap leaves the stop to bwrap's group signal).
 */
function killNamespace(named: NamedNamespace | undefined): void {
  if (named?.inode !== undefined && inNamespace(named.firstPid, named.inode)) signalQuietly(named.firstPid, "SIGKILL");
}

/** How long to wait at most; the kernel takes microseconds, so this only bounds a surprise. */
const MAX_WAIT_MS = 5_000;
const POLL_MS = 2;

/** Resolves once the namespace's first process has ended (gone, a zombie, or its pid reused), or after MAX_WAIT_MS with false. */
async function waitForEnd(named: NamedNamespace): Promise<boolean> {
  const deadline = Date.now() + MAX_WAIT_MS;
  for (;;) {
    if ((await hasEnded(named.firstPid)) || (named.inode !== undefined && !inNamespace(named.firstPid, named.inode))) return true;
    if (Date.now() > deadline) return false;
    await sleep(POLL_MS);
  }
}

async function hasEnded(pid: number): Promise<boolean> {
  try {
    const state = statFields(await readFile(`/proc/${pid}/stat`, "utf8"))[0];
    return state === "Z" || state === "X";
  } catch {
    return true;
  }
}
