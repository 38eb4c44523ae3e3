import type { OutputEvent } from "../../../protocol/events.js";
import type { AgentEvent } from "../../agent/events.js";
import { blockFromEndEvent } from "../../providers/response-accumulator.js";
import { retryErrorName } from "./error-codes.js";
import {
  assistantLine,
  closingStreamLines,
  streamLine,
  toolResultLine,
  userLine,
  warningLine,
  type Response,
  type TranslationContext,
} from "./stream-lines.js";
import { messageUsage } from "./wire-usage.js";
import { wireStopReason } from "../../providers/types.js";

export type { TranslationContext } from "./stream-lines.js";

/**
 * Pure translation of internal agent events into Claude Code stream-json lines. No I/O: ids and
 * time come in through `TranslationContext`; what the response is (its id, model, open blocks,
 * usage) comes with each event from the loop's one ResponseAccumulator, and the little that is
 * the translator's own (request timing, the thinking-token estimate) lives in the explicit
 * `TranslationState`. `system/init` and `result` are built by the session, which owns the turn's
 * accounting. The line builders are in stream-lines.ts.
 */
export interface TranslationState {
  requestStartedAt: number;
  /** Claude Code's running estimate of thinking tokens in the current response. */
  thinkingTokens: number;
}

export function createTranslationState(): TranslationState {
  return { requestStartedAt: 0, thinkingTokens: 0 };
}

export function toStreamJson(event: AgentEvent, state: TranslationState, context: TranslationContext): OutputEvent[] {
  const partial = context.includePartialMessages;
  switch (event.type) {
    case "compaction_start":
      return [{ type: "system", subtype: "status", status: "compacting", session_id: context.sessionId, uuid: context.newUuid() }];
    case "compaction_end": {
      const done = {
        type: "system" as const,
        subtype: "status" as const,
        status: null,
        compact_result: event.messages ? ("success" as const) : ("failed" as const),
        ...(event.error ? { compact_error: event.error } : {}),
        session_id: context.sessionId,
        uuid: context.newUuid(),
      };
      if (!event.messages) return [done];
      const boundary: OutputEvent = {
        type: "system",
        subtype: "compact_boundary",
        compact_metadata: {
          trigger: event.trigger,
          pre_tokens: event.preTokens,
          post_tokens: event.postTokens,
          duration_ms: Math.round(event.durationMs),
        },
        session_id: context.sessionId,
        uuid: context.newUuid(),
      };
      return [boundary, done];
    }
    case "model_request_start":
      Object.assign(state, createTranslationState(), { requestStartedAt: context.now() });
      return partial
        ? [{ type: "system", subtype: "status", status: "requesting", session_id: context.sessionId, uuid: context.newUuid() }]
        : [];
    case "api_retry":
      return [
        {
          type: "system",
          subtype: "api_retry",
          attempt: event.attempt,
          max_retries: event.maxRetries,
          retry_delay_ms: Math.round(event.delayMs),
          error_status: event.status,
          error: retryErrorName(event.errorKind),
          session_id: context.sessionId,
          uuid: context.newUuid(),
        },
      ];
    case "model_stream":
      return translateProviderEvent(event.event, event.response, state, context);
    case "model_response_aborted": {
      const response = event.response;
      if (!response?.messageId) return [];
      const lines: OutputEvent[] = [];
      if (event.partialBlock) lines.push({ ...assistantLine(event.partialBlock, response, context), aborted: true });
      if (partial) lines.push(...closingStreamLines(response, context));
      return lines;
    }
    case "model_response_abandoned": {
      // Close what consumers saw of the failed attempt: its open stream blocks, and each of its
      // tool calls with an error result, so no tool_use is left without a tool_result.
      const lines: OutputEvent[] = partial ? closingStreamLines(event.response, context) : [];
      for (const toolUseId of event.toolUseIds) {
        const message = "This call was not run: the response carrying it failed and is being retried or abandoned.";
        lines.push(
          toolResultLine(
            {
              type: "tool_result",
              toolUseId,
              toolName: "",
              result: { content: message, isError: true, code: "aborted", details: `Error: ${message}` },
            },
            context,
          ),
        );
      }
      return lines;
    }
    case "tool_progress":
      return [
        {
          type: "tool_progress",
          tool_use_id: event.toolUseId,
          tool_name: event.toolName,
          parent_tool_use_id: null,
          elapsed_time_seconds: Math.round(event.elapsedMs / 100) / 10,
          progress: { message: event.message, ...(event.details ? { details: event.details } : {}) },
          session_id: context.sessionId,
          uuid: context.newUuid(),
        },
      ];
    case "tool_permission_denied":
      return [
        {
          type: "system",
          subtype: "permission_denied",
          tool_name: event.toolName,
          tool_use_id: event.toolUseId,
          message: event.message,
          session_id: context.sessionId,
          uuid: context.newUuid(),
        },
      ];
    case "tool_result":
      return [toolResultLine(event, context)];
    case "user_notice":
      return [{ ...userLine([{ type: "text", text: event.text }], context), ...(event.synthetic ? { isSynthetic: true as const } : {}) }];
    case "warning":
      return [warningLine(event, context)];
    case "message_committed":
      return [];
  }
}

