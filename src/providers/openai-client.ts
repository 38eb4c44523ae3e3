import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from "openai";
import { nodeHttpFetch } from "./node-http-fetch.js";
import { retryAfterFromHeaders } from "./retry-after.js";
import { abortedEvent, disconnectEvent, vendorErrorEvent } from "./http-errors.js";
import type { ProviderEvent, Usage } from "./types.js";

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
    fetch: nodeHttpFetch,
  });
}

/**
 * Turns whatever the SDK threw into the terminal `error` event, as anthropic.ts does. `endpoint`
 * is the URL the request went to (`<baseURL>/chat/completions`), named in a 404's message.
 */
export function toOpenAIErrorEvent(error: unknown, signal: AbortSignal, endpoint: string): ProviderEvent {
  if (signal.aborted || error instanceof APIUserAbortError) return abortedEvent();
  if (error instanceof APIError && !(error instanceof APIConnectionError)) {
    const body = (error.error ?? {}) as { message?: unknown; code?: unknown; type?: unknown };
    const retryAfterMs = retryAfterFromHeaders(error.headers);
    const message = typeof body.message === "string" ? body.message : error.message;
    return vendorErrorEvent({
      status: typeof error.status === "number" ? error.status : null,
      // OpenAI's error code, or its type when there is no code; local servers often send neither.
      code: typeof body.code === "string" ? body.code : typeof body.type === "string" ? body.type : null,
      message: error.status === 404 ? `${message} ${notFoundHint(endpoint)}` : message,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  return disconnectEvent(error, endpoint);
}

/**
 * A 404 from an OpenAI-compatible server nearly always means a base URL without its `/v1` (or
 * with a path the server does not serve), or a model the server does not know: say which URL
 * was asked, and the likely fix.
 */
function notFoundHint(endpoint: string): string {
  const url = new URL(endpoint);
  // Ollama's native API: its own message says what is missing ("model 'x' not found").
  if (url.pathname.endsWith("/api/chat")) return `(POST ${endpoint}).`;
  const basePath = url.pathname.replace(/\/(chat\/completions|responses)$/, "");
  if (!/\/v\d+[a-z]*$/.test(basePath)) {
    return `(POST ${endpoint}). OpenAI-compatible servers serve their API under /v1: try --base-url ${url.origin}${basePath}/v1.`;
  }
  return `(POST ${endpoint}). Check that the server serves the OpenAI API at this URL and knows the model (agentwire --list-models --provider … lists what it serves).`;
}

/** An error the API reported inside a stream (Responses `error` / `response.failed`). */
export function streamedErrorEvent(code: string | null, message: string): ProviderEvent {
  return vendorErrorEvent({ status: null, code, message });
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
