import { isRetryable, type ProviderErrorKind, type ProviderEvent } from "./types.js";

/**
 * What a vendor said about a failed request, as each provider extracts it from its SDK's error:
 * the HTTP status (null for an error reported inside a stream), the vendor's error type or code
 * (Anthropic `overloaded_error`, OpenAI `context_length_exceeded`, Google `UNAVAILABLE` or
 * `API_KEY_INVALID`), and the message.
 */
export interface VendorError {
  status: number | null;
  code: string | null;
  message: string;
  /** Server-requested delay (retry-after headers, Google RetryInfo), in ms. */
  retryAfterMs?: number;
}

/**
 * Context overflows in every vendor's words: Anthropic "prompt is too long", OpenAI
 * `context_length_exceeded`, Gemini "input token count … exceeds", vLLM "maximum context length",
 * llama.cpp "exceeds the available context size", Ollama "context length".
 */
const CONTEXT_OVERFLOW =
  /context[_ ](length|window|size)|maximum context|prompt is too long|too many tokens|input token count.*exceeds|exceeds the maximum number of tokens|exceeds the available context size/i;

/**
 * The one mapping from a vendor's failure to an error kind, shared by every provider:
 * 401/403 and invalid keys → auth; 429 → rate_limit (a spent quota → invalid_request: waiting
 * does not refill it); 529 and "overloaded"/"unavailable" answers → overloaded; other 5xx,
 * 408, 409 → server; context overflows → context_length; other 4xx → invalid_request. An error
 * inside a stream (no status) is classified by its code.
 */
export function classifyVendorError(error: Pick<VendorError, "status" | "code" | "message">): ProviderErrorKind {
  const { status, message } = error;
  const code = error.code ?? "";
  if (
    (code === "context_length_exceeded" || CONTEXT_OVERFLOW.test(`${code} ${message}`)) &&
    (status === null || (status >= 400 && status < 500 && status !== 429))
  ) {
    return "context_length";
  }
  if (status === 401 || status === 403 || code === "API_KEY_INVALID" || /API key not valid/i.test(message)) return "auth";
  if (status === null) {
    if (/overloaded/i.test(code)) return "overloaded";
    if (/rate_limit/i.test(code)) return "rate_limit";
    if (/server_error|internal|api_error/i.test(code)) return "server";
    return "unknown";
  }
  if (status === 429) return code === "insufficient_quota" ? "invalid_request" : "rate_limit";
  if (status === 529 || (status >= 500 && /overloaded|unavailable/i.test(`${code} ${message}`))) return "overloaded";
  if (status >= 500 || status === 408 || status === 409) return "server";
  return "invalid_request";
}

/** The terminal `error` event for a vendor's failure. */
export function vendorErrorEvent(error: VendorError): ProviderEvent {
  const kind = classifyVendorError(error);
  return {
    type: "error",
    kind,
    status: error.status,
    retryable: isRetryable(kind),
    message: error.message,
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
  };
}

/** The request was cancelled by the caller (interrupt). */
export function abortedEvent(): ProviderEvent {
  return { type: "error", kind: "aborted", status: null, retryable: false, message: "Request aborted." };
}

/**
 * The connection failed or dropped mid-stream (undici's TypeError "terminated", a reset socket).
 * The SDKs say only "Connection error."; the system error is deeper in the `cause` chain, and the
 * message names it with the URL asked. A server that is not there — a refused connection on this
 * machine, a host name that does not exist, a port fetch will not use — is not worth retrying for
 * minutes: those fail at once. Anything else (a reset, a timeout, a remote refusal) is retried.
 */
export function disconnectEvent(error: unknown, endpoint: string): ProviderEvent {
  const cause = systemError(error);
  const detail = describeConnectionFailure(cause, endpoint);
  if (detail) return { type: "error", kind: "disconnect", status: null, retryable: false, message: detail };
  const message = error instanceof Error ? error.message : String(error);
  const suffix = cause ? ` (${cause.code ?? cause.message}; ${endpoint})` : "";
  return { type: "error", kind: "disconnect", status: null, retryable: true, message: `${message}${suffix}` };
}

/** The innermost error of a `cause` chain: undici's system error (`code` ECONNREFUSED, …) under the SDKs' wrappers. */
function systemError(error: unknown): { code?: string; message: string } | undefined {
  let current: unknown = error;
  let innermost: { code?: string; message: string } | undefined;
  for (let depth = 0; current instanceof Error && depth < 5; depth++, current = current.cause) {
    if (current !== error)
      innermost = {
        message: current.message,
        ...(typeof (current as NodeJS.ErrnoException).code === "string" ? { code: (current as NodeJS.ErrnoException).code! } : {}),
      };
  }
  return innermost;
}

function describeConnectionFailure(cause: { code?: string; message: string } | undefined, endpoint: string): string | undefined {
  if (!cause) return undefined;
  const url = new URL(endpoint);
  if (cause.code === "ENOTFOUND")
    return `Cannot connect to ${endpoint}: the host name ${url.hostname} was not found (ENOTFOUND). Check the base URL.`;
  if (cause.code === "ECONNREFUSED" && isThisMachine(url.hostname)) {
    return `Cannot connect to ${endpoint}: connection refused (ECONNREFUSED). Is the server running on port ${url.port || (url.protocol === "https:" ? "443" : "80")}?`;
  }
  // The fetch standard's blocked ports (9, 25, 6000, …): undici refuses them before connecting.
  if (cause.message === "bad port")
    return `Cannot connect to ${endpoint}: fetch refuses port ${url.port} (a blocked port: "bad port"). Use another port.`;
  return undefined;
}

function isThisMachine(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname === "0.0.0.0" || /^127\./.test(hostname);
}
