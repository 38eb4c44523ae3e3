import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";

/** Who holds a session: the process that appends to its file. */
export interface LockHolder {
  pid: number;
  host: string;
}

const held = new Set<string>();
let releaseAtExit = false;

/**
 * Makes this process the only writer of a session file: two processes appending to one file
 * would interleave two conversations. The lock is `<file>.lock` holding the writer's pid; a lock
 * whose process is gone (a crash, SIGKILL) is taken over. Released by `releaseSessionLock` and,
 * whatever the exit path, when the process exits.
 * Returns the holder when another live process has it.
 */
export function acquireSessionLock(file: string): LockHolder | undefined {
  const lockFile = `${file}.lock`;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const descriptor = openSync(lockFile, "wx", 0o600);
      writeSync(descriptor, JSON.stringify({ pid: process.pid, host: hostname() } satisfies LockHolder));
      closeSync(descriptor);
      held.add(lockFile);
      if (!releaseAtExit) {
        releaseAtExit = true;
        process.once("exit", () => held.forEach(removeQuietly));
      }
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(lockFile);
    if (holder && isAlive(holder, lockFile)) return holder;
    // Left behind by a process that is gone: take it over.
    removeQuietly(lockFile);
  }
  return readHolder(lockFile) ?? { pid: 0, host: "unknown" };
}

export function releaseSessionLock(file: string): void {
  const lockFile = `${file}.lock`;
  if (!held.delete(lockFile)) return;
  removeQuietly(lockFile);
}

/** The live process holding the session's lock, if any (for `sessions delete`). */
export function sessionLockHolder(file: string): LockHolder | undefined {
  const holder = readHolder(`${file}.lock`);
  return holder && isAlive(holder, `${file}.lock`) ? holder : undefined;
}

function readHolder(lockFile: string): LockHolder | undefined {
  try {
    const value = JSON.parse(readFileSync(lockFile, "utf8")) as Partial<LockHolder>;
    return typeof value.pid === "number" && typeof value.host === "string" ? { pid: value.pid, host: value.host } : undefined;
  } catch {
    return undefined;
  }
}

/** A lock from another machine (a shared home folder) cannot be checked: it counts as live. */
function isAlive(holder: LockHolder, lockFile: string): boolean {
  if (holder.host !== hostname()) return true;
  // This process: held when it took the lock itself, else an earlier process that had our pid.
  if (holder.pid === process.pid) return held.has(lockFile);
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function removeQuietly(lockFile: string): void {
  try {
    unlinkSync(lockFile);
  } catch {
    // Already gone.
  }
}
