/**
 * What the model is told about background work, in Claude Code's `<task-notification>` form: a
 * task's end (the output itself stays in its file; the model reads it with Read if it wants it),
 * and a Monitor's events. Pure.
 */

import { systemReminder } from "../../conversation/reminders.js";

export type TaskEndStatus = "completed" | "failed" | "stopped";

export interface TaskEndNotice {
  taskId: string;
  toolUseId: string | undefined;
  outputFile: string;
  status: TaskEndStatus;
  summary: string;
  /** A Monitor's last lines, delivered with its end. */
  event?: string | undefined;
  /** A subagent's final report, handed to the model with its end. */
  result?: string | undefined;
}

export function taskEndNotification(notice: TaskEndNotice): string {
  return [
    "<task-notification>",
    `<task-id>${notice.taskId}</task-id>`,
    ...(notice.toolUseId === undefined ? [] : [`<tool-use-id>${notice.toolUseId}</tool-use-id>`]),
    `<output-file>${notice.outputFile}</output-file>`,
    `<status>${notice.status}</status>`,
    `<summary>${notice.summary}</summary>`,
    ...(notice.event === undefined ? [] : [`<event>${notice.event}</event>`]),
    ...(notice.result === undefined ? [] : [`<result>${notice.result}</result>`]),
    "</task-notification>",
  ].join("\n");
}

/** One batch of a Monitor's stdout lines. */
export function monitorEventNotification(taskId: string, description: string, lines: string): string {
  return [
    "<task-notification>",
    `<task-id>${taskId}</task-id>`,
    `<summary>Monitor event: "${description}"</summary>`,
    `<event>${lines}</event>`,
    "</task-notification>",
  ].join("\n");
}

/** The notifications as one text for the model's next request (see `systemReminder`). */
export function notificationsForModel(notifications: readonly string[]): string {
  return systemReminder(notifications.join("\n"));
}
