import { ApiError, type GenerateContentResponseUsageMetadata } from "@google/genai";
import { abortedEvent, disconnectEvent, vendorErrorEvent } from "./http-errors.js";
import { retryAfterFromHeaders } from "./retry-after.js";
import type { ProviderEvent, Usage } from "./types.js";

/**
 * What every Gemini request shares, the conversation's (gemini.ts) and the web search's beside
 * it: the connection settings, the credentials on each request, usage and failures.
 */

export interface GeminiProviderOptions {
  /** GEMINI_API_KEY or GOOGLE_API_KEY; without one, requests carry a bearer token instead. */
  apiKey: string | undefined;
  /** Overrides the Gemini API endpoint (GEMINI_BASE_URL, --base-url). */
  baseUrl?: string;
  /**
   * Bearer tokens for requests without an API key (normally `gcloud auth print-access-token`).
   * A rejection's message is shown to the user as an authentication error.
   */
  accessToken: () => Promise<string>;
  /** `x-goog-user-project` for bearer tokens: Google bills user credentials to a quota project. */
  quotaProject?: string;
}

/**
 * The fetch every request of one attempt goes through: it sets the bearer credentials (when
 * there is no API key), and it keeps the headers of a failed response, which the SDK's ApiError
 * drops (`retry-after`). An `auth` error event instead when no bearer token can be had.
 */
export async function geminiTransport(
  options: GeminiProviderOptions,
): Promise<{ sendRequest: typeof fetch; failedResponseHeaders: () => Headers | undefined } | { error: ProviderEvent }> {
  let bearerToken: string | undefined;
  if (!options.apiKey) {
    try {
      bearerToken = await options.accessToken();
    } catch (error) {
      return {
        error: {
          type: "error",
          kind: "auth",
          status: null,
          retryable: false,
          message: error instanceof Error ? error.message : String(error),
        },
      };
    }
  }
  let failed: Headers | undefined;
  const sendRequest: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (bearerToken !== undefined) {
      headers.delete("x-goog-api-key");
      headers.set("authorization", `Bearer ${bearerToken}`);
      if (options.quotaProject) headers.set("x-goog-user-project", options.quotaProject);
    }
    const response = await fetch(input, { ...init, headers });
    if (!response.ok) failed = response.headers;
    return response;
  };
  return { sendRequest, failedResponseHeaders: () => failed };
}

/**
 * `promptTokenCount` includes the cached prefix and `candidatesTokenCount` excludes thinking;
 * agentwire counts cached input separately and bills thinking as output, as Google does.
 */
export function toUsage(metadata: GenerateContentResponseUsageMetadata): Usage {
  const cached = metadata.cachedContentTokenCount ?? 0;
  const prompt = (metadata.promptTokenCount ?? 0) + (metadata.toolUsePromptTokenCount ?? 0);
  return {
    inputTokens: Math.max(0, prompt - cached),
    outputTokens: (metadata.candidatesTokenCount ?? 0) + (metadata.thoughtsTokenCount ?? 0),
    cacheReadInputTokens: cached,
    cacheCreationInputTokens: 0,
    raw: metadata,
  };
}

/** The error object of a Google API error body: `{"error": {code, message, status, details}}`. */
interface GoogleErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{ "@type"?: string; reason?: string; retryDelay?: string }>;
}

export function toErrorEvent(
  error: unknown,
  signal: AbortSignal,
  failedResponseHeaders: Headers | undefined,
  endpoint: string,
): ProviderEvent {
  if (signal.aborted) return abortedEvent();
  // Not an API answer: the socket dropped (undici's TypeError "terminated"), the server was
  // unreachable, or the SDK found the SSE body cut off mid-event.
  if (!(error instanceof ApiError)) return disconnectEvent(error, endpoint);
  const body = parseErrorBody(error.message);
  const retryAfterMs = retryAfterFromHeaders(failedResponseHeaders) ?? retryDelayMs(body);
  return vendorErrorEvent({
    status: error.status,
    // A wrong key is a 400 INVALID_ARGUMENT whose detail says API_KEY_INVALID; else the RPC status (UNAVAILABLE, …).
    code: body?.details?.some((detail) => detail.reason === "API_KEY_INVALID") ? "API_KEY_INVALID" : (body?.status ?? null),
    message: body?.message ?? error.message,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/** ApiError messages embed the JSON body: the whole message for HTTP errors, after a prefix for SSE error events. */
function parseErrorBody(message: string): GoogleErrorBody | undefined {
  const start = message.indexOf("{");
  if (start === -1) return undefined;
  try {
    const parsed = JSON.parse(message.slice(start)) as { error?: GoogleErrorBody };
    return typeof parsed.error === "object" && parsed.error !== null ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

/** google.rpc.RetryInfo: `retryDelay` is a protobuf Duration in JSON form, e.g. "30s" or "1.5s". */
function retryDelayMs(body: GoogleErrorBody | undefined): number | undefined {
  const delay = body?.details?.find((detail) => detail["@type"]?.endsWith("google.rpc.RetryInfo"))?.retryDelay;
  const seconds = delay === undefined ? NaN : Number(/^(\d+(?:\.\d+)?)s$/.exec(delay)?.[1]);
  return Number.isFinite(seconds) ? seconds * 1000 : undefined;
}
