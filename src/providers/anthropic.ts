// The SDK's base client only: the full `Anthropic` client builds every API namespace (beta,
// organization, skills...), ~360 KB of code a start would compile before its first request. The
// one endpoint agentwire calls is posted to directly (the client's published `post`), not through
// the Messages resource, whose `create` prints a deprecation notice with console.warn on every
// request for an older model (claude-sonnet-4-5-20250929): hosts show stderr as an error.
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import type { Stream } from "@anthropic-ai/sdk/core/streaming";
import type {
  ContentBlockParam,
  ImageBlockParam,
  TextBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  RawMessageStreamEvent,
  Tool,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type { Message } from "../conversation/messages.js";
import { thinkingStyle } from "./models.js";
import { toErrorEvent, toUsage, usageUpdate } from "./anthropic-wire.js";
import { parseToolArguments } from "./tool-call-assembler.js";
import { ResponseAccumulator } from "./response-accumulator.js";
import { nodeHttpFetch } from "./node-http-fetch.js";
import type { Provider, ProviderEvent, ProviderRequest, StopReason, UsageUpdate } from "./types.js";

export interface AnthropicProviderOptions {
  /** One of the two is set (the registry refuses to build the provider without credentials). */
  apiKey: string | undefined;
  /** ANTHROPIC_AUTH_TOKEN: sent as a bearer token, for gateways that take one. */
  authToken: string | undefined;
  /** Overrides ANTHROPIC_BASE_URL. */
  baseUrl?: string;
}

/**
 * Anthropic Messages API through `@anthropic-ai/sdk`, streamed. The SDK's own retries are off
 * (`maxRetries: 0`): retrying is agentwire's, so each retry is announced and an abandoned
 * attempt is discarded whole.
 */
export function createAnthropicProvider(options: AnthropicProviderOptions): Provider {
  const client = new BaseAnthropic({
    apiKey: options.apiKey ?? null,
    authToken: options.authToken ?? null,
    ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
    maxRetries: 0,
    timeout: 600_000,
    fetch: nodeHttpFetch,
  });
  return {
    id: "anthropic",
    stream: (request, signal) => streamAnthropic(client, request, signal),
    webSearch: async (request, model, signal) =>
      (await import("./web-search/anthropic-web-search.js")).searchWithAnthropic(client, request, model, signal),
  };
}

async function* streamAnthropic(client: BaseAnthropic, request: ProviderRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
  const translator = new AnthropicStreamTranslator();
  try {
    const { data: stream, request_id: requestId } = await client
      .post<Stream<RawMessageStreamEvent>>("/v1/messages", {
        body: toAnthropicParams(request),
        stream: true,
        signal,
        headers: {
          "x-agentwire-session-id": request.sessionId,
          ...(request.deferredToolLoading ? { "anthropic-beta": TOOL_SEARCH_BETA } : {}),
        },
      })
      .withResponse();
    for await (const event of stream) {
      yield* translator.translate(event, requestId ?? undefined);
    }
    if (!translator.finished) {
      yield { type: "error", kind: "disconnect", status: null, retryable: true, message: "The model stream ended before message_stop." };
    }
  } catch (error) {
    yield toErrorEvent(error, signal, `${client.baseURL}/v1/messages`);
  }
}

/**
 * Maps raw Anthropic stream events onto the normalized union. Blocks are assembled by the one
 * response accumulator, fed with the events this translator yields.
 */
class AnthropicStreamTranslator {
  finished = false;
  private readonly response = new ResponseAccumulator();
  private droppedToolCall = false;
  private stopReason: { normalized: StopReason; raw: string | null } = { normalized: "other", raw: null };
  private endUsage: UsageUpdate = {};

  *translate(event: RawMessageStreamEvent, requestId: string | undefined): Generator<ProviderEvent> {
    for (const normalized of this.normalize(event, requestId)) {
      this.response.apply(normalized);
      yield normalized;
    }
  }

  private *normalize(event: RawMessageStreamEvent, requestId: string | undefined): Generator<ProviderEvent> {
    switch (event.type) {
      case "message_start":
        yield {
          type: "message_start",
          messageId: event.message.id,
          model: event.message.model,
          usage: toUsage(event.message.usage),
          ...(requestId ? { requestId } : {}),
        };
        return;
      case "content_block_start": {
        const block = event.content_block;
        const index = event.index;
        if (block.type === "text") yield { type: "text_start", index };
        else if (block.type === "thinking") yield { type: "thinking_start", index };
        else if (block.type === "tool_use") yield { type: "tool_call_start", index, id: block.id, name: block.name };
        // Other block kinds (server tools, redacted thinking) are not used by agentwire yet.
        return;
      }
      case "content_block_delta": {
        if (!this.response.openBlock(event.index)) return;
        const delta = event.delta;
        if (delta.type === "text_delta") yield { type: "text_delta", index: event.index, text: delta.text };
        else if (delta.type === "thinking_delta") yield { type: "thinking_delta", index: event.index, thinking: delta.thinking };
        else if (delta.type === "signature_delta") yield { type: "signature_delta", index: event.index, signature: delta.signature };
        else if (delta.type === "input_json_delta") yield { type: "tool_call_delta", index: event.index, partialJson: delta.partial_json };
        return;
      }
      case "content_block_stop": {
        const block = this.response.openBlock(event.index);
        if (!block) return;
        if (block.kind === "text") yield { type: "text_end", index: event.index, text: block.text };
        else if (block.kind === "thinking") {
          yield {
            type: "thinking_end",
            index: event.index,
            thinking: block.text,
            ...(block.signature ? { signature: block.signature } : {}),
          };
        } else {
          const input = parseToolArguments(block.partialJson);
          // Arguments cut off mid-JSON (e.g. by max_tokens) must never run: drop the call.
          if (input === undefined) this.droppedToolCall = true;
          else yield { type: "tool_call_end", index: event.index, id: block.id, name: block.name, input };
        }
        return;
      }
      case "message_delta":
        this.stopReason = { normalized: normalizeStopReason(event.delta.stop_reason), raw: event.delta.stop_reason };
        this.endUsage = usageUpdate(event.usage);
        return;
      case "message_stop":
        this.finished = true;
        if (this.droppedToolCall && this.stopReason.normalized !== "max_tokens") {
          yield {
            type: "error",
            kind: "unknown",
            status: null,
            retryable: true,
            message: "The model sent tool input that is not valid JSON.",
          };
          return;
        }
        yield { type: "message_end", stopReason: this.stopReason, usage: this.endUsage };
        return;
    }
  }
}

function normalizeStopReason(raw: string | null): StopReason {
  switch (raw) {
    case "end_turn":
    case "tool_use":
    case "max_tokens":
    case "stop_sequence":
    case "refusal":
    case "pause_turn":
      return raw;
    default:
      return "other";
  }
}

function toAnthropicParams(request: ProviderRequest): MessageCreateParamsStreaming {
  return {
    model: request.model,
    max_tokens: request.maxOutputTokens,
    stream: true,
    ...(request.system ? { system: request.system } : {}),
    messages: toAnthropicMessages(request.messages),
    ...(request.tools.length > 0 || request.deferredToolLoading ? { tools: toAnthropicTools(request) } : {}),
    ...(request.thinkingBudgetTokens
      ? {
          thinking:
            thinkingStyle(request.model) === "adaptive"
              ? { type: "adaptive" }
              : { type: "enabled", budget_tokens: request.thinkingBudgetTokens },
        }
      : {}),
  };
}

/**
 * The request's tools. With deferred loading, as Claude Code sends them: a loaded tool keeps
 * `defer_loading` (the tool references in the conversation make its schema visible), and a
 * placeholder that is never called keeps the API's deferred loading on before anything loaded.
 */
function toAnthropicTools(request: ProviderRequest): Tool[] {
  const tools: Tool[] = request.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema as Tool["input_schema"],
    ...(request.deferredToolLoading && tool.deferLoading ? { defer_loading: true } : {}),
  }));
  if (request.deferredToolLoading) tools.push(DEFERRED_TOOL_PLACEHOLDER);
  return tools;
}