function translateProviderEvent(
  event: Extract<AgentEvent, { type: "model_stream" }>["event"],
  response: Response,
  state: TranslationState,
  context: TranslationContext,
): OutputEvent[] {
  const partial = context.includePartialMessages;
  const stream = (raw: Record<string, unknown>): OutputEvent[] => (partial ? [streamLine(raw, response, context)] : []);
  switch (event.type) {
    case "message_start": {
      if (!partial) return [];
      return [
        {
          ...streamLine(
            {
              type: "message_start",
              message: {
                id: event.messageId,
                type: "message",
                role: "assistant",
                model: event.model,
                content: [],
                stop_reason: null,
                stop_sequence: null,
                usage: messageUsage(event.usage),
              },
            },
            response,
            context,
          ),
          ttft_ms: Math.max(0, Math.round(context.now() - state.requestStartedAt)),
        },
      ];
    }
    case "text_start":
      return stream({ type: "content_block_start", index: event.index, content_block: { type: "text", text: "" } });
    case "thinking_start":
      return stream({ type: "content_block_start", index: event.index, content_block: { type: "thinking", thinking: "", signature: "" } });
    case "tool_call_start":
      return stream({
        type: "content_block_start",
        index: event.index,
        content_block: { type: "tool_use", id: event.id, name: event.name, input: {} },
      });
    case "text_delta":
      return stream({ type: "content_block_delta", index: event.index, delta: { type: "text_delta", text: event.text } });
    case "thinking_delta": {
      // Claude Code reports thinking progress even without partial messages (~4 chars/token).
      const delta = Math.ceil(event.thinking.length / 4);
      state.thinkingTokens += delta;
      return [
        ...stream({ type: "content_block_delta", index: event.index, delta: { type: "thinking_delta", thinking: event.thinking } }),
        {
          type: "system",
          subtype: "thinking_tokens",
          estimated_tokens: state.thinkingTokens,
          estimated_tokens_delta: delta,
          session_id: context.sessionId,
          uuid: context.newUuid(),
        },
      ];
    }
    case "signature_delta":
      return stream({ type: "content_block_delta", index: event.index, delta: { type: "signature_delta", signature: event.signature } });
    case "tool_call_delta":
      return stream({
        type: "content_block_delta",
        index: event.index,
        delta: { type: "input_json_delta", partial_json: event.partialJson },
      });
    case "text_end":
    case "thinking_end":
    case "tool_call_end": {
      // Claude Code order: the block's assistant line, then its content_block_stop.
      return [assistantLine(blockFromEndEvent(event), response, context), ...stream({ type: "content_block_stop", index: event.index })];
    }
    case "message_end": {
      // The response's usage after the end event's counts were merged in (mergeUsage).
      const usage = response.usage;
      return [
        ...stream({
          type: "message_delta",
          delta: { stop_reason: wireStopReason(event.stopReason), stop_sequence: null },
          usage: {
            input_tokens: usage.inputTokens,
            cache_creation_input_tokens: usage.cacheCreationInputTokens,
            cache_read_input_tokens: usage.cacheReadInputTokens,
            output_tokens: usage.outputTokens,
          },
        }),
        ...stream({ type: "message_stop" }),
      ];
    }
    case "warning":
      return [warningLine(event, context)];
    case "error":
      return [];
  }
}
