import type { ResponseStreamEvent, ResponseUsage } from "openai/resources/responses/responses";
import { openAIUsage, streamedErrorEvent } from "./openai-client.js";
import { ToolCallAssembler } from "./tool-call-assembler.js";
import { emptyUsage, type ProviderEvent, type StopReason, type Usage } from "./types.js";

/**
 * Marks a thinking signature as an OpenAI reasoning item (id + encrypted content), so it is sent
 * back to the Responses API and never to another vendor.
 */
const REASONING_SIGNATURE_PREFIX = "openai-reasoning:";

function encodeReasoningSignature(id: string, encryptedContent: string): string {
  return `${REASONING_SIGNATURE_PREFIX}${JSON.stringify({ id, encrypted_content: encryptedContent })}`;
}

export function decodeReasoningSignature(signature: string | undefined): { id: string; encrypted_content: string } | undefined {
  if (!signature?.startsWith(REASONING_SIGNATURE_PREFIX)) return undefined;
  try {
    const value = JSON.parse(signature.slice(REASONING_SIGNATURE_PREFIX.length)) as { id?: unknown; encrypted_content?: unknown };
    return typeof value.id === "string" && typeof value.encrypted_content === "string"
      ? { id: value.id, encrypted_content: value.encrypted_content }
      : undefined;
  } catch {
    return undefined;
  }
}

type OpenBlock = { kind: "text" | "thinking"; itemId: string; index: number; text: string; part: number };

/**
 * Maps Responses API stream events onto the normalized union: output text → text blocks,
 * reasoning summaries (or raw reasoning text, from open-weight servers) → thinking blocks, function
 * calls through the shared ToolCallAssembler, `response.completed` / `.incomplete` → message_end.
 *
 * Contract: never throws; `finished` is true once a terminal event was yielded.
 */
export class ResponsesStreamTranslator {
  finished = false;
  private nextIndex = 0;
  private open: OpenBlock | undefined;
  private readonly calls: ToolCallAssembler;
  private refused = false;

  constructor(private readonly options: { requestId: string | undefined; newCallId: () => string }) {
    this.calls = new ToolCallAssembler({ nextBlockIndex: () => this.nextIndex++, newCallId: options.newCallId });
  }

  *translate(event: ResponseStreamEvent): Generator<ProviderEvent> {
    switch (event.type) {
      case "response.created":
        yield {
          type: "message_start",
          messageId: event.response.id,
          model: event.response.model,
          usage: emptyUsage(),
          ...(this.options.requestId ? { requestId: this.options.requestId } : {}),
        };
        return;
      case "response.output_item.added":
        if (event.item.type === "function_call") {
          yield* this.closeOpenBlock();
          yield* this.calls.append({
            key: event.item.id ?? event.item.call_id,
            id: event.item.call_id,
            name: event.item.name,
            argumentsDelta: event.item.arguments,
          });
        }
        return;
      case "response.function_call_arguments.delta":
        yield* this.calls.append({ key: event.item_id, argumentsDelta: event.delta });
        return;
      case "response.reasoning_summary_text.delta":
        yield* this.append("thinking", event.item_id, event.summary_index, event.delta);
        return;
      case "response.reasoning_text.delta":
        yield* this.append("thinking", event.item_id, event.content_index, event.delta);
        return;
      case "response.output_text.delta":
        yield* this.append("text", event.item_id, event.content_index, event.delta);
        return;
      case "response.refusal.delta":
        this.refused = true;
        yield* this.append("text", event.item_id, event.content_index, event.delta);
        return;
      case "response.output_item.done": {
        const item = event.item;
        if (item.type === "function_call") {
          yield* this.calls.close(item.id ?? item.call_id);
        } else if (item.type === "reasoning") {
          // The encrypted reasoning is what carries the model's thinking into the next request;
          // it gets a (possibly empty) thinking block even when no summary was streamed.
          const signature = item.encrypted_content ? encodeReasoningSignature(item.id, item.encrypted_content) : undefined;
          if (!this.open && signature) this.open = yield* this.startBlock("thinking", item.id, 0);
          yield* this.closeOpenBlock(signature);
        } else {
          yield* this.closeOpenBlock();
        }
        return;
      }
      case "response.completed":
      case "response.incomplete":
        yield* this.end(
          event.response.usage ?? undefined,
          event.type === "response.incomplete" ? event.response.incomplete_details?.reason : undefined,
        );
        return;
      case "response.failed":
        this.finished = true;
        yield streamedErrorEvent(event.response.error?.code ?? null, event.response.error?.message ?? "The response failed.");
        return;
      case "error":
        this.finished = true;
        yield streamedErrorEvent(event.code, event.message);
        return;
      default:
        // Lifecycle echoes (in_progress, *.done, content_part.*) carry nothing new; hosted tools
        // (web search, code interpreter, …) are not requested by agentwire.
        return;
    }
  }

  private *end(usage: ResponseUsage | undefined, incompleteReason: string | undefined): Generator<ProviderEvent> {
    this.finished = true;
    yield* this.closeOpenBlock();
    const { events, dropped } = this.calls.finish();
    yield* events;
    const normalized: StopReason =
      incompleteReason === "max_output_tokens"
        ? "max_tokens"
        : incompleteReason === "content_filter" || this.refused
          ? "refusal"
          : this.calls.completedCount > 0
            ? "tool_use"
            : "end_turn";
    if (dropped.length > 0 && normalized !== "max_tokens") {
      yield { type: "error", kind: "unknown", status: null, retryable: true, message: "The model sent tool input that is not valid JSON." };
      return;
    }
    // Responses has no finish reason; the raw value is the status, or why it is incomplete.
    yield { type: "message_end", stopReason: { normalized, raw: incompleteReason ?? "completed" }, usage: toUsage(usage) };
  }

  private *append(kind: OpenBlock["kind"], itemId: string, part: number, delta: string): Generator<ProviderEvent> {
    if (this.open && (this.open.kind !== kind || this.open.itemId !== itemId)) yield* this.closeOpenBlock();
    if (!this.open) this.open = yield* this.startBlock(kind, itemId, part);
    // Summary parts of one reasoning item read as paragraphs of one thinking block.
    const piece = this.open.part !== part && this.open.text !== "" ? `\n\n${delta}` : delta;
    this.open.part = part;
    this.open.text += piece;
    yield kind === "text"
      ? { type: "text_delta", index: this.open.index, text: piece }
      : { type: "thinking_delta", index: this.open.index, thinking: piece };
  }

  private *startBlock(kind: OpenBlock["kind"], itemId: string, part: number): Generator<ProviderEvent, OpenBlock> {
    const block = { kind, itemId, index: this.nextIndex++, text: "", part };
    yield kind === "text" ? { type: "text_start", index: block.index } : { type: "thinking_start", index: block.index };
    return block;
  }

  private *closeOpenBlock(signature?: string): Generator<ProviderEvent> {
    const block = this.open;
    if (!block) return;
    this.open = undefined;
    yield block.kind === "text"
      ? { type: "text_end", index: block.index, text: block.text }
      : { type: "thinking_end", index: block.index, thinking: block.text, ...(signature ? { signature } : {}) };
  }
}

export function toUsage(usage: ResponseUsage | undefined): Usage {
  if (!usage) return emptyUsage();
  return openAIUsage(usage, {
    input: usage.input_tokens ?? 0,
    output: usage.output_tokens ?? 0,
    cached: usage.input_tokens_details?.cached_tokens ?? 0,
    reasoning: usage.output_tokens_details?.reasoning_tokens,
  });
}
