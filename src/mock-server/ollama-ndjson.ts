import { DEFAULT_CHUNK_CHARACTERS, estimateTokens, splitIntoChunks } from "./chunks.js";
import { contentText } from "./openai-chat-sse.js";
import type { ResponseTurn } from "./scenario.js";

/**
 * Pure encoder from a scripted response turn to Ollama's native chat API (`POST /api/chat`):
 * newline-delimited JSON objects, each with a `message` piece (`thinking`, `content`, whole
 * `tool_calls` with object arguments), the last with `done: true`, `done_reason` and the counts.
 * `stream: false` gets the same fields in one object.
 */

export interface OllamaResponseContext {
  requestedModel: string;
  estimatedInputTokens: number;
  /** ISO-8601. */
  createdAt: string;
}

export function encodeOllamaChatStream(turn: ResponseTurn, context: OllamaResponseContext): string[] {
  const chunkCharacters = turn.chunk_chars ?? DEFAULT_CHUNK_CHARACTERS;
  const line = (message: Record<string, unknown>, done = false) =>
    `${JSON.stringify({ model: turn.model ?? context.requestedModel, created_at: context.createdAt, message: { role: "assistant", content: "", ...message }, done, ...(done ? finalFields(turn, context) : {}) })}\n`;
  const lines: string[] = [];
  for (const piece of splitIntoChunks(turn.thinking ?? "", chunkCharacters)) lines.push(line({ thinking: piece }));
  for (const piece of splitIntoChunks(contentText(turn), chunkCharacters)) lines.push(line({ content: piece }));
  // Ollama parses a call out of the model's output and sends it whole, one per chunk.
  if (!turn.quirks?.tool_calls_as_text) {
    (turn.tool_calls ?? []).forEach((call, index) =>
      lines.push(
        line({ tool_calls: [{ ...(call.id ? { id: call.id } : {}), function: { index, name: call.name, arguments: call.input } }] }),
      ),
    );
  }
  if (turn.stream_error) {
    // A failure mid-stream arrives as an object with only `error`, and the stream ends.
    lines.push(`${JSON.stringify({ error: turn.stream_error.message })}\n`);
    return lines;
  }
  lines.push(line({}, true));
  return lines;
}

/** The body of a `stream: false` answer for the same turn. */
export function encodeOllamaChat(turn: ResponseTurn, context: OllamaResponseContext): Record<string, unknown> {
  const toolCalls = turn.quirks?.tool_calls_as_text
    ? []
    : (turn.tool_calls ?? []).map((call, index) => ({ function: { index, name: call.name, arguments: call.input } }));
  return {
    model: turn.model ?? context.requestedModel,
    created_at: context.createdAt,
    message: {
      role: "assistant",
      content: contentText(turn),
      ...(turn.thinking ? { thinking: turn.thinking } : {}),
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    },
    done: true,
    ...finalFields(turn, context),
  };
}

function finalFields(turn: ResponseTurn, context: OllamaResponseContext): Record<string, unknown> {
  const output =
    turn.usage?.output_tokens ??
    estimateTokens((turn.thinking ?? "").length + contentText(turn).length + JSON.stringify(turn.tool_calls ?? []).length);
  return {
    // Ollama says "stop" also after tool calls; "length" when num_predict or the context ran out.
    done_reason: turn.stop_reason === "max_tokens" ? "length" : "stop",
    total_duration: 1_000_000,
    load_duration: 0,
    prompt_eval_count: turn.usage?.input_tokens ?? context.estimatedInputTokens,
    prompt_eval_duration: 500_000,
    eval_count: output,
    eval_duration: 500_000,
  };
}

/** Ollama's error body: a bare `error` string. */
export function ollamaErrorBody(message: string): Record<string, unknown> {
  return { error: message };
}
