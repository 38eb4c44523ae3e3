import type { TaskEvent } from "./event-shapes.js";
import { renderMarkdown } from "./markdown.js";
import { backgroundTaskEnded, backgroundTaskFailed, backgroundTaskStarted, describeSubagent, type ToolInput } from "./present/index.js";
import type { Style } from "./style.js";

/** The most of a subagent's report shown under its call: the model has it all, the reader a glance. */
const REPORT_LINES = 8;
const INDENT = "    ";

/**
 * One subagent's work, held until it ends: its lines arrive interleaved with its siblings' (several
 * Agent calls run at once), so each is kept apart, by the Agent call's id that its events carry as
 * `parent_tool_use_id`, and printed as one block under that call when it is done.
 */
export interface Fold {
  input: ToolInput | undefined;
  /** The work, rendered as if at the top level (indented when printed). */
  lines: string[];
  /** The last call shown inside the fold, so a result right under its call is not named again. */
  lastCallId: string | undefined;
  notification: TaskEvent | undefined;
  /** The Agent call returned at once: the fold ends with the task's notification instead. */
  inBackground: boolean;
}

/** The open folds of a transcript, and which task belongs to which Agent call. */
export class SubagentFolds {
  private readonly folds = new Map<string, Fold>();
  private readonly backgroundTasks = new Set<string>();

  /** An Agent call was made: its subagent's lines will come under its id. */
  open(callId: string, input: ToolInput): void {
    this.folds.set(callId, { input, lines: [], lastCallId: undefined, notification: undefined, inBackground: false });
  }

  /** The fold of a `parent_tool_use_id`; one without a call seen (a cut transcript) is opened bare. */
  of(callId: string): Fold {
    let fold = this.folds.get(callId);
    if (!fold) {
      fold = { input: undefined, lines: [], lastCallId: undefined, notification: undefined, inBackground: false };
      this.folds.set(callId, fold);
    }
    return fold;
  }

  has(callId: string): boolean {
    return this.folds.has(callId);
  }

  taskStarted(event: TaskEvent): void {
    if (event.is_backgrounded) this.backgroundTasks.add(event.task_id);
  }

  isBackground(taskId: string): boolean {
    return this.backgroundTasks.has(taskId);
  }

  /** Takes a fold out when its subagent is done. */
  close(callId: string): Fold | undefined {
    const fold = this.folds.get(callId);
    this.folds.delete(callId);
    return fold;
  }

  /** Folds of foreground subagents still open (a turn ended without their results: an interrupt, a cut file). */
  closeForeground(): Fold[] {
    const open = [...this.folds].filter(([, fold]) => !fold.inBackground);
    for (const [callId] of open) this.folds.delete(callId);
    return open.map(([, fold]) => fold);
  }
}

/**
 * A finished subagent as printed under its Agent call: a header (type and description), its work
 * indented, a closing line with how it ended and what it used, then the start of its report.
 */
export function foldLines(
  fold: Fold,
  result: { block: { content?: unknown; is_error?: boolean }; details: unknown } | undefined,
  style: Style,
  width: number,
): string[] {
  const summary = describeSubagent(fold.input, fold.notification, result);
  const ending = [`${summary.failed ? "✗" : "✓"} ${summary.status}`, ...summary.facts].join(" · ");
  const report = summary.report === "" ? [] : renderMarkdown(summary.report, width - INDENT.length, style);
  const shown = report.slice(0, REPORT_LINES);
  return [
    `  ⎿ ${style.bold(summary.label)}`,
    ...fold.lines.map((line) => (line === "" ? line : INDENT + line)),
    INDENT + (summary.failed ? style.red(ending) : style.green(ending)),
    ...shown.map((line) => (line === "" ? line : INDENT + (summary.failed ? style.red(line) : line))),
    ...(report.length > shown.length ? [style.dim(`${INDENT}… ${report.length - shown.length} more lines`)] : []),
  ];
}

/**
 * A `system/task_*` line: a background task's start and end each get a line (a background
 * subagent's fold follows its end); a foreground subagent's end is kept for its fold, which its
 * Agent result closes.
 */
export function taskLines(folds: SubagentFolds, event: TaskEvent, style: Style, width: number): string[] {
  if (event.subtype === "task_started") {
    folds.taskStarted(event);
    return event.is_backgrounded ? [style.cyan(`◇ ${backgroundTaskStarted(event)}`)] : [];
  }
  if (event.subtype !== "task_notification") return [];
  const callId = event.tool_use_id !== undefined && folds.has(event.tool_use_id) ? event.tool_use_id : undefined;
  const fold = callId === undefined ? undefined : folds.of(callId);
  if (fold) fold.notification = event;
  if (fold && !fold.inBackground && !folds.isBackground(event.task_id)) return [];
  const ended = `◆ ${backgroundTaskEnded(event)}`;
  return [
    backgroundTaskFailed(event) ? style.red(ended) : style.cyan(ended),
    ...(callId === undefined ? [] : foldLines(folds.close(callId)!, undefined, style, width)),
  ];
}
