import type { ProviderEvent, ProviderEventOf, StopReason, Usage } from "../providers/types.js";
import { emptyUsage } from "../providers/types.js";
import type { AssistantContentBlock } from "../conversation/messages.js";

/**
 * Folds one attempt's provider events into the assistant message. Completed blocks come from
 * the `*_end` events (which carry assembled values); the block still streaming is tracked so an
 * interrupt can keep what the user already saw.
 */
export class ResponseAccumulator {
  readonly completed = new Map<number, AssistantContentBlock>();
  private streaming: { index: number; block: AssistantContentBlock } | undefined;
  messageId = "";
  model = "";
  usage: Usage = emptyUsage();
  stopReason: { normalized: StopReason; raw: string | null } | undefined;

  apply(event: ProviderEvent): void {
    switch (event.type) {
      case "message_start":
        this.messageId = event.messageId;
        this.model = event.model;
        this.usage = { ...event.usage };
        return;
      case "text_start":
        this.streaming = { index: event.index, block: { type: "text", text: "" } };
        return;
      case "thinking_start":
        this.streaming = { index: event.index, block: { type: "thinking", thinking: "" } };
        return;
      case "tool_call_start":
        this.streaming = { index: event.index, block: { type: "tool_use", id: event.id, name: event.name, input: {} } };
        return;
      case "text_delta":
        if (this.streaming?.block.type === "text") this.streaming.block.text += event.text;
        return;
      case "thinking_delta":
        if (this.streaming?.block.type === "thinking") this.streaming.block.thinking += event.thinking;
        return;
      case "signature_delta":
      case "tool_call_delta":
        return;
      case "text_end":
      case "thinking_end":
      case "tool_call_end":
        this.finish(event.index, blockFromEndEvent(event));
        return;
      case "message_end":
        this.stopReason = event.stopReason;
        // Providers report cumulative totals at the end; keep start-of-message input counts
        // when the end event omits them (proxies often send output_tokens only).
        this.usage = {
          inputTokens: event.usage.inputTokens || this.usage.inputTokens,
          outputTokens: event.usage.outputTokens || this.usage.outputTokens,
          cacheReadInputTokens: event.usage.cacheReadInputTokens || this.usage.cacheReadInputTokens,
          cacheCreationInputTokens: event.usage.cacheCreationInputTokens || this.usage.cacheCreationInputTokens,
        };
        return;
      case "warning":
      case "error":
        return;
    }
  }

  /** Completed blocks in stream order. */
  blocks(): AssistantContentBlock[] {
    return [...this.completed.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  }

  /**
   * The block that was streaming when the response stopped early. Only text survives an
   * interrupt: a half-streamed tool call must never run, and half a thinking block has no
   * valid signature to send back.
   */
  partialBlock(): AssistantContentBlock | undefined {
    const block = this.streaming?.block;
    return block?.type === "text" && block.text.length > 0 ? block : undefined;
  }

  /** Index the next block would have had; consumers use it to mark abandoned blocks. */
  nextBlockIndex(): number {
    const indices = [...this.completed.keys(), ...(this.streaming ? [this.streaming.index] : [])];
    return indices.length === 0 ? 0 : Math.max(...indices) + 1;
  }

  private finish(index: number, block: AssistantContentBlock): void {
    this.completed.set(index, block);
    if (this.streaming?.index === index) this.streaming = undefined;
  }
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
