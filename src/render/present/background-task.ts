/**
 * The start and end of a background task (a shell or agent started with `run_in_background`), as
 * one line each for every view, from Claude Code's `system/task_started` (with
 * `is_backgrounded: true`) and `system/task_notification`.
 */

export function backgroundTaskStarted(event: { task_id?: unknown; task_type?: unknown; description?: unknown }): string {
  const kind = event.task_type === "local_agent" ? "agent" : "shell";
  return `background ${kind} ${String(event.task_id ?? "?")} started${typeof event.description === "string" && event.description !== "" ? `: ${event.description}` : ""}`;
}

export function backgroundTaskEnded(event: { task_id?: unknown; status?: unknown; summary?: unknown }): string {
  const status = typeof event.status === "string" ? event.status : "ended";
  return `background task ${String(event.task_id ?? "?")} ${status}${typeof event.summary === "string" && event.summary !== "" ? `: ${event.summary}` : ""}`;
}

/** Whether a task ended other than as it should (failed, killed, stopped). */
export function backgroundTaskFailed(event: { status?: unknown }): boolean {
  return event.status !== undefined && event.status !== "completed";
}
