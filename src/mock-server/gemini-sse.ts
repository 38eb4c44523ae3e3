import { DEFAULT_CHUNK_CHARACTERS, estimateTokens, splitIntoChunks } from "./chunks.js";
import type { ResponseTurn, ScenarioStopReason, ScriptedWebSearch } from "./scenario.js";

/**
 * Pure encoder from a scripted response turn to the Gemini API wire format: the SSE frames of
 * `models/{model}:streamGenerateContent?alt=sse`, error bodies and the model list. Chunks are
 * shaped like the ones Google streams (one part per chunk, `finishReason` and the complete
 * `usageMetadata` on the last one), so the real `@google/genai` client consumes them unchanged.
 */

/** Everything about one response that the server decides, so that encoding stays pure. */
export interface GeminiResponseContext {
  responseId: string;
  /** The model named in the request path; echoed as `modelVersion` unless the turn names one. */
  requestedModel: string;
  /** Used unless the turn overrides `usage.input_tokens`. */
  estimatedInputTokens: number;
}

type GeminiPart = Record<string, unknown>;

/**
 * Order: thought parts, text parts, then one part per function call, as a model answers.
 * Signatures follow Gemini 3: the last thought part carries one, and so does the first
 * function call of a response (Gemini rejects a later request that drops that one).
 */
export function encodeGeminiStream(turn: ResponseTurn, context: GeminiResponseContext): string[] {
  const chunkCharacters = turn.chunk_chars ?? DEFAULT_CHUNK_CHARACTERS;
  const parts: GeminiPart[] = [];
  const thoughts = splitIntoChunks(turn.thinking ?? "", chunkCharacters).map((text): GeminiPart => ({ text, thought: true }));
  if (thoughts.length > 0)
    thoughts[thoughts.length - 1] = { ...thoughts.at(-1), thoughtSignature: `mock_thought_signature_${context.responseId}` };
  parts.push(...thoughts);
  parts.push(...splitIntoChunks(turn.text ?? "", chunkCharacters).map((text) => ({ text })));
  (turn.tool_calls ?? []).forEach((call, callIndex) => {
    parts.push({
      functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: call.input },
      ...(callIndex === 0 ? { thoughtSignature: `mock_call_signature_${context.responseId}` } : {}),
    });
  });
  // A response always has at least one chunk to carry the finish reason.
  if (parts.length === 0) parts.push({ text: "" });

  const usage = usageMetadataOf(turn, context);
  // Until the last chunk only the prompt side is counted.
  const {
    candidatesTokenCount: _candidates,
    thoughtsTokenCount: _thoughts,
    ...promptOnly
  } = { ...usage, totalTokenCount: usage.promptTokenCount };
  const frames = parts.map((part, position) => {
    const isLast = position === parts.length - 1 && !turn.stream_error;
    return sseFrame({
      candidates: [
        {
          content: { parts: [part], role: "model" },
          ...(isLast ? { finishReason: finishReasonOf(turn.stop_reason) } : {}),
          ...(isLast && turn.web_search ? { groundingMetadata: groundingMetadataOf(turn.web_search) } : {}),
          index: 0,
        },
      ],
      usageMetadata: isLast ? usage : promptOnly,
      modelVersion: turn.model ?? context.requestedModel,
      responseId: context.responseId,
    });
  });
  if (turn.stream_error) {
    const status = streamErrorStatus(turn.stream_error.type);
    frames.push(sseFrame(geminiErrorBody(status, turn.stream_error.message)));
  }
  return frames;
}

/**
 * Google Search grounding as the Gemini API reports it: each source's `uri` is Google's redirect
 * to the page and its `title` the site's domain, not the page's own title.
 */
function groundingMetadataOf(search: ScriptedWebSearch): Record<string, unknown> {
  return {
    webSearchQueries: [search.query ?? "search"],
    groundingChunks: search.results.map((result) => ({
      web: {
        uri: `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${Buffer.from(result.url).toString("base64url")}`,
        title: new URL(result.url).hostname,
      },
    })),
    searchEntryPoint: { renderedContent: "<div>mock search suggestions</div>" },
  };
}

