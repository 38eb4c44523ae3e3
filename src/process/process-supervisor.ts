import type { ChildProcess } from "node:child_process";
import { childEnvironment } from "./child-environment.js";

/**
 * Makes the process groups of shell commands die with agentwire, even when agentwire itself is
 * SIGKILLed and gets no chance to clean up.
 *
 * Each command leads its own process group (so one signal reaches its pipelines and `&` jobs).
 * A group is registered here as it starts; one small `sh` watcher per agentwire process, in a
 * session of its own (so a host that kills agentwire's group does not take the watcher with it),
 * reads the registrations from a pipe. The pipe's write end belongs to agentwire alone: when
 * agentwire exits for any reason, the kernel closes it, the watcher reads end-of-file and stops
 * every group still registered — the command still running, and the background jobs finished
 * commands left behind (`server &`), which live until then as the user asked.
 *
 * The watcher is started on first use: a run that never calls Bash starts no process. Commands
 * started through the process launcher (launcher.ts) are not registered here: the launcher stops
 * their groups itself at the same moment, when its input ends.
 */

/** `+PGID` registers a group, `-PGID` forgets one; at end of input every remaining group gets SIGTERM, then SIGKILL. */
const WATCHER_SCRIPT = `
trap '' HUP INT TERM PIPE
groups=
while IFS= read -r line; do
  case $line in
    +*) groups="$groups \${line#+}" ;;
    -*) kept=; for g in $groups; do [ "$g" = "\${line#-}" ] || kept="$kept $g"; done; groups=$kept ;;
  esac
done
[ -n "$groups" ] || exit 0
for g in $groups; do kill -TERM "-$g" 2>/dev/null; done
sleep 1
for g in $groups; do kill -KILL "-$g" 2>/dev/null; done
`;

let watcher: ChildProcess | undefined;

function ensureWatcher(): ChildProcess | undefined {
  if (watcher?.stdin?.writable) return watcher;
  // Loaded at the first start, not with this module: a run that starts no child skips its ~0.7 ms of CPU.
  const { spawn } = process.getBuiltinModule("node:child_process");
  const started = spawn("/bin/sh", ["-c", WATCHER_SCRIPT], {
    detached: true,
    stdio: ["pipe", "ignore", "ignore"],
    env: childEnvironment(process.env),
  });
  // A watcher that cannot start (no /bin/sh) leaves the in-process clean-up as the only guard.
  started.on("error", () => undefined);
  started.stdin?.on("error", () => undefined);
  // Neither the watcher nor its pipe may keep agentwire alive: it is there for agentwire's exit.
  started.unref();
  (started.stdin as { unref?: () => void } | null)?.unref?.();
  watcher = started;
  return started;
}

/**
 * Starts the watcher now, before the first command: registering a group must then be one write to
 * a pipe right after its spawn. Started lazily at the first registration, the watcher's own spawn
 * (milliseconds on a busy machine) came between a command's start and its registration, and
 * agentwire SIGKILLed in that window left the command running.
 */
export function prepareSupervision(): void {
  ensureWatcher();
}

/** Stops the group when agentwire exits, unless released first. */
export function superviseProcessGroup(processGroupId: number): void {
  ensureWatcher()?.stdin?.write(`+${processGroupId}\n`);
}

/**
 * Forgets the group once it has no members left, so its number, free for reuse by unrelated
 * processes, is never signalled. A group with members left (background jobs) stays supervised.
 */
export function releaseProcessGroupIfEmpty(processGroupId: number): void {
  if (processGroupHasMembers(processGroupId)) return;
  watcher?.stdin?.write(`-${processGroupId}\n`);
}

function processGroupHasMembers(processGroupId: number): boolean {
  try {
    // Signal 0 checks existence only; it fails with ESRCH once every member has exited.
    process.kill(-processGroupId, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** How long a group gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 1_000;

/** SIGTERM the whole group, then SIGKILL whatever ignored it. Errors mean the group is gone. */
export function stopProcessGroup(processGroupId: number): void {
  try {
    process.kill(-processGroupId, "SIGTERM");
  } catch {
    return;
  }
  setTimeout(() => {
    try {
      process.kill(-processGroupId, "SIGKILL");
    } catch {
      // Everyone exited on SIGTERM.
    }
  }, KILL_GRACE_MS);
}
