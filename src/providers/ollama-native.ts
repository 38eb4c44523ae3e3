import { randomUUID } from "../text/random-uuid.js";
import { APIError } from "openai";
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import * as z from "zod";
import { nodeHttpFetch } from "./node-http-fetch.js";

/**
 * Ollama's native chat API (`POST /api/chat`, newline-delimited JSON). Its OpenAI-compatible
 * endpoint drops `options` and `keep_alive`, so a default Ollama runs every request in its small
 * default context (2–4 K tokens) and silently cuts the front of a longer prompt — the system
 * prompt and the tool definitions first. Here the request carries `options.num_ctx` sized for
 * the run and a `keep_alive`. The request is built from the Chat Completions parameters and the
 * answer is turned back into Chat Completions chunks, so the Chat provider's handling (tool
 * support, calls printed as text, usage) stays one.
 */

export interface OllamaNativeSettings {
  /** The server's root, without `/v1` (http://127.0.0.1:11434). */
  root: string;
  /** How long Ollama keeps the model loaded after a request ("30m", "-1", "0"). */
  keepAlive: string;
  /** `--context-window`: the context to ask for; otherwise sized from each request. */
  contextWindow: number | undefined;
}

/** Context sizes asked for when `--context-window` is not given: doubling from 8 K. */
const CONTEXT_STEPS = [8_192, 16_384, 32_768, 65_536, 131_072];
/** Room left for the answer on top of the prompt. */
const OUTPUT_RESERVE_TOKENS = 4_096;

/**
 * The `num_ctx` of each request. A change makes Ollama reload the model, so it only grows, in
 * steps, as the conversation does; `--context-window` fixes it.
 */
export class OllamaContextSizer {
  private current = 0;
  private warnedAt = 0;

  constructor(private readonly configured: number | undefined) {}

  /** The size to ask for, and a warning when the prompt is larger than the window that was set. */
  size(estimatedPromptTokens: number): { numCtx: number; warning?: string } {
    const needed = estimatedPromptTokens + OUTPUT_RESERVE_TOKENS;
    if (this.configured !== undefined) {
      if (estimatedPromptTokens <= this.configured || this.warnedAt >= estimatedPromptTokens) return { numCtx: this.configured };
      // Once per doubling of the overrun, not on every request.
      this.warnedAt = estimatedPromptTokens * 2;
      return {
        numCtx: this.configured,
        warning: `The request is about ${estimatedPromptTokens} tokens, more than --context-window ${this.configured}: Ollama will drop the start of the conversation. Raise --context-window if the model and memory allow it.`,
      };
    }
    const step = CONTEXT_STEPS.find((size) => size >= needed) ?? Math.ceil(needed / 8_192) * 8_192;
    this.current = Math.max(this.current, step);
    return { numCtx: this.current };
  }
}

