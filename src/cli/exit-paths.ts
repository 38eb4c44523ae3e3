import type { Session } from "../session/session.js";
import type { Logger } from "./log.js";

/**
 * Exit codes besides 0 (success) and 1 (the last turn ended in an error): a signal ends the run
 * with 128 + its number, as a shell reports it, after the running turn's `result`; a consumer
 * that closed stdout (EPIPE: `agentwire … | head -3`) gets 141, 128 + SIGPIPE, as if the pipe
 * had killed the process; 70 is an internal error.
 */
export const EXIT_CODES = { SIGHUP: 129, SIGINT: 130, STDOUT_CLOSED: 141, SIGTERM: 143, INTERNAL_ERROR: 70 } as const;
const HANDLED_SIGNALS = ["SIGHUP", "SIGINT", "SIGTERM"] as const;
type HandledSignal = (typeof HANDLED_SIGNALS)[number];

/**
 * Whether stdout turned out to be closed, and what to do then. Until a session runs there is
 * nothing to save: exit at once. Writing to a closed pipe is not a crash: no stack trace, no
 * further writes. Watched from the moment this module loads.
 */
export const stdoutState = {
  closed: false,
  onClosed: (): void => process.exit(EXIT_CODES.STDOUT_CLOSED),
};
process.stdout.on("error", () => {
  if (stdoutState.closed) return;
  stdoutState.closed = true;
  stdoutState.onClosed();
});

/**
 * SIGTERM and SIGHUP (a closed terminal or SSH session), and SIGINT in print mode, interrupt the
 * running turn, which still ends with its `result` where stdout is still open; the session closes
 * (tool processes killed, temp files removed) and the process exits with 128 + the signal number.
 * In a persistent stream-json session SIGINT is a "stop" button, as in a terminal: it interrupts
 * the running turn and the session keeps serving; SIGINT while idle exits. A second signal before
 * the turn has ended exits at once.
 */
export function handleSignals(
  session: Session,
  log: Logger,
  mode: { persistent: boolean },
): { received: HandledSignal | undefined; dispose(): void } {
  const state: { received: HandledSignal | undefined; dispose(): void } = {
    received: undefined,
    dispose() {
      for (const signal of HANDLED_SIGNALS) process.off(signal, onSignal);
    },
  };
  let interruptedTurn = false;
  function onSignal(signal: HandledSignal): void {
    log.info(`received ${signal}`);
    if (state.received) process.exit(EXIT_CODES[signal]);
    if (signal === "SIGINT" && mode.persistent && session.busy && !interruptedTurn) {
      interruptedTurn = true;
      session.interrupt();
      void session.whenIdle().then(() => (interruptedTurn = false));
      return;
    }
    state.received = signal;
    // No more input and no further turns: finish (interrupt) the running turn, then exit.
    process.stdin.destroy();
    const wasBusy = session.busy;
    const closing = session.close();
    if (!wasBusy) void closing.finally(() => process.exit(EXIT_CODES[signal]));
  }
  for (const signal of HANDLED_SIGNALS) process.on(signal, onSignal);
  return state;
}
