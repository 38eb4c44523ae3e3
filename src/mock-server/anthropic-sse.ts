import { splitIntoChunks } from "./chunks.js";
import type { ResponseTurn, ScenarioStopReason } from "./scenario.js";

/**
 * Pure encoder from a scripted response turn to the Anthropic Messages wire format: the SSE
 * frames of a streaming response, the JSON body of a non-streaming one, and error bodies.
 * Payload shapes follow what the real API sends (see the reference captures with
 * --include-partial-messages), so the real `@anthropic-ai/sdk` consumes them unchanged.
 */

/** Everything about one response that the server decides, so that encoding stays pure. */
export interface AnthropicResponseContext {
  messageId: string;
  /** One id per scripted tool call, in order: the scenario's own id or a generated one. */
  toolUseIds: readonly string[];
  /** Used unless the turn names a model; the real API echoes the requested model. */
  requestedModel: string;
  /** Used unless the turn overrides `usage.input_tokens`. */
  estimatedInputTokens: number;
  requestId: string;
}

/** The real API streams text in pieces of about 8 characters. */
const defaultChunkCharacters = 8;

type AnthropicContentBlock =
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "server_tool_use"; id: string; name: "web_search"; input: { query: string } }
  | { type: "web_search_tool_result"; tool_use_id: string; content: Array<Record<string, unknown>> }
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export function encodeAnthropicStream(turn: ResponseTurn, context: AnthropicResponseContext): string[] {
  const blocks = contentBlocksOf(turn, context);
  const inputTokens = turn.usage?.input_tokens ?? context.estimatedInputTokens;
  const chunkCharacters = turn.chunk_chars ?? defaultChunkCharacters;
  const frames = [
    sseFrame("message_start", {
      type: "message_start",
      message: {
        ...messageEnvelope(turn, context),
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: usageObject(turn, inputTokens, 1),
      },
    }),
    sseFrame("ping", { type: "ping" }),
  ];
  blocks.forEach((block, index) => frames.push(...blockFrames(block, index, chunkCharacters)));

  if (turn.stream_error) {
    // A mid-stream error replaces the end of the message: no message_delta, no message_stop.
    frames.push(sseFrame("error", anthropicErrorBody(turn.stream_error.type, turn.stream_error.message, context.requestId)));
    return frames;
  }
  frames.push(
    sseFrame("message_delta", {
      type: "message_delta",
      delta: { stop_reason: stopReasonOf(turn), stop_sequence: null },
      usage: usageObject(turn, inputTokens, outputTokensOf(turn, blocks)),
    }),
    sseFrame("message_stop", { type: "message_stop" }),
  );
  return frames;
}

/** The body of a non-streaming (`stream: false`) response for the same turn. */
export function encodeAnthropicMessage(turn: ResponseTurn, context: AnthropicResponseContext): Record<string, unknown> {
  const blocks = contentBlocksOf(turn, context);
  return {
    ...messageEnvelope(turn, context),
    content: blocks,
    stop_reason: stopReasonOf(turn),
    stop_sequence: null,
    usage: usageObject(turn, turn.usage?.input_tokens ?? context.estimatedInputTokens, outputTokensOf(turn, blocks)),
  };
}

export function anthropicErrorBody(type: string, message: string, requestId: string): Record<string, unknown> {
  return { type: "error", error: { type, message }, request_id: requestId };
}