/** One streamed chat request; resolves once the response headers are in, like the SDK's `create`. */
export async function ollamaChat(
  params: ChatCompletionCreateParamsStreaming,
  settings: OllamaNativeSettings,
  sizer: OllamaContextSizer,
  signal: AbortSignal,
): Promise<{ data: AsyncIterable<ChatCompletionChunk>; request_id: null; warning: string | undefined }> {
  const messages = toOllamaMessages(params.messages);
  const base = {
    model: params.model,
    messages,
    ...(params.tools ? { tools: params.tools } : {}),
    stream: true,
    keep_alive: settings.keepAlive,
  };
  // About 4 characters per token, as everywhere agentwire estimates before the server counts.
  const { numCtx, warning } = sizer.size(Math.ceil(JSON.stringify(base).length / 4));
  const response = await nodeHttpFetch(`${settings.root}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...base, options: { num_ctx: numCtx } }),
    signal,
  });
  if (!response.ok) {
    const text = await response.text();
    const message = OllamaErrorSchema.safeParse(safeJson(text)).data?.error ?? (text || response.statusText);
    // Shaped as the SDK's error, so one mapping serves both endpoints.
    throw APIError.generate(response.status, { error: { message } }, message, response.headers);
  }
  if (!response.body) throw new Error("Ollama answered without a body.");
  return { data: toChunks(response.body, params.model), request_id: null, warning };
}

const OllamaErrorSchema = z.object({ error: z.string() });

const OllamaChunkSchema = z.object({
  model: z.string().optional(),
  created_at: z.string().optional(),
  message: z
    .object({
      content: z.string().optional(),
      thinking: z.string().optional(),
      tool_calls: z
        .array(z.object({ id: z.string().optional(), function: z.object({ name: z.string(), arguments: z.unknown() }) }))
        .optional(),
    })
    .optional(),
  done: z.boolean().optional(),
  done_reason: z.string().optional(),
  prompt_eval_count: z.number().optional(),
  eval_count: z.number().optional(),
  error: z.string().optional(),
});

/** NDJSON lines → Chat Completions chunks, numbering whole tool calls as the Chat stream would. */
async function* toChunks(body: ReadableStream<Uint8Array>, requestedModel: string): AsyncGenerator<ChatCompletionChunk> {
  const id = `ollama-${randomUUID()}`;
  let toolCalls = 0;
  for await (const line of ndjsonLines(body)) {
    const parsed = OllamaChunkSchema.safeParse(safeJson(line));
    if (!parsed.success) throw new Error(`Ollama sent a line that is not a chat chunk: ${line.slice(0, 200)}`);
    const chunk = parsed.data;
    if (chunk.error !== undefined) throw APIError.generate(undefined, { error: { message: chunk.error } }, chunk.error, undefined);
    const calls = (chunk.message?.tool_calls ?? []).map((call) => ({
      index: toolCalls++,
      ...(call.id ? { id: call.id } : {}),
      type: "function" as const,
      function: { name: call.function.name, arguments: JSON.stringify(call.function.arguments ?? {}) },
    }));
    const delta = {
      role: "assistant" as const,
      ...(chunk.message?.content ? { content: chunk.message.content } : {}),
      ...(chunk.message?.thinking ? { reasoning_content: chunk.message.thinking } : {}),
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
    };
    // Ollama says "stop" after tool calls too; Chat Completions says "tool_calls".
    const finishReason = chunk.done ? (chunk.done_reason === "length" ? "length" : toolCalls > 0 ? "tool_calls" : "stop") : null;
    yield {
      id,
      object: "chat.completion.chunk",
      created: chunk.created_at ? Math.floor(Date.parse(chunk.created_at) / 1000) : 0,
      model: chunk.model ?? requestedModel,
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
      ...(chunk.done
        ? {
            usage: {
              prompt_tokens: chunk.prompt_eval_count ?? 0,
              completion_tokens: chunk.eval_count ?? 0,
              total_tokens: (chunk.prompt_eval_count ?? 0) + (chunk.eval_count ?? 0),
            },
          }
        : {}),
    } as ChatCompletionChunk;
  }
}

async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const bytes of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(bytes, { stream: true });
    let newline: number;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) yield line;
    }
  }
  const rest = (buffered + decoder.decode()).trim();
  if (rest) yield rest;
}

/**
 * Chat Completions messages in Ollama's shape: content is one string, images a list of base64
 * strings on the message, tool-call arguments objects, and a tool result names its tool.
 */
function toOllamaMessages(messages: ChatCompletionMessageParam[]): Array<Record<string, unknown>> {
  const toolNames = new Map<string, string>();
  return messages.map((message) => {
    if (message.role === "assistant") {
      const calls = (message.tool_calls ?? []).flatMap((call) => (call.type === "function" ? [call] : []));
      for (const call of calls) toolNames.set(call.id, call.function.name);
      return {
        role: "assistant",
        content: typeof message.content === "string" ? message.content : "",
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((call) => ({
                id: call.id,
                function: { name: call.function.name, arguments: safeJson(call.function.arguments) ?? {} },
              })),
            }
          : {}),
      };
    }
    if (message.role === "tool") {
      const name = toolNames.get(message.tool_call_id);
      return {
        role: "tool",
        content: typeof message.content === "string" ? message.content : "",
        tool_call_id: message.tool_call_id,
        ...(name ? { tool_name: name } : {}),
      };
    }
    const content = message.content;
    if (typeof content === "string" || content === undefined || content === null) return { role: message.role, content: content ?? "" };
    const parts = content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
    const text = parts.flatMap((part) => (part.type === "text" && part.text ? [part.text] : [])).join("\n\n");
    const images = parts.flatMap((part) =>
      part.type === "image_url" && part.image_url ? [part.image_url.url.replace(/^data:[^,]*,/, "")] : [],
    );
    return { role: message.role, content: text, ...(images.length > 0 ? { images } : {}) };
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
