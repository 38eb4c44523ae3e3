import type { IncomingMessage, ServerResponse } from "node:http";
import {
  anthropicErrorBody,
  defaultAnthropicError,
  encodeAnthropicMessage,
  encodeAnthropicStream,
  type AnthropicResponseContext,
} from "./anthropic-sse.js";
import { writeSseFrames } from "./frames.js";
import { encodeGeminiStream, geminiErrorBody, geminiErrorStatus, geminiModelList } from "./gemini-sse.js";
import { record, recordableHeaders, takeResponseTurn, sendJson, type MockState } from "./mock-state.js";
import { isErrorTurn } from "./scenario.js";
import { encodeSearxngAnswer, requestedDomainFilters, withFilteredSearch } from "./web-search-fakes.js";
import { encodeChatCompletion, encodeChatCompletionStream } from "./openai-chat-sse.js";
import { encodeOllamaChat, encodeOllamaChatStream, ollamaErrorBody } from "./ollama-ndjson.js";
import { openAIErrorBody, openAIErrorTurnBody, openAIModelList } from "./openai-errors.js";
import { encodeResponse, encodeResponsesStream } from "./openai-responses-sse.js";

const defaultModelId = "mock-model";
const mockModelIds = [defaultModelId, "mock-model-large"];

/** One request the mock answers: a vendor's endpoint, or the mock's own record of requests. */
interface Endpoint {
  method: "GET" | "POST";
  /** The exact path, or a pattern whose groups the handler receives (Gemini puts the model in the path). */
  path: string | RegExp;
  handle(
    state: MockState,
    request: IncomingMessage,
    response: ServerResponse,
    context: { requestId: string; groups: string[] },
  ): Promise<void> | void;
}

/** Every endpoint, in the order they are tried. */
const ENDPOINTS: readonly Endpoint[] = [
  {
    method: "POST",
    path: "/v1/messages",
    handle: (state, request, response, { requestId }) => serveMessages(state, request, response, requestId),
  },
  {
    method: "POST",
    path: "/v1/chat/completions",
    handle: (state, request, response, { requestId }) => serveOpenAI(state, request, response, requestId, "chat"),
  },
  {
    method: "POST",
    path: "/v1/responses",
    handle: (state, request, response, { requestId }) => serveOpenAI(state, request, response, requestId, "responses"),
  },
  // Both vendors list models here; the Anthropic SDK always sends `anthropic-version`.
  {
    method: "GET",
    path: "/v1/models",
    handle: (_state, request, response) =>
      sendJson(response, 200, request.headers["anthropic-version"] ? modelList() : openAIModelList(mockModelIds)),
  },
  { method: "POST", path: "/api/chat", handle: (state, request, response) => serveOllama(state, request, response) },
  { method: "GET", path: "/search", handle: (state, request, response) => serveSearxng(state, request, response) },
  { method: "GET", path: "/__requests", handle: (state, _request, response) => sendJson(response, 200, state.requests) },
  {
    method: "POST",
    path: /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/,
    handle: (state, request, response, { groups }) => serveGemini(state, request, response, decodeURIComponent(groups[0]!)),
  },
  { method: "GET", path: "/v1beta/models", handle: (_state, _request, response) => sendJson(response, 200, geminiModelList(mockModelIds)) },
];

/** Answers one request from the table; an unknown one gets a 404 in Anthropic's error shape. */
export async function routeMockRequest(state: MockState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const requestId = state.nextId("req");
  response.setHeader("request-id", requestId);
  const { pathname } = new URL(request.url ?? "/", "http://mock.invalid");
  for (const endpoint of ENDPOINTS) {
    if (request.method !== endpoint.method) continue;
    const groups =
      typeof endpoint.path === "string" ? (endpoint.path === pathname ? [] : undefined) : endpoint.path.exec(pathname)?.slice(1);
    if (groups) return endpoint.handle(state, request, response, { requestId, groups });
  }
  sendJson(response, 404, anthropicErrorBody("not_found_error", `No route for ${request.method} ${pathname}`, requestId));
}

async function serveMessages(state: MockState, request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
  const taken = await takeResponseTurn(state, request, response, {
    body: (status, message) => anthropicErrorBody(status === 400 ? "invalid_request_error" : "api_error", message, requestId),
    turn: (turn) => {
      const defaults = defaultAnthropicError(turn.error.status);
      return anthropicErrorBody(turn.error.type ?? defaults.type, turn.error.message ?? defaults.message, requestId);
    },
  });
  if (!taken) return;
  const { body, bodyText } = taken;
  const turn = withFilteredSearch(taken.turn, requestedDomainFilters(body));

  const context: AnthropicResponseContext = {
    messageId: state.nextId("msg"),
    toolUseIds: (taken.turn.tool_calls ?? []).map((call) => call.id ?? state.nextId("toolu")),
    requestedModel: "model" in body && typeof body.model === "string" ? body.model : defaultModelId,
    // The reference server estimated about 4 characters per token of the request body.
    estimatedInputTokens: Math.max(1, Math.ceil(bodyText.length / 4)),
    requestId,
  };
  if ("stream" in body && body.stream === true) {
    return writeSseFrames(response, encodeAnthropicStream(turn, context), turn);
  }
  sendJson(response, 200, encodeAnthropicMessage(turn, context));
}

