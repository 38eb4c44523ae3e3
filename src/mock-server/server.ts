import { appendFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  anthropicErrorBody,
  defaultAnthropicError,
  encodeAnthropicMessage,
  encodeAnthropicStream,
  type AnthropicResponseContext,
} from "./anthropic-sse.js";
import { encodeGeminiStream, geminiErrorBody, geminiErrorStatus, geminiModelList } from "./gemini-sse.js";
import { encodeChatCompletion, encodeChatCompletionStream } from "./openai-chat-sse.js";
import { encodeOllamaChat, encodeOllamaChatStream, ollamaErrorBody } from "./ollama-ndjson.js";
import { openAIErrorBody, openAIErrorTurnBody, openAIModelList } from "./openai-errors.js";
import { encodeResponse, encodeResponsesStream } from "./openai-responses-sse.js";
import { isErrorTurn, type ErrorTurn, type ResponseTurn, type Scenario, type ScenarioTurn } from "./scenario.js";

/**
 * The replay ("mock") server: serves a scenario's scripted model turns over loopback HTTP, one
 * turn per model request, in the wire format of the route asked — Anthropic Messages
 * (`POST /v1/messages`), OpenAI Chat Completions and Responses, Gemini — and records every request.
 */

export interface MockServerOptions {
  scenario: Scenario;
  /** Where the scenario came from (its file), named when the turns run out. */
  scenarioName?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default "127.0.0.1": the server is for loopback use only. */
  host?: string;
  /** Appends every recorded request to this file as one JSON line. */
  recordFile?: string;
  /** Human-readable progress lines; silent when absent. */
  log?: (message: string) => void;
}

export interface RecordedRequest {
  /** Index of the scenario turn that answered, or null when none did (turns ran out, bad body). */
  turn: number | null;
  method: string;
  /** Path including the query string, e.g. "/v1/messages?beta=true". */
  path: string;
  /** Lowercased names; credential values are replaced by "[redacted]". */
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
  /** ISO-8601 arrival time. */
  time: string;
}

export interface MockServer {
  url: string;
  port: number;
  /** Live list: grows as requests arrive. */
  requests: RecordedRequest[];
  /** Stops listening and destroys open connections, so pending streams end at once. */
  close(): Promise<void>;
}

const redactedHeaderNames = new Set(["x-api-key", "x-goog-api-key", "authorization", "proxy-authorization"]);
const defaultModelId = "mock-model";
const mockModelIds = [defaultModelId, "mock-model-large"];

/**
 * Contract: resolves once the server listens; rejects if the port cannot be bound. Ids
 * (`msg_mock_0001`, `toolu_mock_0001`, `req_mock_0001`) are deterministic per instance.
 */
