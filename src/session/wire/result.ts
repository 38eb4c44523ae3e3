import type { AssistantEvent, ResultEvent, SubagentStats, TerminalReason } from "../../../protocol/events.js";
import { apiErrorCode } from "./error-codes.js";
import { MAX_STRUCTURED_OUTPUT_RETRIES, STRUCTURED_OUTPUT_TOOL } from "../../tools/structured-output-limits.js";
import { emptySubagentStats } from "./subagent-lines.js";
import { messageUsage, resultUsage } from "./wire-usage.js";
import type { TurnOutcome } from "../../agent/loop.js";
import type { SessionAccounting } from "../turn-accounting.js";

export interface ResultContext {
  sessionId: string;
  durationMs: number;
  accounting: SessionAccounting;
  maxTurns: number | undefined;
  maxBudgetUsd: number | undefined;
  permissionDenials: ResultEvent["permission_denials"];
  /** What the turn's Agent calls did. */
  subagentStats: SubagentStats;
  newUuid: () => string;
}

/**
 * The terminal `result` line of a turn. Where Claude Code reports an API failure as
 * `subtype: "success"` with `is_error: true`, agentwire reports `error_during_execution`
 * (see protocol/README.md, deviations).
 */
export function buildResultEvent(outcome: TurnOutcome, context: ResultContext): ResultEvent {
  const { accounting } = context;
  const ending = endingFields(outcome, context.maxTurns, context.maxBudgetUsd);
  return {
    type: "result",
    subtype: ending.subtype,
    is_error: ending.subtype !== "success",
    duration_ms: Math.round(context.durationMs),
    duration_api_ms: Math.round(accounting.turnApiMs),
    num_turns: outcome.numTurns,
    ...ending.fields,
    session_id: context.sessionId,
    total_cost_usd: roundCost(accounting.totalCostUsd()),
    usage: resultUsage(accounting.turnUsage, accounting.turnThinkingTokens),
    modelUsage: accounting.modelUsageSnapshot(),
    permission_denials: context.permissionDenials,
    stop_reason: outcome.stopReason,
    terminal_reason: outcome.terminalReason,
    subagent_stats: context.subagentStats,
    uuid: context.newUuid(),
  };
}

function endingFields(
  outcome: TurnOutcome,
  maxTurns: number | undefined,
  maxBudgetUsd: number | undefined,
): {
  subtype: ResultEvent["subtype"];
  fields: Pick<ResultEvent, "result" | "errors" | "api_error_status" | "error_code" | "structured_output">;
} {
  switch (outcome.terminalReason) {
    // A hook's `continue: false` is a normal end in Claude Code: success, with the text there is.
    case "hook_stopped":
    case "stop_hook_prevented":
      return { subtype: "success", fields: { result: outcome.resultText } };
    case "completed":
      return {
        subtype: "success",
        fields: {
          result: outcome.resultText,
          ...(outcome.structuredOutput === undefined ? {} : { structured_output: outcome.structuredOutput }),
        },
      };
    case "structured_output_retry_exhausted":
      return {
        subtype: "error_max_structured_output_retries",
        fields: {
          errors: [
            `The model did not give a valid answer with the ${STRUCTURED_OUTPUT_TOOL} tool after ${MAX_STRUCTURED_OUTPUT_RETRIES + 1} attempts`,
          ],
        },
      };
    case "max_turns":
      return { subtype: "error_max_turns", fields: { errors: [`Reached maximum number of turns (${maxTurns ?? 0})`] } };
    case "budget_exhausted":
      return { subtype: "error_max_budget_usd", fields: { errors: [`Reached maximum budget ($${maxBudgetUsd ?? 0})`] } };
    case "aborted_streaming":
    case "aborted_tools":
      return { subtype: "error_during_execution", fields: { errors: ["Interrupted by user"] } };
    case "api_error":
      return {
        subtype: "error_during_execution",
        fields: {
          errors: [describeApiError(outcome.error)],
          api_error_status: outcome.error?.status ?? null,
          error_code: apiErrorCode(outcome.error?.kind),
        },
      };
  }
}

/** A result for a run that could not start (bad arguments, unknown session, …). */
export function buildFailureResult(input: {
  sessionId: string;
  terminalReason: TerminalReason;
  message: string;
  durationMs: number;
  newUuid: () => string;
}): ResultEvent {
  return {
    type: "result",
    subtype: "error_during_execution",
    is_error: true,
    duration_ms: Math.round(input.durationMs),
    duration_api_ms: 0,
    num_turns: 0,
    errors: [input.message],
    session_id: input.sessionId,
    total_cost_usd: 0,
    usage: resultUsage(undefined),
    modelUsage: {},
    permission_denials: [],
    stop_reason: null,
    terminal_reason: input.terminalReason,
    subagent_stats: emptySubagentStats(),
    uuid: input.newUuid(),
  };
}

/**
 * Claude Code shows API failures as a synthetic assistant message too, so chat-style consumers
 * that render only assistant lines still show the error.
 */
export function buildApiErrorAssistantEvent(
  outcome: TurnOutcome,
  context: { sessionId: string; newUuid: () => string; now: () => number },
): AssistantEvent {
  return {
    type: "assistant",
    message: {
      id: context.newUuid(),
      type: "message",
      role: "assistant",
      model: "<synthetic>",
      content: [{ type: "text", text: describeApiError(outcome.error) }],
      stop_reason: "stop_sequence",
      stop_sequence: "",
      // Claude Code's synthetic error message has no service tier.
      usage: { ...messageUsage(undefined), service_tier: null },
      context_management: null,
    },
    parent_tool_use_id: null,
    session_id: context.sessionId,
    uuid: context.newUuid(),
    timestamp: new Date(context.now()).toISOString(),
    error: apiErrorCode(outcome.error?.kind),
    is_api_error_message: true,
    api_error_status: outcome.error?.status ?? null,
  };
}

export function describeApiError(error: TurnOutcome["error"]): string {
  if (!error) return "API error";
  const status = error.status === null ? "" : ` (HTTP ${error.status})`;
  switch (error.kind) {
    case "auth":
      return `Authentication failed${status}: ${error.message}`;
    case "context_length":
      // Retrying cannot help; say what can.
      return `Context too long${status}: ${error.message} The conversation no longer fits the model's context window: start a new session, or use a model with a larger window.`;
    case "disconnect":
      return `Connection to the model API failed: ${error.message}`;
    default:
      return `API error${status}: ${error.message}`;
  }
}

/** Avoids binary-float noise such as 0.020783999999999997 in the output. */
function roundCost(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}