/** Gemini API: the same turns as `streamGenerateContent` SSE, in Google's shapes (gemini-sse.ts). */
async function serveGemini(state: MockState, request: IncomingMessage, response: ServerResponse, model: string): Promise<void> {
  const taken = await takeResponseTurn(state, request, response, {
    body: (status, message) => geminiErrorBody(status, message),
    turn: ({ error }) => geminiErrorBody(error.status, error.message, error.retry_after, geminiErrorStatus(error.status, error.type)),
  });
  if (!taken) return;
  const { bodyText } = taken;
  const context = {
    responseId: state.nextId("resp"),
    requestedModel: model,
    estimatedInputTokens: Math.max(1, Math.ceil(bodyText.length / 4)),
  };
  return writeSseFrames(response, encodeGeminiStream(taken.turn, context), taken.turn);
}

/**
 * OpenAI Chat Completions (`/v1/chat/completions`) and Responses (`/v1/responses`): the same
 * turns in OpenAI's shapes (openai-chat-sse.ts, openai-responses-sse.ts).
 */
async function serveOpenAI(
  state: MockState,
  request: IncomingMessage,
  response: ServerResponse,
  requestId: string,
  api: "chat" | "responses",
): Promise<void> {
  // The openai SDK reads the request id from this header.
  response.setHeader("x-request-id", requestId);
  const taken = await takeResponseTurn(state, request, response, {
    body: (status, message) => openAIErrorBody(status, message),
    turn: (turn) => openAIErrorTurnBody(turn),
  });
  if (!taken) return;
  const { body, bodyText } = taken;
  const fields = body as { model?: unknown; stream?: unknown; stream_options?: { include_usage?: unknown }; include?: unknown };
  const context = {
    responseId: state.nextId(api === "chat" ? "chatcmpl" : "resp"),
    toolCallIds: (taken.turn.tool_calls ?? []).map((call) => call.id ?? state.nextId("call")),
    requestedModel: typeof fields.model === "string" ? fields.model : defaultModelId,
    estimatedInputTokens: Math.max(1, Math.ceil(bodyText.length / 4)),
    includeUsage: fields.stream_options?.include_usage === true,
    includeEncryptedReasoning: Array.isArray(fields.include) && fields.include.includes("reasoning.encrypted_content"),
    includeSearchSources: Array.isArray(fields.include) && fields.include.includes("web_search_call.action.sources"),
    createdAt: Math.floor(Date.now() / 1000),
  };
  const turn = withFilteredSearch(taken.turn, requestedDomainFilters(body));
  if (fields.stream !== true)
    return sendJson(response, 200, api === "chat" ? encodeChatCompletion(turn, context) : encodeResponse(turn, context));
  return writeSseFrames(response, api === "chat" ? encodeChatCompletionStream(turn, context) : encodeResponsesStream(turn, context), turn);
}

/** Ollama's native chat API (`/api/chat`): NDJSON, streamed unless the request says `stream: false`. */
async function serveOllama(state: MockState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const taken = await takeResponseTurn(state, request, response, {
    body: (_status, message) => ollamaErrorBody(message),
    turn: ({ error }) => ollamaErrorBody(error.message ?? `HTTP ${error.status}`),
  });
  if (!taken) return;
  const { body, bodyText } = taken;
  const fields = body as { model?: unknown; stream?: unknown };
  const context = {
    requestedModel: typeof fields.model === "string" ? fields.model : defaultModelId,
    estimatedInputTokens: Math.max(1, Math.ceil(bodyText.length / 4)),
    createdAt: new Date().toISOString(),
  };
  if (fields.stream === false) return sendJson(response, 200, encodeOllamaChat(taken.turn, context));
  return writeSseFrames(response, encodeOllamaChatStream(taken.turn, context), taken.turn, "application/x-ndjson");
}

/**
 * A SearXNG instance's search (`GET /search?q=…&format=json`): the next turn must script a
 * `web_search`. Like a default SearXNG, any format but json is refused with 403.
 */
async function serveSearxng(state: MockState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? "/", "http://mock.invalid");
  const taken = url.searchParams.get("format") === "json" ? state.takeTurn(undefined) : undefined;
  await record(state, {
    turn: taken?.index ?? null,
    method: "GET",
    path: request.url ?? "",
    headers: recordableHeaders(request),
    body: null,
    time: new Date().toISOString(),
  });
  if (url.searchParams.get("format") !== "json") return sendJson(response, 403, { error: "format not allowed" });
  const search = taken && !isErrorTurn(taken.turn) ? taken.turn.web_search : undefined;
  if (!search) {
    state.log("a SearXNG search arrived, but the next scenario turn scripts no web_search");
    return sendJson(response, 500, { error: "the scenario scripts no web_search for this search" });
  }
  state.log(`search ${state.requests.length}: serving turn ${taken!.index}`);
  sendJson(response, 200, encodeSearxngAnswer(url.searchParams.get("q") ?? "", search));
}

function modelList() {
  const data = mockModelIds.map((id) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" }));
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}
