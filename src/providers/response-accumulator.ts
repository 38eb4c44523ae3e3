import type { AssistantContentBlock } from "../conversation/messages.js";
import { emptyUsage, mergeUsage, type ProviderEvent, type ProviderEventOf, type StopReason, type Usage } from "./types.js";

/** A block that has started and not yet ended, with everything its deltas carried so far. */
export interface OpenBlock {
  kind: "text" | "thinking" | "tool_call";
  text: string;
  signature: string;
  /** Tool calls: the id, name and argument JSON text received so far. */
  id: string;
  name: string;
  partialJson: string;
}

/**
 * The one record of a model response while it streams: the fold of one attempt's normalized
 * events into the message (completed blocks from the `*_end` events, which carry assembled
 * values), the blocks still open, the message id, model and request id, and the usage under the
 * one merge rule (`mergeUsage`). Providers use it to assemble blocks from deltas, the loop to
 * build the assistant message, and the stream-json translator to describe what consumers saw.
 */
export class ResponseAccumulator {
  private readonly completed = new Map<number, AssistantContentBlock>();
  private readonly open = new Map<number, OpenBlock>();
  messageId = "";
  model = "";
  requestId: string | undefined;
  /** Usage as `message_start` reported it (what an assistant line carries, as Claude Code's do). */
  startUsage: Usage = emptyUsage();
  usage: Usage = emptyUsage();
  stopReason: { normalized: StopReason; raw: string | null } | undefined;

  apply(event: ProviderEvent): void {
    switch (event.type) {
      case "message_start":
        this.messageId = event.messageId;
        this.model = event.model;
        this.requestId = event.requestId;
        this.startUsage = { ...event.usage };
        this.usage = { ...event.usage };
        return;
      case "text_start":
        this.open.set(event.index, openBlock("text"));
        return;
      case "thinking_start":
        this.open.set(event.index, openBlock("thinking"));
        return;
      case "tool_call_start":
        this.open.set(event.index, { ...openBlock("tool_call"), id: event.id, name: event.name });
        return;
      case "text_delta":
        this.appendTo(event.index, "text", event.text);
        return;
      case "thinking_delta":
        this.appendTo(event.index, "text", event.thinking);
        return;
      case "signature_delta":
        this.appendTo(event.index, "signature", event.signature);
        return;
      case "tool_call_delta":
        this.appendTo(event.index, "partialJson", event.partialJson);
        return;
      case "text_end":
      case "thinking_end":
      case "tool_call_end":
        this.completed.set(event.index, blockFromEndEvent(event));
        this.open.delete(event.index);
        return;
      case "message_end":
        this.stopReason = event.stopReason;
        this.usage = mergeUsage(this.usage, event.usage);
        return;
      case "warning":
      case "error":
        return;
    }
  }

  /** The block at `index` while it streams (providers read it to build the `*_end` event). */
  openBlock(index: number): OpenBlock | undefined {
    return this.open.get(index);
  }

  /** Indices of blocks that started and did not end, in stream order. */
  openIndices(): number[] {
    return [...this.open.keys()].sort((a, b) => a - b);
  }

  /** Forgets the open blocks (once their closing lines are written for an abandoned response). */
  closeOpenBlocks(): void {
    this.open.clear();
  }

  /** Completed blocks in stream order. */
  blocks(): AssistantContentBlock[] {
    return [...this.completed.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  }

  /**
   * The text that was streaming when the response stopped early. Only text survives an
   * interrupt: a half-streamed tool call must never run, and half a thinking block has no valid
   * signature to send back.
   */
  partialBlock(): AssistantContentBlock | undefined {
    const last = this.openIndices().at(-1);
    const block = last === undefined ? undefined : this.open.get(last);
    return block?.kind === "text" && block.text.length > 0 ? { type: "text", text: block.text } : undefined;
  }

  private appendTo(index: number, field: "text" | "signature" | "partialJson", piece: string): void {
    const block = this.open.get(index);
    if (block) block[field] += piece;
  }
}

function openBlock(kind: OpenBlock["kind"]): OpenBlock {
  return { kind, text: "", signature: "", id: "", name: "", partialJson: "" };
}

/** The completed block a `*_end` event carries, signatures included. */
export function blockFromEndEvent(event: ProviderEventOf<"text_end" | "thinking_end" | "tool_call_end">): AssistantContentBlock {
  const signature = event.signature === undefined ? {} : { signature: event.signature };
  switch (event.type) {
    case "text_end":
      return { type: "text", text: event.text, ...signature };
    case "thinking_end":
      return { type: "thinking", thinking: event.thinking, ...signature };
    case "tool_call_end":
      return { type: "tool_use", id: event.id, name: event.name, input: event.input, ...signature };
  }
}