/** Google's error body: `{"error": {code, message, status, details}}`, with RetryInfo when a delay is asked for. */
export function geminiErrorBody(code: number, message?: string, retryAfterSeconds?: number, status?: string): Record<string, unknown> {
  return {
    error: {
      code,
      message: message ?? defaultMessage(code),
      status: status ?? canonicalStatus(code),
      ...(retryAfterSeconds === undefined
        ? {}
        : { details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryAfterSeconds}s` }] }),
    },
  };
}

/**
 * The status name for an error turn: the scenario's `type` when it is a Google status name
 * (e.g. RESOURCE_EXHAUSTED), else the canonical one for the HTTP code (scenario files written
 * for Anthropic name Anthropic types).
 */
export function geminiErrorStatus(code: number, scenarioType: string | undefined): string {
  return scenarioType !== undefined && /^[A-Z_]+$/.test(scenarioType) ? scenarioType : canonicalStatus(code);
}

/** `GET /v1beta/models`: the mock models in the API's listing shape. */
export function geminiModelList(modelIds: readonly string[]): Record<string, unknown> {
  return {
    models: modelIds.map((id) => ({
      name: `models/${id}`,
      version: "001",
      displayName: id,
      inputTokenLimit: 1_048_576,
      outputTokenLimit: 65_536,
      supportedGenerationMethods: ["generateContent", "streamGenerateContent", "countTokens"],
      thinking: true,
    })),
  };
}

function usageMetadataOf(turn: ResponseTurn, context: GeminiResponseContext) {
  const cached = turn.usage?.cache_read_input_tokens ?? 0;
  // Gemini's prompt count includes the cached prefix.
  const prompt = (turn.usage?.input_tokens ?? context.estimatedInputTokens) + cached;
  const generated =
    (turn.text ?? "").length + (turn.tool_calls ?? []).reduce((total, call) => total + JSON.stringify(call.input).length, 0);
  const candidates = turn.usage?.output_tokens ?? estimateTokens(generated);
  const thoughts = turn.thinking ? estimateTokens(turn.thinking.length) : 0;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates + thoughts,
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: prompt }],
  };
}

/** Gemini ends function-calling responses with STOP too; it has no pause or stop-sequence reason. */
function finishReasonOf(stopReason: ScenarioStopReason | undefined): string {
  switch (stopReason) {
    case "max_tokens":
      return "MAX_TOKENS";
    case "refusal":
      return "SAFETY";
    case "pause_turn":
      return "OTHER";
    default:
      return "STOP";
  }
}

/** Scenario stream errors name Anthropic error types; these are their Gemini counterparts. */
function streamErrorStatus(type: string): number {
  switch (type) {
    case "overloaded_error":
      return 503;
    case "rate_limit_error":
      return 429;
    default:
      return 500;
  }
}

function canonicalStatus(code: number): string {
  switch (code) {
    case 400:
      return "INVALID_ARGUMENT";
    case 401:
      return "UNAUTHENTICATED";
    case 403:
      return "PERMISSION_DENIED";
    case 404:
      return "NOT_FOUND";
    case 429:
      return "RESOURCE_EXHAUSTED";
    case 503:
      return "UNAVAILABLE";
    case 504:
      return "DEADLINE_EXCEEDED";
    default:
      return code >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
  }
}

function defaultMessage(code: number): string {
  switch (code) {
    case 401:
      return "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.";
    case 403:
      return "The caller does not have permission";
    case 429:
      return "Resource has been exhausted (e.g. check quota).";
    case 503:
      return "The model is overloaded. Please try again later.";
    default:
      return code >= 500
        ? "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"
        : `Request failed with status ${code}`;
  }
}

/** Google terminates each SSE event with CRLF pairs. */
function sseFrame(data: unknown): string {
  return `data: ${JSON.stringify(data)}\r\n\r\n`;
}
