import { randomUUID } from "../text/random-uuid.js";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";
import { openAIUsage } from "./openai-client.js";
import { TextToolCallScanner } from "./text-tool-calls.js";
import { ToolCallAssembler } from "./tool-call-assembler.js";
import { emptyUsage, type ProviderEvent, type StopReason, type Usage } from "./types.js";

/** Fields compatible servers add to `delta` for a reasoning model's thinking. */
interface ReasoningDelta {
  /** DeepSeek, vLLM, llama.cpp. */
  reasoning_content?: string | null;
  /** Ollama, OpenRouter. */
  reasoning?: string | null;
}

export interface ChatStreamOptions {
  /** Used when the server sends no model name. */
  requestedModel: string;
  requestId: string | undefined;
  /** Tools the request offered; with `parseTextToolCalls`, printed calls to them become calls. */
  toolNames: ReadonlySet<string>;
  parseTextToolCalls: boolean;
  newCallId: () => string;
}

type OpenBlock = { kind: "text" | "thinking"; index: number; text: string };

/**
 * Maps Chat Completions chunks onto the normalized event union. Text and thinking stream live;
 * tool calls go through the shared ToolCallAssembler. Content that arrives while a tool call is
 * still streaming is kept and reported after the calls, so blocks never overlap.
 *
 * Contract: `translate` and `finish` never throw; `finish` yields exactly one terminal event.
 */
export class ChatStreamTranslator {
  private started = false;
  private nextIndex = 0;
  private open: OpenBlock | undefined;
  private readonly lateBlocks: Array<{ kind: "text" | "thinking"; text: string }> = [];
  private readonly calls: ToolCallAssembler;
  private readonly scanner: TextToolCallScanner | undefined;
  private finishReason: string | null = null;
  private usage: Usage = emptyUsage();

  constructor(private readonly options: ChatStreamOptions) {
    this.calls = new ToolCallAssembler({ nextBlockIndex: () => this.nextIndex++, newCallId: options.newCallId });
    this.scanner = options.parseTextToolCalls && options.toolNames.size > 0 ? new TextToolCallScanner(options.toolNames) : undefined;
  }

  *translate(chunk: ChatCompletionChunk): Generator<ProviderEvent> {
    if (!this.started) {
      this.started = true;
      yield {
        type: "message_start",
        // Some local servers send no id; the message still needs one for stdout.
        messageId: chunk.id || `chatcmpl-${randomUUID()}`,
        model: chunk.model || this.options.requestedModel,
        usage: emptyUsage(),
        ...(this.options.requestId ? { requestId: this.options.requestId } : {}),
      };
    }
    if (chunk.usage) this.usage = toUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & ReasoningDelta;
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) yield* this.appendContent("thinking", reasoning);
    if (delta.content) {
      const shown = this.scanner ? this.scanner.push(delta.content) : delta.content;
      if (shown) yield* this.appendContent("text", shown);
    }
    const toolCalls = delta.tool_calls ?? [];
    if (toolCalls.length > 0) yield* this.closeOpenBlock();
    for (const [position, call] of toolCalls.entries()) {
      const args: unknown = call.function?.arguments;
      yield* this.calls.append({
        // Servers that omit `index` send each call whole; its position tells them apart.
        key: call.index ?? position,
        id: call.id,
        name: call.function?.name,
        // Some servers send the arguments as an object rather than JSON text.
        argumentsDelta: args !== null && typeof args === "object" ? JSON.stringify(args) : (args as string | undefined),
      });
    }
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  /** Ends the response once the stream is over (usage arrives after the finish reason). */
  *finish(): Generator<ProviderEvent> {
    if (!this.started || this.finishReason === null) {
      yield {
        type: "error",
        kind: "disconnect",
        status: null,
        retryable: true,
        message: "The model stream ended without a finish reason.",
      };
      return;
    }
    const printed = this.scanner?.finish() ?? { text: "", calls: [] };
    if (printed.text) yield* this.appendContent("text", printed.text);
    yield* this.closeOpenBlock();
    for (const [position, call] of printed.calls.entries()) {
      yield* this.calls.append({ key: `text-${position}`, name: call.name, argumentsDelta: JSON.stringify(call.input) });
    }
    const { events, dropped } = this.calls.finish();
    yield* events;
    for (const late of this.lateBlocks.splice(0)) {
      yield* this.appendContent(late.kind, late.text);
      yield* this.closeOpenBlock();
    }
    const stopReason = { normalized: normalizeFinishReason(this.finishReason, this.calls.completedCount > 0), raw: this.finishReason };
    if (dropped.length > 0 && stopReason.normalized !== "max_tokens") {
      yield { type: "error", kind: "unknown", status: null, retryable: true, message: "The model sent tool input that is not valid JSON." };
      return;
    }
    yield { type: "message_end", stopReason, usage: this.usage };
  }

  private *appendContent(kind: OpenBlock["kind"], piece: string): Generator<ProviderEvent> {
    if (this.calls.streaming) {
      const last = this.lateBlocks.at(-1);
      if (last?.kind === kind) last.text += piece;
      else this.lateBlocks.push({ kind, text: piece });
      return;
    }
    if (this.open?.kind !== kind) {
      yield* this.closeOpenBlock();
      // A block of nothing but whitespace (some servers send "\n\n" before tool calls) is noise.
      if (piece.trim() === "") return;
      this.open = { kind, index: this.nextIndex++, text: "" };
      yield kind === "text" ? { type: "text_start", index: this.open.index } : { type: "thinking_start", index: this.open.index };
    }
    this.open.text += piece;
    yield kind === "text"
      ? { type: "text_delta", index: this.open.index, text: piece }
      : { type: "thinking_delta", index: this.open.index, thinking: piece };
  }

  private *closeOpenBlock(): Generator<ProviderEvent> {
    const block = this.open;
    if (!block) return;
    this.open = undefined;
    // Chat Completions thinking has no signature: it is never sent back to the API.
    yield block.kind === "text"
      ? { type: "text_end", index: block.index, text: block.text }
      : { type: "thinking_end", index: block.index, thinking: block.text };
  }
}

function toUsage(usage: CompletionUsage): Usage {
  return openAIUsage(usage, {
    input: usage.prompt_tokens ?? 0,
    output: usage.completion_tokens ?? 0,
    cached: usage.prompt_tokens_details?.cached_tokens ?? 0,
    reasoning: usage.completion_tokens_details?.reasoning_tokens,
  });
}

/**
 * Local servers often report "stop" for a response that called tools, so completed calls make
 * it `tool_use` whatever the raw reason says (the raw value is kept next to it).
 */
function normalizeFinishReason(raw: string, calledTools: boolean): StopReason {
  switch (raw) {
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "length":
      return "max_tokens";
    case "content_filter":
      return "refusal";
    case "stop":
      return calledTools ? "tool_use" : "end_turn";
    default:
      return calledTools ? "tool_use" : "other";
  }
}
