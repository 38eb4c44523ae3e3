import type OpenAI from "openai";
import { APIError } from "openai";
import type {
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from "openai/resources/chat/completions";
import type { Message, UserContentBlock } from "../conversation/messages.js";
import { ChatStreamTranslator } from "./openai-chat-stream.js";
import { ollamaChat, OllamaContextSizer, type OllamaNativeSettings } from "./ollama-native.js";
import { createOpenAIClient, toOpenAIErrorEvent, type OpenAIConnection } from "./openai-client.js";
import { isOpenAIReasoningModel, reasoningEffort } from "./openai-settings.js";
import { fallbackCallIds } from "./fallback-call-ids.js";
import { isToolsUnsupportedMessage, ToolSupportTracker, type ToolSupportProbe } from "./tool-support.js";
import type { Provider, ProviderEvent, ProviderRequest } from "./types.js";

export interface OpenAIChatProviderOptions extends OpenAIConnection {
  /** Shown in `system/init.provider`: "openai", "ollama", "vllm", … */
  id: string;
  /**
   * `openai`: api.openai.com (or a faithful proxy). `compatible`: a local or third-party server;
   * turns on the quirk handling — tool-support detection with a text-only fallback, calls printed
   * as text, no output cap sent.
   */
  flavor: "openai" | "compatible";
  /** How a compatible server is asked whether a model takes tools (Ollama: `/api/show`). */
  toolSupportProbe?: ToolSupportProbe;
  /** Ollama: requests go to its native `/api/chat`, which takes the context size (ollama-native.ts). */
  ollamaNative?: OllamaNativeSettings;
}

/**
 * OpenAI Chat Completions through the `openai` SDK, streamed, for OpenAI itself and for every
 * server that speaks the same API (Ollama, llama.cpp, vLLM, LM Studio, proxies).
 */
export function createOpenAIChatProvider(options: OpenAIChatProviderOptions): Provider {
  const client = createOpenAIClient(options);
  const toolSupport = options.flavor === "compatible" ? new ToolSupportTracker(options.toolSupportProbe) : undefined;
  const contextSizer = options.ollamaNative ? new OllamaContextSizer(options.ollamaNative.contextWindow) : undefined;
  return {
    id: options.id,
    stream: (request, signal) => streamChat(client, options, { toolSupport, contextSizer }, request, signal),
  };
}

async function* streamChat(
  client: OpenAI,
  options: OpenAIChatProviderOptions,
  state: { toolSupport: ToolSupportTracker | undefined; contextSizer: OllamaContextSizer | undefined },
  request: ProviderRequest,
  signal: AbortSignal,
): AsyncGenerator<ProviderEvent> {
  const { toolSupport } = state;
  let sendTools = request.tools.length > 0;
  if (sendTools && toolSupport && !(await toolSupport.supportsTools(request.model, signal))) {
    sendTools = false;
    yield* toolsUnsupportedWarning(toolSupport, request.model);
  }
  const native = options.ollamaNative && state.contextSizer ? { settings: options.ollamaNative, sizer: state.contextSizer } : undefined;
  const endpoint = native ? `${native.settings.root}/api/chat` : `${client.baseURL}/chat/completions`;
  const create = async (
    withTools: boolean,
  ): Promise<{ data: AsyncIterable<ChatCompletionChunk>; request_id: string | null; warning?: string | undefined }> => {
    const params = toChatParams(request, options.flavor, withTools);
    if (native) return ollamaChat(params, native.settings, native.sizer, signal);
    return client.chat.completions.create(params, { signal, headers: { "x-agentwire-session-id": request.sessionId } }).withResponse();
  };
  try {
    let response: Awaited<ReturnType<typeof create>>;
    try {
      response = await create(sendTools);
    } catch (error) {
      // The server's "does not support tools" is the probe of last resort: ask once more, text-only.
      if (!toolSupport || !sendTools || !(error instanceof APIError) || !isToolsUnsupportedMessage(error.message)) throw error;
      toolSupport.markUnsupported(request.model);
      yield* toolsUnsupportedWarning(toolSupport, request.model);
      response = await create(false);
    }
    if (response.warning) yield { type: "warning", code: "context_window_exceeded", message: response.warning };
    const translator = new ChatStreamTranslator({
      requestedModel: request.model,
      requestId: response.request_id ?? undefined,
      toolNames: new Set(request.tools.map((tool) => tool.name)),
      parseTextToolCalls: options.flavor === "compatible",
      newCallId: fallbackCallIds(request.messages),
    });
    for await (const chunk of response.data) yield* translator.translate(chunk);
    // The SDK ends the iteration quietly when the request is aborted.
    if (signal.aborted) {
      yield { type: "error", kind: "aborted", status: null, retryable: false, message: "Request aborted." };
      return;
    }
    yield* translator.finish();
  } catch (error) {
    yield toOpenAIErrorEvent(error, signal, endpoint);
  }
}

function* toolsUnsupportedWarning(toolSupport: ToolSupportTracker, model: string): Generator<ProviderEvent> {
  const message = toolSupport.takeWarning(model);
  if (message) yield { type: "warning", code: "tools_unsupported", message };
}

function toChatParams(
  request: ProviderRequest,
  flavor: OpenAIChatProviderOptions["flavor"],
  withTools: boolean,
): ChatCompletionCreateParamsStreaming {
  const reasoning = flavor === "openai" && isOpenAIReasoningModel(request.model);
  return {
    model: request.model,
    stream: true,
    stream_options: { include_usage: true },
    messages: toChatMessages(request.system, request.messages),
    ...(withTools
      ? {
          tools: request.tools.map((tool) => ({
            type: "function" as const,
            function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
          })),
        }
      : {}),
    // Local servers bound the output by the context they were started with; a large cap only
    // makes vLLM reject prompts whose length plus the cap exceeds the model's window.
    ...(flavor === "openai" ? { max_completion_tokens: request.maxOutputTokens, prompt_cache_key: request.sessionId } : {}),
    ...(reasoning && request.thinkingBudgetTokens ? { reasoning_effort: reasoningEffort(request.thinkingBudgetTokens) } : {}),
  };
}

/**
 * The neutral conversation in Chat Completions shape. Tool results become `tool` messages right
 * after the assistant message that asked for them; thinking is not sent back (the API has no
 * input for it, and DeepSeek-style servers reject it).
 */
function toChatMessages(system: string, messages: Message[]): ChatCompletionMessageParam[] {
  const result: ChatCompletionMessageParam[] = system ? [{ role: "system", content: system }] : [];
  for (const message of messages) {
    if (message.role === "assistant") {
      const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
      const toolCalls: ChatCompletionMessageToolCall[] = message.content.flatMap((block) =>
        block.type === "tool_use"
          ? [{ id: block.id, type: "function" as const, function: { name: block.name, arguments: JSON.stringify(block.input) } }]
          : [],
      );
      if (text === "" && toolCalls.length === 0) continue;
      result.push({ role: "assistant", content: text === "" ? null : text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) });
      continue;
    }
    const userParts: ChatCompletionContentPart[] = [];
    for (const block of message.content) {
      if (block.type === "tool_result") {
        const { text, images } = splitToolResult(block);
        result.push({ role: "tool", tool_call_id: block.toolUseId, content: block.isError ? `Error: ${text}` : text });
        // Tool messages carry text only; images the tool returned follow as user content.
        userParts.push(...images);
      } else {
        userParts.push(...toUserPart(block));
      }
    }
    if (userParts.length === 0) continue;
    const onlyText = userParts.every((part) => part.type === "text");
    result.push({ role: "user", content: onlyText ? userParts.map((part) => (part as { text: string }).text).join("\n\n") : userParts });
  }
  return result;
}

function toUserPart(block: Exclude<UserContentBlock, { type: "tool_result" }>): ChatCompletionContentPart[] {
  if (block.type === "text") return block.text === "" ? [] : [{ type: "text", text: block.text }];
  return [{ type: "image_url", image_url: { url: `data:${block.mediaType};base64,${block.data}` } }];
}

function splitToolResult(block: Extract<UserContentBlock, { type: "tool_result" }>): { text: string; images: ChatCompletionContentPart[] } {
  if (typeof block.content === "string") return { text: block.content, images: [] };
  const text = block.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  const images = block.content.flatMap((part) => (part.type === "image" ? toUserPart(part) : []));
  return { text, images };
}
