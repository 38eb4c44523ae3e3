import type OpenAI from "openai";
import type { ResponseCreateParamsStreaming, ResponseInputContent, ResponseInputItem } from "openai/resources/responses/responses";
import type { Message, UserContentBlock } from "../conversation/messages.js";
import { fallbackCallIds } from "./fallback-call-ids.js";
import { createOpenAIClient, toOpenAIErrorEvent, type OpenAIConnection } from "./openai-client.js";
import { decodeReasoningSignature, ResponsesStreamTranslator } from "./openai-responses-stream.js";
import { isOpenAIReasoningModel, reasoningEffort } from "./openai-settings.js";
import type { Provider, ProviderEvent, ProviderRequest } from "./types.js";

export interface OpenAIResponsesProviderOptions extends OpenAIConnection {
  /** Shown in `system/init.provider`. */
  id: string;
  /** The server has OpenAI's built-in `web_search` tool (OpenAI itself; not the servers that copy its API). */
  builtinWebSearch?: boolean;
}

/**
 * The OpenAI Responses API through the `openai` SDK, streamed and stateless (`store: false`):
 * the whole conversation is sent each time, with reasoning models' encrypted reasoning items, so
 * nothing depends on server-side state and `--resume` works as with every other provider.
 */
export function createOpenAIResponsesProvider(options: OpenAIResponsesProviderOptions): Provider {
  const client = createOpenAIClient(options);
  return {
    id: options.id,
    stream: (request, signal) => streamResponses(client, request, signal),
    ...(options.builtinWebSearch
      ? {
          webSearch: async (request, model, signal) =>
            (await import("./web-search/openai-web-search.js")).searchWithOpenAIResponses(client, request, model, signal),
        }
      : {}),
  };
}

async function* streamResponses(client: OpenAI, request: ProviderRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
  try {
    const { data: stream, request_id: requestId } = await client.responses
      .create(toResponsesParams(request), { signal, headers: { "x-agentwire-session-id": request.sessionId } })
      .withResponse();
    const translator = new ResponsesStreamTranslator({ requestId: requestId ?? undefined, newCallId: fallbackCallIds(request.messages) });
    for await (const event of stream) {
      yield* translator.translate(event);
      if (translator.finished) break;
    }
    // The SDK ends the iteration quietly when the request is aborted.
    if (signal.aborted) {
      yield { type: "error", kind: "aborted", status: null, retryable: false, message: "Request aborted." };
      return;
    }
    if (!translator.finished) {
      yield {
        type: "error",
        kind: "disconnect",
        status: null,
        retryable: true,
        message: "The model stream ended before response.completed.",
      };
    }
  } catch (error) {
    yield toOpenAIErrorEvent(error, signal, `${client.baseURL}/responses`);
  }
}

function toResponsesParams(request: ProviderRequest): ResponseCreateParamsStreaming {
  const reasoning = isOpenAIReasoningModel(request.model);
  return {
    model: request.model,
    stream: true,
    store: false,
    ...(request.system ? { instructions: request.system } : {}),
    input: toResponsesInput(request.messages),
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((tool) => ({
            type: "function" as const,
            name: tool.name,
            description: tool.description,
            parameters: tool.inputSchema,
            strict: false,
          })),
        }
      : {}),
    max_output_tokens: request.maxOutputTokens,
    prompt_cache_key: request.sessionId,
    // Summaries only when thinking was asked for: OpenAI requires a verified organization for
    // them, and an unverified one would get every request rejected.
    ...(reasoning
      ? {
          include: ["reasoning.encrypted_content"],
          ...(request.thinkingBudgetTokens
            ? { reasoning: { effort: reasoningEffort(request.thinkingBudgetTokens), summary: "auto" as const } }
            : {}),
        }
      : {}),
  };
}

/** The neutral conversation as Responses input items, in order. */
function toResponsesInput(messages: Message[]): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const block of message.content) {
        if (block.type === "text" && block.text !== "") items.push({ role: "assistant", content: block.text });
        else if (block.type === "tool_use")
          items.push({ type: "function_call", call_id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
        else if (block.type === "thinking") {
          // Only OpenAI's own reasoning can go back; other vendors' thinking is left out.
          const reasoning = decodeReasoningSignature(block.signature);
          if (reasoning)
            items.push({
              type: "reasoning",
              id: reasoning.id,
              encrypted_content: reasoning.encrypted_content,
              summary: block.thinking ? [{ type: "summary_text", text: block.thinking }] : [],
            });
        }
      }
      continue;
    }
    const content: ResponseInputContent[] = [];
    for (const block of message.content) {
      if (block.type === "tool_result") items.push({ type: "function_call_output", call_id: block.toolUseId, output: toolOutput(block) });
      else content.push(...toInputContent(block));
    }
    if (content.length > 0) items.push({ role: "user", content });
  }
  return items;
}

function toInputContent(block: Exclude<UserContentBlock, { type: "tool_result" }>): ResponseInputContent[] {
  if (block.type === "text") return block.text === "" ? [] : [{ type: "input_text", text: block.text }];
  return [{ type: "input_image", detail: "auto", image_url: `data:${block.mediaType};base64,${block.data}` }];
}

function toolOutput(block: Extract<UserContentBlock, { type: "tool_result" }>): string | ResponseInputContent[] {
  const prefix = block.isError ? "Error: " : "";
  if (typeof block.content === "string") return `${prefix}${block.content}`;
  if (block.content.every((part) => part.type === "text")) return `${prefix}${block.content.map((part) => part.text).join("\n")}`;
  // Tool references arrive as text already (the loop turns them into text for this API).
  return block.content.flatMap((part) => (part.type === "tool_reference" ? [] : toInputContent(part)));
}
