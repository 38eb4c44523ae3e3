import type { ProviderErrorKind, ProviderEvent } from "../providers/types.js";
import type { ResponseAccumulator } from "../providers/response-accumulator.js";
import type { ToolResult } from "../conversation/tool-result.js";
import type { AssistantContentBlock, Message } from "../conversation/messages.js";

/**
 * Everything observable that happens inside a turn. The loop emits these through one sink; the
 * stream-json translator (src/server/stream-json.ts) turns them into protocol lines and the
 * session store persists `message_committed`. Names are snake_case `noun_verb`.
 */
export type AgentEvent =
  /** A model request is about to be sent (first attempt or a retry). */
  | { type: "model_request_start"; attempt: number }
  /**
   * A streamed event of the current attempt (never the terminal `error`), and the response as
   * it stands after it (read-only for consumers: the loop owns it).
   */
  | { type: "model_stream"; event: ProviderEvent; response: Readonly<ResponseAccumulator> }
  /** The current attempt failed and will be retried after `delayMs`. */
  | {
      type: "api_retry";
      attempt: number;
      maxRetries: number;
      delayMs: number;
      status: number | null;
      errorKind: ProviderErrorKind;
    }
  /**
   * The current attempt failed after it had started streaming and will not be used. Consumers
   * already saw its completed blocks; `toolUseIds` are its tool calls, which will never run.
   */
  | { type: "model_response_abandoned"; response: Readonly<ResponseAccumulator>; toolUseIds: string[] }
  /**
   * The response was cut off by an interrupt (undefined when it had not started, e.g. during a
   * retry wait); `partialBlock` is the text that was streaming.
   */
  | { type: "model_response_aborted"; response: Readonly<ResponseAccumulator> | undefined; partialBlock: AssistantContentBlock | undefined }
  /** A long-running tool is still working (Bash reports about once a second). */
  | { type: "tool_progress"; toolUseId: string; toolName: string; elapsedMs: number; message: string; details?: Record<string, unknown> }
  /** The permission system refused a call; its error `tool_result` follows. */
  | { type: "tool_permission_denied"; toolUseId: string; toolName: string; input: Record<string, unknown>; message: string }
  /** One tool call finished (or was refused, skipped or aborted): exactly one per tool_use. */
  | { type: "tool_result"; toolUseId: string; toolName: string; result: ToolResult }
  /**
   * A user-side text the loop added: "[Request interrupted by user]" after an interrupt, or a
   * Stop hook's reason to keep going.
   */
  | { type: "user_notice"; text: string; synthetic?: true }
  /** Something the consumer should know that is not an error (e.g. a model without a known price). */
  | { type: "warning"; code: string; message: string; path?: string }
  /** A message became part of the conversation history (persist it). */
  | { type: "message_committed"; message: Message }
  /** Compaction began (the conversation is too long for the model's context window, or /compact). */
  | { type: "compaction_start" }
  /**
   * Compaction ended. On success the history now is `messages` (persist it: resume starts there);
   * on failure the history is unchanged and `error` says why.
   */
  | {
      type: "compaction_end";
      trigger: "auto" | "manual";
      preTokens: number;
      postTokens: number;
      durationMs: number;
      messages: Message[] | undefined;
      error?: string;
    };
