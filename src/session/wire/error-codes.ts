import type { ApiErrorCode, ApiRetryEvent } from "../../../protocol/events.js";
import type { ProviderErrorKind } from "../../providers/types.js";

/**
 * The one mapping from provider failure kinds to protocol codes: `result.error_code` and the
 * synthetic assistant line's `error` (Claude Code puts `authentication_failed` there).
 */
export function apiErrorCode(kind: string | undefined): ApiErrorCode {
  switch (kind) {
    case "auth":
      return "authentication_failed";
    case "rate_limit":
      return "rate_limit";
    case "server":
      return "server_error";
    case "overloaded":
      return "overloaded";
    case "disconnect":
      return "connection_error";
    case "context_length":
      return "context_length_exceeded";
    case "invalid_request":
      return "invalid_request";
    default:
      return "api_error";
  }
}

const RETRY_VOCABULARY: ReadonlySet<string> = new Set(["authentication_failed", "rate_limit", "server_error", "overloaded"]);

/** Claude Code's smaller `system/api_retry.error` vocabulary: anything else is `unknown`. */
export function retryErrorName(kind: ProviderErrorKind): ApiRetryEvent["error"] {
  const code = apiErrorCode(kind);
  return RETRY_VOCABULARY.has(code) ? (code as ApiRetryEvent["error"]) : "unknown";
}
