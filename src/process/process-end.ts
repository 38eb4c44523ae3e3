import { constants as osConstants } from "node:os";

/** How a child ended: its exit code or signal, or why it could not start. */
export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the child never started (no pid), or when the process launcher it ran under died. */
  error?: Error;
}

/** Shell convention: a process ended by signal N reports status 128 + N (1 when nothing is known). */
export function exitStatusOf(end: Pick<ProcessEnd, "code" | "signal">): number {
  if (end.code !== null) return end.code;
  const signalNumber = end.signal === null ? undefined : osConstants.signals[end.signal];
  return signalNumber === undefined ? 1 : 128 + signalNumber;
}
