import type { ErrorTurn } from "./scenario.js";

/**
 * OpenAI's error body, `{"error":{"message","type","param","code"}}`, shared by the Chat
 * Completions and Responses encoders. A scenario's `error.type` is Anthropic's vocabulary and is
 * not used here; `error.code` and `error.message` are.
 */
export function openAIErrorBody(status: number, message?: string, code?: string): Record<string, unknown> {
  const defaults = defaultOpenAIError(status);
  return { error: { message: message ?? defaults.message, type: defaults.type, param: null, code: code ?? defaults.code } };
}

export function openAIErrorTurnBody(turn: ErrorTurn): Record<string, unknown> {
  return openAIErrorBody(turn.error.status, turn.error.message, turn.error.code);
}

/** Type, code and message the real API uses for a status, for error turns that omit them. */
function defaultOpenAIError(status: number): { type: string; code: string | null; message: string } {
  switch (status) {
    case 400:
      return { type: "invalid_request_error", code: null, message: "Invalid request" };
    case 401:
      return { type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided." };
    case 403:
      return { type: "invalid_request_error", code: null, message: "You are not allowed to use this resource." };
    case 404:
      return {
        type: "invalid_request_error",
        code: "model_not_found",
        message: "The model does not exist or you do not have access to it.",
      };
    case 429:
      return { type: "requests", code: "rate_limit_exceeded", message: "Rate limit reached for requests." };
    default:
      return status >= 500
        ? { type: "server_error", code: null, message: "The server had an error while processing your request." }
        : { type: "invalid_request_error", code: null, message: `Request failed with status ${status}` };
  }
}

/** `GET /v1/models` in OpenAI's shape. */
export function openAIModelList(modelIds: readonly string[]): Record<string, unknown> {
  return { object: "list", data: modelIds.map((id) => ({ id, object: "model", created: 1_735_689_600, owned_by: "agentwire-mock" })) };
}
