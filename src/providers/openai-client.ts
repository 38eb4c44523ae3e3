import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from "openai";
import { retryAfterFromHeaders } from "./retry-after.js";
import { isRetryable, type ProviderErrorKind, type ProviderEvent, type Usage } from "./types.js";

/**
 * What the two OpenAI wire APIs (openai-chat.ts, openai-responses.ts) share: the SDK client and
 * the mapping of failures onto ProviderErrorKind. The `openai` SDK is imported only by these
 * three files.
 */

export interface OpenAIConnection {
  apiKey: string;
  /** Default: the SDK's (api.openai.com), or OPENAI_BASE_URL as the registry passes it. */
  baseUrl?: string | undefined;
}

/**
 * SDK retries are off (`maxRetries: 0`): retrying is agentwire's (src/agent/model-call.ts), so
 * every retry is announced and an abandoned attempt is discarded whole.
 */
export function createOpenAIClient(connection: OpenAIConnection): OpenAI {
  return new OpenAI({
    apiKey: connection.apiKey,
    ...(connection.baseUrl ? { baseURL: connection.baseUrl } : {}),
    maxRetries: 0,
    timeout: 600_000,
  });
}

/** Turns whatever the SDK threw into the terminal `error` event, as anthropic.ts does. */
export function toOpenAIErrorEvent(error: unknown, signal: AbortSignal): ProviderEvent {
  if (signal.aborted || error instanceof APIUserAbortError) {
    return { type: "error", kind: "aborted", status: null, retryable: false, message: "Request aborted." };
  }
  if (error instanceof APIConnectionError) {
    return { type: "error", kind: "disconnect", status: null, retryable: true, message: error.message };
  }
  if (error instanceof APIError) {
    const status = typeof error.status === "number" ? error.status : null;
    const body = (error.error ?? {}) as { message?: unknown; code?: unknown; type?: unknown };
    const message = typeof body.message === "string" ? body.message : error.message;
    const code = typeof body.code === "string" ? body.code : typeof body.type === "string" ? body.type : null;
    return errorEvent(classifyOpenAIError(status, code, message), status, message, retryAfterFromHeaders(error.headers));
  }
  // The socket dropped mid-stream: undici surfaces it as a TypeError("terminated") or similar.
  const message = error instanceof Error ? error.message : String(error);
  return { type: "error", kind: "disconnect", status: null, retryable: true, message };
}

/** An error the API reported inside a stream (Responses `error` / `response.failed`). */
export function streamedErrorEvent(code: string | null, message: string): ProviderEvent {
  return errorEvent(classifyOpenAIError(null, code, message), null, message, undefined);
}

function errorEvent(kind: ProviderErrorKind, status: number | null, message: string, retryAfterMs: number | undefined): ProviderEvent {
  return { type: "error", kind, status, retryable: isRetryable(kind), message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
}

/**
 * `code` is OpenAI's error code (or type when there is no code). Context overflows are told
 * apart by code, or by the message for servers that send none (vLLM "maximum context length",
 * llama.cpp "exceeds the available context size", Ollama "context length").
 */
function classifyOpenAIError(status: number | null, code: string | null, message: string): ProviderErrorKind {
  const contextOverflow = code === "context_length_exceeded" || /context[_ ](length|window|size)|maximum context|prompt is too long|too many tokens/i.test(`${code ?? ""} ${message}`);
  if (contextOverflow && (status === null || (status >= 400 && status < 500 && status !== 429))) return "context_length";
  if (status === null) {
    if (/overloaded/i.test(code ?? "")) return "overloaded";
    if (/rate_limit/i.test(code ?? "")) return "rate_limit";
    if (/server_error|internal/i.test(code ?? "")) return "server";
    return "unknown";
  }
  if (status === 401 || status === 403) return "auth";
  // A spent quota is a 429 too, but waiting does not refill it.
  if (status === 429) return code === "insufficient_quota" ? "invalid_request" : "rate_limit";
  if (status === 529) return "overloaded";
  if (status >= 500 || status === 408 || status === 409) return "server";
  return "invalid_request";
}


/**
 * OpenAI counts cached tokens inside the input total; agentwire reports them apart (as
 * cacheRead) and subtracts them, so input + cacheRead is still exactly what was sent.
 */
export function openAIUsage(raw: unknown, total: { input: number; output: number; cached: number; reasoning: number | undefined }): Usage {
  return {
    inputTokens: Math.max(0, total.input - total.cached),
    outputTokens: total.output,
    cacheReadInputTokens: total.cached,
    cacheCreationInputTokens: 0,
    ...(total.reasoning === undefined ? {} : { reasoningTokens: total.reasoning }),
    raw,
  };
}