export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  const log = options.log ?? (() => {});
  const requests: RecordedRequest[] = [];
  const nextId = createIdSequence();
  const takeTurn = createTurnCursor(options.scenario.turns);

  async function record(entry: RecordedRequest): Promise<void> {
    requests.push(entry);
    if (options.recordFile) await appendFile(options.recordFile, `${JSON.stringify(entry)}\n`);
  }

  /**
   * What every wire format shares: read and record the request, take the next turn, and answer
   * a body that is not a JSON object, an exhausted scenario, or an error turn in the vendor's
   * own error shape. Resolves with the turn to encode, or undefined when already answered.
   */
  async function takeResponseTurn(
    request: IncomingMessage,
    response: ServerResponse,
    errors: { body(status: number, message: string): unknown; turn(turn: ErrorTurn): unknown },
  ): Promise<{ turn: ResponseTurn; body: Record<string, unknown>; bodyText: string } | undefined> {
    const bodyText = await readBodyText(request);
    const body = parseJsonOrKeepText(bodyText);
    const isJsonObject = typeof body === "object" && body !== null;
    const taken = isJsonObject ? takeTurn() : undefined;
    await record({ turn: taken?.index ?? null, method: request.method ?? "POST", path: request.url ?? "", headers: recordableHeaders(request), body, time: new Date().toISOString() });
    if (!taken) {
      // 400, not 5xx: a client must not retry a script that has ended, it must stop and say so.
      const turns = options.scenario.turns.length;
      const problem = isJsonObject
        ? `Replay scenario ${options.scenarioName ?? "(given inline)"} is exhausted: request ${requests.length} arrived, but it scripts ${turns} turn${turns === 1 ? "" : "s"}, all already served.`
        : "Request body is not a JSON object";
      const status = 400;
      log(problem);
      sendJson(response, status, errors.body(status, problem));
      return undefined;
    }
    log(`request ${requests.length}: serving turn ${taken.index}`);
    if (isErrorTurn(taken.turn)) {
      if (taken.turn.error.retry_after !== undefined) response.setHeader("retry-after", String(taken.turn.error.retry_after));
      sendJson(response, taken.turn.error.status, errors.turn(taken.turn));
      return undefined;
    }
    return { turn: taken.turn, body: body as Record<string, unknown>, bodyText };
  }

  async function serveMessages(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    const taken = await takeResponseTurn(request, response, {
      body: (status, message) => anthropicErrorBody(status === 400 ? "invalid_request_error" : "api_error", message, requestId),
      turn: (turn) => {
        const defaults = defaultAnthropicError(turn.error.status);
        return anthropicErrorBody(turn.error.type ?? defaults.type, turn.error.message ?? defaults.message, requestId);
      },
    });
    if (!taken) return;
    const { body, bodyText } = taken;

    const context: AnthropicResponseContext = {
      messageId: nextId("msg"),
      toolUseIds: (taken.turn.tool_calls ?? []).map((call) => call.id ?? nextId("toolu")),
      requestedModel: "model" in body && typeof body.model === "string" ? body.model : defaultModelId,
      // The reference server estimated about 4 characters per token of the request body.
      estimatedInputTokens: Math.max(1, Math.ceil(bodyText.length / 4)),
      requestId,
    };
    if ("stream" in body && body.stream === true) {
      return writeSseFrames(response, encodeAnthropicStream(taken.turn, context), taken.turn);
    }
    sendJson(response, 200, encodeAnthropicMessage(taken.turn, context));
  }

  /** Gemini API: the same turns as `streamGenerateContent` SSE, in Google's shapes (gemini-sse.ts). */
  async function serveGemini(request: IncomingMessage, response: ServerResponse, model: string): Promise<void> {
    const taken = await takeResponseTurn(request, response, {
      body: (status, message) => geminiErrorBody(status, message),
      turn: ({ error }) => geminiErrorBody(error.status, error.message, error.retry_after, geminiErrorStatus(error.status, error.type)),
    });
    if (!taken) return;
    const { bodyText } = taken;
    const context = { responseId: nextId("resp"), requestedModel: model, estimatedInputTokens: Math.max(1, Math.ceil(bodyText.length / 4)) };
    return writeSseFrames(response, encodeGeminiStream(taken.turn, context), taken.turn);
  }

  /**
   * OpenAI Chat Completions (`/v1/chat/completions`) and Responses (`/v1/responses`): the same
   * turns in OpenAI's shapes (openai-chat-sse.ts, openai-responses-sse.ts).
   */
  async function serveOpenAI(request: IncomingMessage, response: ServerResponse, requestId: string, api: "chat" | "responses"): Promise<void> {
    // The openai SDK reads the request id from this header.
    response.setHeader("x-request-id", requestId);
    const taken = await takeResponseTurn(request, response, { body: (status, message) => openAIErrorBody(status, message), turn: (turn) => openAIErrorTurnBody(turn) });
    if (!taken) return;
    const { body, bodyText } = taken;
    const fields = body as { model?: unknown; stream?: unknown; stream_options?: { include_usage?: unknown }; include?: unknown };
    const context = {
      responseId: nextId(api === "chat" ? "chatcmpl" : "resp"),
      toolCallIds: (taken.turn.tool_calls ?? []).map((call) => call.id ?? nextId("call")),
      requestedModel: typeof fields.model === "string" ? fields.model : defaultModelId,
      estimatedInputTokens: Math.max(1, Math.ceil(bodyText.length / 4)),
      includeUsage: fields.stream_options?.include_usage === true,
      includeEncryptedReasoning: Array.isArray(fields.include) && fields.include.includes("reasoning.encrypted_content"),
      createdAt: Math.floor(Date.now() / 1000),
    };
    if (fields.stream !== true) return sendJson(response, 200, api === "chat" ? encodeChatCompletion(taken.turn, context) : encodeResponse(taken.turn, context));
    return writeSseFrames(response, api === "chat" ? encodeChatCompletionStream(taken.turn, context) : encodeResponsesStream(taken.turn, context), taken.turn);
  }

  /** Ollama's native chat API (`/api/chat`): NDJSON, streamed unless the request says `stream: false`. */
  async function serveOllama(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const taken = await takeResponseTurn(request, response, {
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

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestId = nextId("req");
    response.setHeader("request-id", requestId);
    const { pathname } = new URL(request.url ?? "/", "http://mock.invalid");
    if (request.method === "POST" && pathname === "/v1/messages") return serveMessages(request, response, requestId);
    if (request.method === "POST" && pathname === "/v1/chat/completions") return serveOpenAI(request, response, requestId, "chat");
    if (request.method === "POST" && pathname === "/v1/responses") return serveOpenAI(request, response, requestId, "responses");
    // Both vendors list models here; the Anthropic SDK always sends `anthropic-version`.
    if (request.method === "GET" && pathname === "/v1/models") {
      return sendJson(response, 200, request.headers["anthropic-version"] ? modelList() : openAIModelList(mockModelIds));
    }
    if (request.method === "POST" && pathname === "/api/chat") return serveOllama(request, response);
    if (request.method === "GET" && pathname === "/__requests") return sendJson(response, 200, requests);
    const geminiCall = /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/.exec(pathname);
    if (request.method === "POST" && geminiCall) return serveGemini(request, response, decodeURIComponent(geminiCall[1]!));
    if (request.method === "GET" && pathname === "/v1beta/models") return sendJson(response, 200, geminiModelList(mockModelIds));
    sendJson(response, 404, anthropicErrorBody("not_found_error", `No route for ${request.method} ${pathname}`, requestId));
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (response.headersSent) response.destroy();
      else sendJson(response, 500, anthropicErrorBody("api_error", "Mock server failure", String(response.getHeader("request-id"))));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  log(`listening on http://${urlHost}:${address.port}`);

  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // The callback also runs (with an error) when already closed; either way we are done.
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Writes frames with the turn's pacing. Timers stop when the client goes away,
 * `disconnect_after_chunks` destroys the socket to simulate a dropped stream, and
 * `stall_after_chunks` goes silent with the connection open until the client gives up.
 */
async function writeSseFrames(response: ServerResponse, frames: string[], turn: ResponseTurn, contentType = "text/event-stream; charset=utf-8"): Promise<void> {
  let clientGone = false;
  response.once("close", () => {
    clientGone = true;
  });
  response.writeHead(200, { "content-type": contentType, "cache-control": "no-cache" });
  response.flushHeaders();

  const frameCount = Math.min(frames.length, turn.stall_after_chunks ?? turn.disconnect_after_chunks ?? frames.length);
  for (let position = 0; position < frameCount; position += 1) {
    if (position > 0 && turn.chunk_delay_ms) await waitUnlessClosed(response, turn.chunk_delay_ms);
    if (clientGone) return;
    const frame = frames[position] ?? "";
    // Waiting for the last frame to be flushed keeps it from being lost to the socket destroy.
    if (position === frameCount - 1 && turn.disconnect_after_chunks !== undefined) {
      await new Promise<void>((resolve) => response.write(frame, () => resolve()));
    } else {
      response.write(frame);
    }
  }
  if (turn.stall_after_chunks !== undefined) {
    if (!clientGone) await new Promise((resolve) => response.once("close", resolve));
    return;
  }
  if (turn.disconnect_after_chunks !== undefined) response.socket?.destroy();
  else response.end();
}

function waitUnlessClosed(response: ServerResponse, milliseconds: number): Promise<void> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      response.off("close", onClose);
      resolve();
    }, milliseconds);
    response.once("close", onClose);
  });
}

/** Serves turns in order; a `repeat` turn answers every remaining request. */
function createTurnCursor(turns: readonly ScenarioTurn[]): () => { index: number; turn: ScenarioTurn } | undefined {
  let nextIndex = 0;
  return () => {
    const turn = turns[nextIndex];
    if (turn === undefined) return undefined;
    const index = nextIndex;
    if (!turn.repeat) nextIndex += 1;
    return { index, turn };
  };
}

function createIdSequence(): (prefix: string) => string {
  const counters = new Map<string, number>();
  return (prefix) => {
    const count = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, count);
    return `${prefix}_mock_${String(count).padStart(4, "0")}`;
  };
}

function modelList() {
  const data = mockModelIds.map((id) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" }));
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}

function recordableHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers[name] = redactedHeaderNames.has(name) ? "[redacted]" : Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

async function readBodyText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseJsonOrKeepText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}
