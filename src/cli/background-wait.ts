import type { OutputEvent } from "../../protocol/events.js";
import type { Session } from "../session/session.js";
import type { Logger } from "./log.js";

/**
 * How long a run with no more prompts (`-p` after its answer, stream-json input at its end) waits
 * for its background tasks in all, unless AGENTWIRE_BACKGROUND_WAIT_MS says otherwise. Claude
 * Code waits as long as they run; a CI job must end, so after this the tasks still running are
 * stopped. Ten minutes: a background command's own default deadline.
 */
const DEFAULT_BACKGROUND_WAIT_MS = 600_000;

/** AGENTWIRE_BACKGROUND_WAIT_MS when it is a whole number of milliseconds (0: do not wait), else the default. */
export function backgroundWaitMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.AGENTWIRE_BACKGROUND_WAIT_MS);
  return env.AGENTWIRE_BACKGROUND_WAIT_MS !== undefined && Number.isInteger(value) && value >= 0 ? value : DEFAULT_BACKGROUND_WAIT_MS;
}

/**
 * After the last prompt: while background tasks run, wait; whenever they have something for the
 * model (a task ended, a Monitor printed), run one more turn with it as the prompt, as Claude Code
 * does (another `system/init` … `result`). Ends when no task runs and nothing is left to tell, when
 * the session closes (a signal), or at `waitMs`, when the remaining tasks are stopped.
 */
export async function awaitBackgroundTasks(
  session: Session,
  output: (event: OutputEvent) => void,
  log: Logger,
  waitMs: number,
): Promise<void> {
  const tasks = session.backgroundTasks;
  const deadline = Date.now() + waitMs;
  while (!session.closed) {
    const notifications = tasks.takeNotifications();
    if (notifications !== undefined) {
      output(await session.initEvent());
      await session.runTurn({ role: "user", content: [{ type: "text", text: notifications, reminder: "tasks" }] });
      continue;
    }
    if (tasks.running().length === 0) return;
    const left = deadline - Date.now();
    if (left <= 0) {
      log.warn(`background tasks still running ${waitMs} ms after the last prompt (AGENTWIRE_BACKGROUND_WAIT_MS); stopping them`);
      tasks.stopAll();
      return;
    }
    await tasks.nextChange(left);
  }
}
