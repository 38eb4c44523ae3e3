import { DEFAULT_CHUNK_CHARACTERS, estimateTokens, splitIntoChunks } from "./chunks.js";
import type { OpenAIResponseContext } from "./openai-chat-sse.js";
import type { ResponseTurn } from "./scenario.js";

/**
 * Pure encoder from a scripted response turn to the OpenAI Responses streaming format: named SSE
 * events (`event: response.created`, …, `event: response.completed`), each data payload carrying
 * its `type` and a `sequence_number`. Thinking becomes a reasoning item with a summary (and
 * encrypted content when the request includes `reasoning.encrypted_content`), text a message
 * item, each tool call a `function_call` item.
 */

export interface ResponsesContext extends OpenAIResponseContext {
  /** The request asked for `include: ["reasoning.encrypted_content"]`. */
  includeEncryptedReasoning: boolean;
  /** The request asked for `include: ["web_search_call.action.sources"]`. */
  includeSearchSources?: boolean;
}

type OutputItem = Record<string, unknown> & { id: string; type: string };

export function encodeResponsesStream(turn: ResponseTurn, context: ResponsesContext): string[] {
  const chunkCharacters = turn.chunk_chars ?? DEFAULT_CHUNK_CHARACTERS;
  const frames: string[] = [];
  let sequence = 0;
  const emit = (type: string, payload: Record<string, unknown>) => {
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...payload })}\n\n`);
  };
  const items = outputItems(turn, context);
  emit("response.created", { response: responseObject(turn, context, "in_progress", []) });
  emit("response.in_progress", { response: responseObject(turn, context, "in_progress", []) });

  items.forEach((item, outputIndex) => {
    const at = { item_id: item.id, output_index: outputIndex };
    emit("response.output_item.added", { output_index: outputIndex, item: startedItem(item) });
    if (item.type === "reasoning") {
      const text = turn.thinking ?? "";
      const part = { type: "summary_text", text: "" };
      emit("response.reasoning_summary_part.added", { ...at, summary_index: 0, part });
      for (const delta of splitIntoChunks(text, chunkCharacters))
        emit("response.reasoning_summary_text.delta", { ...at, summary_index: 0, delta });
      emit("response.reasoning_summary_text.done", { ...at, summary_index: 0, text });
      emit("response.reasoning_summary_part.done", { ...at, summary_index: 0, part: { ...part, text } });
    } else if (item.type === "web_search_call") {
      for (const phase of ["in_progress", "searching", "completed"]) emit(`response.web_search_call.${phase}`, at);
    } else if (item.type === "message") {
      const text = turn.text ?? "";
      const part = { type: "output_text", text: "", annotations: [], logprobs: [] };
      emit("response.content_part.added", { ...at, content_index: 0, part });
      for (const delta of splitIntoChunks(text, chunkCharacters))
        emit("response.output_text.delta", { ...at, content_index: 0, delta, logprobs: [] });
      emit("response.output_text.done", { ...at, content_index: 0, text, logprobs: [] });
      emit("response.content_part.done", { ...at, content_index: 0, part: { ...part, text, annotations: citationsOf(turn) } });
    } else {
      const args = String(item.arguments);
      for (const delta of splitIntoChunks(args, chunkCharacters)) emit("response.function_call_arguments.delta", { ...at, delta });
      emit("response.function_call_arguments.done", { ...at, name: item.name, arguments: args });
    }
    emit("response.output_item.done", { output_index: outputIndex, item });
  });

  if (turn.stream_error) {
    emit("error", { code: turn.stream_error.type, message: turn.stream_error.message, param: null });
    return frames;
  }
  const incomplete = turn.stop_reason === "max_tokens";
  emit(incomplete ? "response.incomplete" : "response.completed", {
    response: responseObject(turn, context, incomplete ? "incomplete" : "completed", items),
  });
  return frames;
}

/** The final response object, as `response.completed` carries it (also the non-streaming body). */
export function responseObject(
  turn: ResponseTurn,
  context: ResponsesContext,
  status: string,
  output: OutputItem[],
): Record<string, unknown> {
  const done = status !== "in_progress";
  return {
    id: context.responseId,
    object: "response",
    created_at: context.createdAt,
    status,
    model: turn.model ?? context.requestedModel,
    output,
    incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
    error: null,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    store: false,
    usage: done ? usageOf(turn, context) : null,
  };
}

export function encodeResponse(turn: ResponseTurn, context: ResponsesContext): Record<string, unknown> {
  return responseObject(turn, context, turn.stop_reason === "max_tokens" ? "incomplete" : "completed", outputItems(turn, context));
}

/** The finished output items, in the order a model produces them: reasoning, message, calls. */
function outputItems(turn: ResponseTurn, context: ResponsesContext): OutputItem[] {
  const suffix = context.responseId.replace(/^resp_/, "");
  const items: OutputItem[] = [];
  if (turn.thinking) {
    items.push({
      id: `rs_${suffix}`,
      type: "reasoning",
      summary: [{ type: "summary_text", text: turn.thinking }],
      ...(context.includeEncryptedReasoning ? { encrypted_content: `mock_encrypted_${suffix}` } : {}),
    });
  }
  if (turn.web_search) {
    const { query = "search", results } = turn.web_search;
    items.push({
      id: `ws_${suffix}`,
      type: "web_search_call",
      status: "completed",
      action: {
        type: "search",
        query,
        ...(context.includeSearchSources ? { sources: results.map((result) => ({ type: "url", url: result.url })) } : {}),
      },
    });
  }
  if (turn.text) {
    items.push({
      id: `msg_${suffix}`,
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: turn.text, annotations: citationsOf(turn), logprobs: [] }],
    });
  }
  (turn.tool_calls ?? []).forEach((call, index) => {
    const callId = context.toolCallIds[index];
    items.push({
      id: `fc_${callId}`,
      type: "function_call",
      status: "completed",
      call_id: callId,
      name: call.name,
      arguments: JSON.stringify(call.input),
    });
  });
  return items;
}

/** The answer cites every search result, over its whole text. */
function citationsOf(turn: ResponseTurn): Array<Record<string, unknown>> {
  const end = (turn.text ?? "").length;
  return (turn.web_search?.results ?? []).map((result) => ({
    type: "url_citation",
    start_index: 0,
    end_index: end,
    url: result.url,
    title: result.title,
  }));
}

/** An item as `output_item.added` announces it: nothing generated yet. */
function startedItem(item: OutputItem): OutputItem {
  switch (item.type) {
    case "reasoning":
      return { id: item.id, type: "reasoning", summary: [] };
    case "message":
      return { ...item, status: "in_progress", content: [] };
    case "web_search_call":
      return { id: item.id, type: "web_search_call", status: "in_progress" };
    default:
      return { ...item, status: "in_progress", arguments: "" };
  }
}

/** Input counts include cached tokens, output counts include reasoning tokens. */
function usageOf(turn: ResponseTurn, context: ResponsesContext) {
  const cached = turn.usage?.cache_read_input_tokens ?? 0;
  const input = (turn.usage?.input_tokens ?? context.estimatedInputTokens) + cached;
  const reasoning = turn.thinking ? estimateTokens(turn.thinking.length) : 0;
  const output =
    turn.usage?.output_tokens ??
    estimateTokens((turn.thinking ?? "").length + (turn.text ?? "").length + JSON.stringify(turn.tool_calls ?? []).length);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  };
}
