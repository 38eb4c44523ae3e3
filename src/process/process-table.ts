/**
 * Small reads of and signals to the system's process table, shared by the process launcher's
 * owner (launcher.ts) and bwrap's namespace watch (tools/sandbox/bwrap-exit.ts).
 */

/** Sends `signal` to `pid` (a process group when negative); a process already gone is no error. */
export function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * The fields of a `/proc/<pid>/stat` line after the command name, the state first, then the
 * parent, the process group and the session. The name, in parentheses, may hold any character,
 * spaces and parentheses included, so the fields start after its last `)`.
 */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}