/** Error type and message the real API uses for a status, for error turns that omit them. */
export function defaultAnthropicError(status: number): { type: string; message: string } {
  switch (status) {
    case 400:
      return { type: "invalid_request_error", message: "Invalid request" };
    case 401:
      return { type: "authentication_error", message: "invalid x-api-key" };
    case 403:
      return { type: "permission_error", message: "Your API key does not have permission to use the specified resource." };
    case 404:
      return { type: "not_found_error", message: "Not found" };
    case 413:
      return { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." };
    case 429:
      return { type: "rate_limit_error", message: "Number of requests has exceeded your rate limit." };
    case 529:
      return { type: "overloaded_error", message: "Overloaded" };
    default:
      return status >= 500
        ? { type: "api_error", message: "Internal server error" }
        : { type: "invalid_request_error", message: `Request failed with status ${status}` };
  }
}

function messageEnvelope(turn: ResponseTurn, context: AnthropicResponseContext) {
  return { id: context.messageId, type: "message", role: "assistant", model: turn.model ?? context.requestedModel };
}

/** Block order is fixed: thinking, text, then tool calls, as a model answers. */
function contentBlocksOf(turn: ResponseTurn, context: AnthropicResponseContext): AnthropicContentBlock[] {
  const blocks: AnthropicContentBlock[] = [];
  if (turn.thinking) {
    blocks.push({ type: "thinking", thinking: turn.thinking, signature: `mock_signature_${context.messageId}` });
  }
  if (turn.web_search) {
    // The server tool's call and its results, as the API streams them before the model's answer.
    const id = `srvtoolu_${context.messageId.replace(/^msg_/, "")}`;
    blocks.push({ type: "server_tool_use", id, name: "web_search", input: { query: turn.web_search.query ?? "search" } });
    blocks.push({
      type: "web_search_tool_result",
      tool_use_id: id,
      content: turn.web_search.results.map((result) => ({
        type: "web_search_result",
        title: result.title,
        url: result.url,
        encrypted_content: "mock_encrypted_content",
        page_age: null,
      })),
    });
  }
  if (turn.text) blocks.push({ type: "text", text: turn.text });
  (turn.tool_calls ?? []).forEach((call, callIndex) => {
    const id = context.toolUseIds[callIndex];
    if (id === undefined) throw new Error(`No tool-use id was provided for tool call ${callIndex}`);
    blocks.push({ type: "tool_use", id, name: call.name, input: call.input });
  });
  return blocks;
}

function blockFrames(block: AnthropicContentBlock, index: number, chunkCharacters: number): string[] {
  const delta = (payload: Record<string, unknown>) =>
    sseFrame("content_block_delta", { type: "content_block_delta", index, delta: payload });
  const frames: string[] = [];
  switch (block.type) {
    case "thinking":
      frames.push(blockStartFrame(index, { type: "thinking", thinking: "", signature: "" }));
      for (const piece of splitIntoChunks(block.thinking, chunkCharacters)) {
        frames.push(delta({ type: "thinking_delta", thinking: piece }));
      }
      frames.push(delta({ type: "signature_delta", signature: block.signature }));
      break;
    case "text":
      frames.push(blockStartFrame(index, { type: "text", text: "" }));
      for (const piece of splitIntoChunks(block.text, chunkCharacters)) {
        frames.push(delta({ type: "text_delta", text: piece }));
      }
      break;
    case "server_tool_use":
      frames.push(blockStartFrame(index, { type: "server_tool_use", id: block.id, name: block.name, input: {} }));
      frames.push(delta({ type: "input_json_delta", partial_json: JSON.stringify(block.input) }));
      break;
    case "web_search_tool_result":
      // The results come whole in the block's start; no deltas follow.
      frames.push(blockStartFrame(index, block));
      break;
    case "tool_use":
      frames.push(blockStartFrame(index, { type: "tool_use", id: block.id, name: block.name, input: {} }));
      // The real API opens every tool input with an empty partial_json delta.
      frames.push(delta({ type: "input_json_delta", partial_json: "" }));
      for (const piece of splitIntoChunks(JSON.stringify(block.input), chunkCharacters)) {
        frames.push(delta({ type: "input_json_delta", partial_json: piece }));
      }
      break;
  }
  frames.push(sseFrame("content_block_stop", { type: "content_block_stop", index }));
  return frames;
}

function blockStartFrame(index: number, contentBlock: Record<string, unknown>): string {
  return sseFrame("content_block_start", { type: "content_block_start", index, content_block: contentBlock });
}

function sseFrame(eventName: string, data: unknown): string {
  return `event: ${eventName}\ndata: ${JSON.stringify(data)}\n\n`;
}

function stopReasonOf(turn: ResponseTurn): ScenarioStopReason {
  return turn.stop_reason ?? (turn.tool_calls?.length ? "tool_use" : "end_turn");
}

function usageObject(turn: ResponseTurn, inputTokens: number, outputTokens: number) {
  return {
    input_tokens: inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: turn.usage?.cache_read_input_tokens ?? 0,
    output_tokens: outputTokens,
    ...(turn.web_search ? { server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 } } : {}),
  };
}

/** Roughly 4 characters per token, like the reference server's estimate; at least 1. */
function outputTokensOf(turn: ResponseTurn, blocks: AnthropicContentBlock[]): number {
  if (turn.usage?.output_tokens !== undefined) return turn.usage.output_tokens;
  const generatedCharacters = blocks.reduce((total, block) => {
    switch (block.type) {
      case "thinking":
        return total + block.thinking.length;
      case "text":
        return total + block.text.length;
      case "tool_use":
        return total + JSON.stringify(block.input).length;
      default:
        return total;
    }
  }, 0);
  return Math.max(1, Math.ceil(generatedCharacters / 4));
}
