import { VENDOR_BASE_URLS } from "./vendor-urls.js";
import { randomUUID } from "../text/random-uuid.js";
import { GoogleGenAI, type GenerateContentResponse, type Part } from "@google/genai";
import { toGeminiRequest } from "./gemini-request.js";
import { geminiTransport, toErrorEvent, toUsage, type GeminiProviderOptions } from "./gemini-wire.js";
import { emptyUsage, type Provider, type ProviderEvent, type ProviderRequest, type StopReason, type Usage } from "./types.js";

export type { GeminiProviderOptions } from "./gemini-wire.js";

/**
 * The Gemini API (`generativelanguage.googleapis.com`) through `@google/genai`, streamed with
 * `generateContentStream`. Retrying is agentwire's: the SDK's HTTP retries are limited to one
 * attempt and its automatic continuation (re-requesting a resumable response) is off.
 *
 * Contract: that of `Provider` (types.ts). Without an API key, a request for which no bearer
 * token can be had ends with a non-retryable `auth` error before anything is sent.
 */
export function createGeminiProvider(options: GeminiProviderOptions): Provider {
  const client = new GoogleGenAI({
    // Explicit, so GOOGLE_GENAI_USE_VERTEXAI in the environment cannot send the requests (and
    // the key) to Vertex AI instead.
    vertexai: false,
    // Without a key the SDK searches for Application Default Credentials and warns on stderr;
    // keyless requests get this placeholder, which `sendRequest` swaps for the bearer token.
    apiKey: options.apiKey ?? "unused-bearer-token-requests",
    httpOptions: { ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}), retryOptions: { attempts: 1 } },
  });
  return {
    id: "gemini",
    stream: (request, signal) => streamGemini(client, options, request, signal),
    webSearch: async (request, model, signal) =>
      (await import("./web-search/gemini-web-search.js")).searchWithGemini(client, options, request, model, signal),
  };
}

async function* streamGemini(
  client: GoogleGenAI,
  options: GeminiProviderOptions,
  request: ProviderRequest,
  signal: AbortSignal,
): AsyncGenerator<ProviderEvent> {
  const transport = await geminiTransport(options);
  if ("error" in transport) {
    yield transport.error;
    return;
  }
  const { sendRequest, failedResponseHeaders } = transport;
  const translator = new GeminiStreamTranslator(request.model);
  const { contents, config } = toGeminiRequest(request);
  try {
    const stream = await client.models.generateContentStream({
      model: request.model,
      contents,
      config: {
        ...config,
        abortSignal: signal,
        automaticContinuation: false,
        httpOptions: { headers: { "x-agentwire-session-id": request.sessionId }, fetch: sendRequest },
      },
    });
    for await (const chunk of stream) yield* translator.translate(chunk);
    yield* translator.finish();
  } catch (error) {
    // The connection can drop after the last chunk; a response that already has its finish
    // reason is complete.
    if (!signal.aborted && translator.hasStopReason()) yield* translator.finish();
    else
      yield toErrorEvent(
        error,
        signal,
        failedResponseHeaders(),
        `${options.baseUrl ?? VENDOR_BASE_URLS.gemini}/v1beta/models/${request.model}:streamGenerateContent`,
      );
  }
}

type OpenBlock = { kind: "text" | "thinking"; index: number; text: string; signature: string | undefined };

/**
 * Maps Gemini response chunks onto the normalized events. Gemini sends no block boundaries:
 * consecutive text parts (or thought parts) form one block, a function call is a whole block
 * in one part, and the finish reason comes with the last chunk.
 */
class GeminiStreamTranslator {
  private started = false;
  private nextIndex = 0;
  private open: OpenBlock | undefined;
  private calledFunctions = false;
  private finishReason: string | undefined;
  private blockReason: string | undefined;
  private usage: Usage = emptyUsage();

  constructor(private readonly requestedModel: string) {}

  hasStopReason(): boolean {
    return this.finishReason !== undefined || this.blockReason !== undefined;
  }

