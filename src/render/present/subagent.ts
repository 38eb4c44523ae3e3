import { subagentLabel } from "./tool-call.js";
import { resultText } from "./tool-result.js";
import { formatCount, plural } from "./text.js";

/**
 * A subagent's work as every view shows it under its Agent call: what it was (type and
 * description), how it ended, its own token/tool/time line and its final report. Built from what
 * Claude Code puts on stdout: the Agent call's input, the `system/task_notification` for its task
 * and the Agent tool_result with its `tool_use_result` (the fuller of the two when both came).
 */
export interface SubagentSummary {
  /** "general-purpose: Count lines". */
  label: string;
  /** completed, failed, killed, running in background… as the stream says it. */
  status: string;
  failed: boolean;
  /** "2 tool uses", "2,667 tokens (2,580 in, 87 out)", "1.3 s": the facts the stream gave. */
  facts: string[];
  /** The subagent's final text (its hand-back), or the failure's message; "" when there is none. */
  report: string;
}

/** The end of a task as `system/task_notification` reports it (only the fields read here). */
export interface TaskNotification {
  status?: string;
  summary?: string;
  usage?: { total_tokens?: number; tool_uses?: number; duration_ms?: number };
}

/**
 * The summary of a finished subagent. `result` is the Agent tool_result (block and its
 * `tool_use_result`), absent for a background agent, which ends with its notification only.
 */
export function describeSubagent(
  input: Record<string, unknown> | undefined,
  notification: TaskNotification | undefined,
  result: { block: { content?: unknown; is_error?: boolean }; details: unknown } | undefined,
): SubagentSummary {
  const details = isObject(result?.details) ? result.details : {};
  const facts = usedFacts(details, notification?.usage ?? {});
  // Neither an end nor a result: the turn ended under it (an interrupt, a transcript cut short).
  const unfinished = notification === undefined && result === undefined;
  const failed =
    unfinished || result?.block.is_error === true || (notification?.status !== undefined && notification.status !== "completed");
  const status = unfinished
    ? "unfinished"
    : typeof details.status === "string"
      ? details.status
      : (notification?.status ?? (failed ? "failed" : "completed"));
  return {
    label: subagentLabel(input),
    status: failed && status === "completed" ? "failed" : status,
    failed,
    facts,
    report: report(details, notification, result),
  };
}

/**
 * What the subagent used: tool uses, tokens (split into in and out when its usage says) and time,
 * from the hand-back's totals, else from its task notification.
 */
function usedFacts(details: Record<string, unknown>, fromNotification: NonNullable<TaskNotification["usage"]>): string[] {
  const usage = isObject(details.usage) ? details.usage : {};
  const toolUses = number(details.totalToolUseCount) ?? fromNotification.tool_uses;
  const tokens = number(details.totalTokens) ?? fromNotification.total_tokens;
  const duration = number(details.totalDurationMs) ?? fromNotification.duration_ms;
  const inputTokens = number(usage.input_tokens);
  const outputTokens = number(usage.output_tokens);
  const cachedTokens = (number(usage.cache_read_input_tokens) ?? 0) + (number(usage.cache_creation_input_tokens) ?? 0);
  const split =
    inputTokens !== undefined && outputTokens !== undefined
      ? ` (${formatCount(inputTokens + cachedTokens)} in, ${formatCount(outputTokens)} out)`
      : "";
  // agentwire's hand-back prices the subagent's requests (Claude Code's has no price).
  const cost = number(details.total_cost_usd);
  return [
    toolUses === undefined ? undefined : plural(toolUses, "tool use"),
    tokens === undefined ? undefined : `${formatCount(tokens)} tokens${split}`,
    cost === undefined ? undefined : `$${cost.toFixed(4)}`,
    duration === undefined ? undefined : `${(duration / 1000).toFixed(1)} s`,
  ].filter((fact): fact is string => fact !== undefined);
}

/** The Agent call returned at once and the subagent goes on in the background (Claude Code's default). */
export function isAsyncLaunch(details: unknown): boolean {
  return isObject(details) && (details.isAsync === true || details.status === "async_launched");
}

function report(
  details: Record<string, unknown>,
  notification: TaskNotification | undefined,
  result: { block: { content?: unknown } } | undefined,
): string {
  // The hand-back's own text blocks are the report; the tool_result wraps them in notes for the model.
  if (Array.isArray(details.content)) return resultText(details.content).trim();
  if (notification?.summary) return notification.summary.trim();
  return result
    ? resultText(result.block.content)
        .replace(/<\/?tool_use_error>/g, "")
        .trim()
    : "";
}

// Checked by hand, not with zod: present/ is bundled into the page (see tool-result.ts).
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const number = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