const DEFERRED_TOOL_PLACEHOLDER: Tool = {
  name: "DeferredToolPlaceholder",
  description: "Keeps deferred tool loading switched on; not a tool to call.",
  input_schema: { type: "object", properties: {} },
  defer_loading: true,
};

/** The beta Claude Code names for deferred tools and tool references. */
const TOOL_SEARCH_BETA = "advanced-tool-use-2025-11-20";

/** Consecutive messages of one role are merged: the API expects user/assistant alternation. */
function toAnthropicMessages(messages: Message[]): MessageParam[] {
  const result: MessageParam[] = [];
  for (const message of messages) {
    const content = message.content.flatMap(toAnthropicBlock);
    if (content.length === 0) continue;
    const previous = result.at(-1);
    if (previous && previous.role === message.role && Array.isArray(previous.content)) previous.content.push(...content);
    else result.push({ role: message.role, content });
  }
  return result;
}

function toAnthropicBlock(block: Message["content"][number]): ContentBlockParam[] {
  switch (block.type) {
    case "text":
      return block.text === "" ? [] : [{ type: "text", text: block.text }];
    case "thinking":
      // A thinking block without its signature is rejected by the API; it carries no
      // information the model needs to continue, so it is left out.
      return block.signature ? [{ type: "thinking", thinking: block.thinking, signature: block.signature }] : [];
    case "tool_use":
      return [{ type: "tool_use", id: block.id, name: block.name, input: block.input }];
    case "image":
      return [{ type: "image", source: { type: "base64", media_type: block.mediaType as "image/png", data: block.data } }];
    case "tool_result":
      return [
        {
          type: "tool_result",
          tool_use_id: block.toolUseId,
          content: typeof block.content === "string" ? block.content : block.content.map(toAnthropicResultPart),
          ...(block.isError ? { is_error: true } : {}),
        },
      ];
  }
}

type ToolResultPart = Exclude<Extract<Message["content"][number], { type: "tool_result" }>["content"], string>[number];

/** A tool reference goes as the API's beta block (the stable SDK types do not list it yet). */
function toAnthropicResultPart(part: ToolResultPart): TextBlockParam | ImageBlockParam {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
      return { type: "image", source: { type: "base64", media_type: part.mediaType as "image/png", data: part.data } };
    case "tool_reference":
      return { type: "tool_reference", tool_name: part.toolName } as unknown as TextBlockParam;
  }
}
