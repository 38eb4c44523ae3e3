import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk/core/error";
import type { Usage as AnthropicUsage } from "@anthropic-ai/sdk/resources/messages/messages";
import { abortedEvent, disconnectEvent, vendorErrorEvent } from "./http-errors.js";
import { retryAfterFromHeaders } from "./retry-after.js";
import type { ProviderEvent, Usage, UsageUpdate } from "./types.js";

/**
 * What every Anthropic Messages request reads the same way, the conversation's (anthropic.ts)
 * and the web search's beside it: the usage reports and the failures.
 */

export function toUsage(usage: AnthropicUsage): Usage {
  return {
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    cacheReadInputTokens: usage.cache_read_input_tokens ?? 0,
    cacheCreationInputTokens: usage.cache_creation_input_tokens ?? 0,
    raw: usage,
  };
}

/** message_delta usage as reported: its counts are cumulative totals; null or absent ones were not reported. */
export function usageUpdate(delta: {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}): UsageUpdate {
  return {
    ...(typeof delta.input_tokens === "number" ? { inputTokens: delta.input_tokens } : {}),
    ...(typeof delta.output_tokens === "number" ? { outputTokens: delta.output_tokens } : {}),
    ...(typeof delta.cache_read_input_tokens === "number" ? { cacheReadInputTokens: delta.cache_read_input_tokens } : {}),
    ...(typeof delta.cache_creation_input_tokens === "number" ? { cacheCreationInputTokens: delta.cache_creation_input_tokens } : {}),
    raw: delta,
  };
}

export function toErrorEvent(error: unknown, signal: AbortSignal, endpoint: string): ProviderEvent {
  if (signal.aborted || error instanceof APIUserAbortError) return abortedEvent();
  if (error instanceof APIError && !(error instanceof APIConnectionError)) {
    const retryAfterMs = retryAfterFromHeaders(error.headers);
    return vendorErrorEvent({
      status: typeof error.status === "number" ? error.status : null,
      code: error.type,
      message: error.apiMessage ?? error.message,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  return disconnectEvent(error, endpoint);
}