  *translate(chunk: GenerateContentResponse): Generator<ProviderEvent> {
    if (chunk.usageMetadata) this.usage = toUsage(chunk.usageMetadata);
    if (!this.started) {
      this.started = true;
      yield {
        type: "message_start",
        messageId: chunk.responseId || `gemini_${randomUUID()}`,
        model: chunk.modelVersion || this.requestedModel,
        usage: this.usage,
      };
    }
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) yield* this.translatePart(part);
    if (candidate?.finishReason) this.finishReason = candidate.finishReason;
    // A blocked prompt gets no candidate at all, only the reason.
    if (chunk.promptFeedback?.blockReason) this.blockReason = chunk.promptFeedback.blockReason;
  }

  *finish(): Generator<ProviderEvent> {
    if (!this.hasStopReason()) {
      // Open blocks stay unfinished, as with any dropped stream: the attempt is abandoned.
      yield {
        type: "error",
        kind: "disconnect",
        status: null,
        retryable: true,
        message: "The Gemini stream ended without a finish reason.",
      };
      return;
    }
    yield* this.closeOpenBlock();
    if (this.finishReason === "MALFORMED_FUNCTION_CALL") {
      // The call never reached us; asking again usually produces a well-formed one.
      yield {
        type: "error",
        kind: "unknown",
        status: null,
        retryable: true,
        message: "Gemini produced a malformed function call (finishReason MALFORMED_FUNCTION_CALL).",
      };
      return;
    }
    const raw = this.blockReason ?? this.finishReason ?? null;
    const normalized = this.blockReason ? "refusal" : normalizeFinishReason(this.finishReason, this.calledFunctions);
    yield { type: "message_end", stopReason: { normalized, raw }, usage: this.usage };
  }

  private *translatePart(part: Part): Generator<ProviderEvent> {
    if (part.functionCall) {
      yield* this.closeOpenBlock();
      const index = this.nextIndex++;
      // Gemini 2.x sends no call ids; generated ones are random so they stay unique in a
      // session that is resumed by another process.
      const id = part.functionCall.id || `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
      const name = part.functionCall.name ?? "";
      const input = part.functionCall.args ?? {};
      this.calledFunctions = true;
      yield { type: "tool_call_start", index, id, name };
      yield { type: "tool_call_delta", index, partialJson: JSON.stringify(input) };
      yield { type: "tool_call_end", index, id, name, input, ...(part.thoughtSignature ? { signature: part.thoughtSignature } : {}) };
      return;
    }
    if (typeof part.text !== "string") return; // Other part kinds (code execution, media) are not requested.
    if (part.text === "") {
      // Gemini may end a stream with an empty text part that only carries the signature of
      // what came before it.
      if (part.thoughtSignature && this.open && !this.open.signature) yield* this.sign(this.open, part.thoughtSignature);
      return;
    }
    const kind = part.thought ? "thinking" : "text";
    // A second signature marks a new step: each signature stays with its own block.
    if (this.open && (this.open.kind !== kind || (this.open.signature && part.thoughtSignature))) yield* this.closeOpenBlock();
    const block = this.open ?? (yield* this.openBlock(kind));
    block.text += part.text;
    yield block.kind === "text"
      ? { type: "text_delta", index: block.index, text: part.text }
      : { type: "thinking_delta", index: block.index, thinking: part.text };
    if (part.thoughtSignature) yield* this.sign(block, part.thoughtSignature);
  }

  private *sign(block: OpenBlock, signature: string): Generator<ProviderEvent> {
    block.signature = signature;
    // Claude's stream has signature deltas for thinking blocks only.
    if (block.kind === "thinking") yield { type: "signature_delta", index: block.index, signature };
  }

  private *openBlock(kind: OpenBlock["kind"]): Generator<ProviderEvent, OpenBlock> {
    const block: OpenBlock = { kind, index: this.nextIndex++, text: "", signature: undefined };
    this.open = block;
    yield kind === "text" ? { type: "text_start", index: block.index } : { type: "thinking_start", index: block.index };
    return block;
  }

  private *closeOpenBlock(): Generator<ProviderEvent> {
    const block = this.open;
    if (!block) return;
    this.open = undefined;
    const signature = block.signature === undefined ? {} : { signature: block.signature };
    yield block.kind === "text"
      ? { type: "text_end", index: block.index, text: block.text, ...signature }
      : { type: "thinking_end", index: block.index, thinking: block.text, ...signature };
  }
}

/** Gemini finishes a function-calling response with STOP; the calls make it a tool_use stop. */
function normalizeFinishReason(finishReason: string | undefined, calledFunctions: boolean): StopReason {
  switch (finishReason) {
    case "STOP":
      return calledFunctions ? "tool_use" : "end_turn";
    case "MAX_TOKENS":
      return "max_tokens";
    case "SAFETY":
    case "RECITATION":
    case "BLOCKLIST":
    case "PROHIBITED_CONTENT":
    case "SPII":
    case "IMAGE_SAFETY":
    case "IMAGE_PROHIBITED_CONTENT":
    case "IMAGE_RECITATION":
      return "refusal";
    default:
      return "other";
  }
}
