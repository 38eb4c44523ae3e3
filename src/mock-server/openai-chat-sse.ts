import { DEFAULT_CHUNK_CHARACTERS, estimateTokens, splitIntoChunks } from "./chunks.js";
import type { ResponseTurn } from "./scenario.js";

/**
 * Pure encoder from a scripted response turn to the OpenAI Chat Completions wire format:
 * `data: {chunk}` SSE frames ending with `data: [DONE]`, or one `chat.completion` body. Thinking
 * is sent as `delta.reasoning_content`, as DeepSeek, vLLM and llama.cpp do (OpenAI itself sends
 * none). A turn's `quirks` reproduce what local servers get wrong.
 */

/** Everything about one response that the server decides, so that encoding stays pure. */
export interface OpenAIResponseContext {
  /** `chatcmpl_…` for Chat Completions, `resp_…` for Responses. */
  responseId: string;
  /** One per scripted tool call, in order: the scenario's own id or a generated one. */
  toolCallIds: readonly string[];
  /** Used unless the turn names a model; the real API echoes the requested model. */
  requestedModel: string;
  /** Used unless the turn overrides `usage.input_tokens`. */
  estimatedInputTokens: number;
  /** Chat Completions sends usage only when the request asks (`stream_options.include_usage`). */
  includeUsage: boolean;
  /** Unix seconds. */
  createdAt: number;
}

export function encodeChatCompletionStream(turn: ResponseTurn, context: OpenAIResponseContext): string[] {
  const quirks = turn.quirks ?? {};
  const chunkCharacters = turn.chunk_chars ?? DEFAULT_CHUNK_CHARACTERS;
  const envelope = {
    id: context.responseId,
    object: "chat.completion.chunk",
    created: context.createdAt,
    model: turn.model ?? context.requestedModel,
    system_fingerprint: null,
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    dataFrame({ ...envelope, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });

  const frames = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const piece of splitIntoChunks(turn.thinking ?? "", chunkCharacters)) frames.push(chunk({ reasoning_content: piece }));
  for (const piece of splitIntoChunks(contentText(turn), chunkCharacters)) frames.push(chunk({ content: piece }));
  if (!quirks.tool_calls_as_text) {
    (turn.tool_calls ?? []).forEach((call, index) => {
      const identity = { index, ...(quirks.omit_tool_call_ids ? {} : { id: context.toolCallIds[index] }), type: "function" };
      const pieces = splitIntoChunks(JSON.stringify(call.input), chunkCharacters);
      if (quirks.split_tool_call_arguments) {
        for (const piece of pieces) frames.push(chunk({ tool_calls: [{ ...identity, function: { name: call.name, arguments: piece } }] }));
        return;
      }
      // The real API names the call with empty arguments first, then streams only argument text.
      frames.push(chunk({ tool_calls: [{ ...identity, function: { name: call.name, arguments: "" } }] }));
      for (const piece of pieces) frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
  }
  if (turn.stream_error) {
    // A mid-stream failure arrives as a data frame holding an error, and the stream ends.
    frames.push(dataFrame({ error: { message: turn.stream_error.message, type: turn.stream_error.type, param: null, code: null } }));
    return frames;
  }
  frames.push(chunk({}, finishReasonOf(turn)));
  if (context.includeUsage && !quirks.omit_usage) frames.push(dataFrame({ ...envelope, choices: [], usage: usageOf(turn, context) }));
  frames.push("data: [DONE]\n\n");
  return frames;
}

/** The body of a non-streaming (`stream: false`) response for the same turn. */
export function encodeChatCompletion(turn: ResponseTurn, context: OpenAIResponseContext): Record<string, unknown> {
  const text = contentText(turn);
  const toolCalls = turn.quirks?.tool_calls_as_text
    ? []
    : (turn.tool_calls ?? []).map((call, index) => ({
        id: context.toolCallIds[index],
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.input) },
      }));
  return {
    id: context.responseId,
    object: "chat.completion",
    created: context.createdAt,
    model: turn.model ?? context.requestedModel,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: text === "" ? null : text,
          refusal: null,
          ...(turn.thinking ? { reasoning_content: turn.thinking } : {}),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonOf(turn),
      },
    ],
    usage: usageOf(turn, context),
  };
}

/** The message text, with the tool calls printed into it when the turn says so. */
export function contentText(turn: ResponseTurn): string {
  const mode = turn.quirks?.tool_calls_as_text;
  const calls = (turn.tool_calls ?? []).map((call) => ({ name: call.name, arguments: call.input }));
  if (!mode || calls.length === 0) return turn.text ?? "";
  const printed =
    mode === "json"
      ? JSON.stringify(calls.length === 1 ? calls[0] : calls)
      : calls.map((call) => `<tool_call>\n${JSON.stringify(call)}\n</tool_call>`).join("\n");
  return turn.text ? `${turn.text}\n${printed}` : printed;
}

function finishReasonOf(turn: ResponseTurn): string {
  const calls = (turn.tool_calls?.length ?? 0) > 0;
  switch (turn.stop_reason ?? (calls ? "tool_use" : "end_turn")) {
    case "tool_use":
      // Servers that pass printed calls through do not know they are calls.
      return turn.quirks?.tool_calls_as_text ? "stop" : "tool_calls";
    case "max_tokens":
      return "length";
    case "refusal":
      return "content_filter";
    default:
      return "stop";
  }
}

/** OpenAI counts cached and reasoning tokens inside the totals (prompt / completion). */
function usageOf(turn: ResponseTurn, context: OpenAIResponseContext) {
  const cached = turn.usage?.cache_read_input_tokens ?? 0;
  const prompt = (turn.usage?.input_tokens ?? context.estimatedInputTokens) + cached;
  const reasoning = turn.thinking ? estimateTokens(turn.thinking.length) : 0;
  const completion =
    turn.usage?.output_tokens ??
    estimateTokens((turn.thinking ?? "").length + contentText(turn).length + JSON.stringify(turn.tool_calls ?? []).length);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function dataFrame(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}
