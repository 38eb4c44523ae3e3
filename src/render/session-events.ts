import type { Message, ToolResultBlock } from "../conversation/messages.js";
import { visibleMessage } from "../conversation/reminders.js";
import { entrySchema, headerSchema } from "../sessions/session-file.js";
import type { RenderItem } from "./transcript-renderer.js";

/**
 * A session file's lines as the renderer's input: the header as an `init`, each message as the
 * stream-json event it was sent as (snake_case block fields, as on the wire), compactions as
 * `compact_boundary`, turn ends as a separator. Tool results carry the `tool_use_result` stored
 * with them; files from before it was stored show an edit from its own old and new text.
 */
export function sessionLineToItems(value: unknown): RenderItem[] {
  const header = headerSchema().safeParse(value);
  if (header.success) {
    const { session_id, cwd, created_at, forked_from } = header.data;
    return [
      { kind: "event", event: { type: "system", subtype: "init", session_id, cwd } },
      { kind: "note", text: `created ${created_at}${forked_from ? ` · forked from ${forked_from}` : ""}` },
    ];
  }
  const entry = entrySchema().safeParse(value);
  if (!entry.success) return [{ kind: "event", event: value }];
  switch (entry.data.type) {
    case "message": {
      const message = visibleMessage(entry.data.message);
      return message ? messageEvents(message, entry.data.tool_use_results).map((event) => ({ kind: "event" as const, event })) : [];
    }
    case "turn_end":
      return [
        { kind: "note", text: `── end of turn · session cost $${entry.data.total_cost_usd.toFixed(4)} ──` },
        { kind: "note", text: "" },
      ];
    case "compaction": {
      const { trigger, pre_tokens, post_tokens, messages } = entry.data;
      if (trigger === "clear") return [{ kind: "note", text: "── /clear: the conversation starts over ──" }];
      // The first message of the continued conversation is the summary; the rest are repeats.
      const summary = messages[0];
      return [
        { kind: "event", event: { type: "system", subtype: "compact_boundary", compact_metadata: { trigger, pre_tokens, post_tokens } } },
        ...(summary ? [{ kind: "event" as const, event: { ...messageEvent(summary), isSynthetic: true } }] : []),
      ];
    }
  }
}

/**
 * A stored message as the stream-json lines it was sent as: a user message answering tool calls
 * becomes one line per result, each with its stored `tool_use_result` (when the file has it).
 */
export function messageEvents(message: Message, toolUseResults: Readonly<Record<string, unknown>> = {}): Array<Record<string, unknown>> {
  if (message.role !== "user" || !message.content.some((block) => block.type === "tool_result")) return [messageEvent(message)];
  return message.content.map((block) => {
    const event = messageEvent({ role: "user", content: [block] });
    const details = block.type === "tool_result" ? toolUseResults[block.toolUseId] : undefined;
    return details === undefined ? event : { ...event, tool_use_result: details };
  });
}

/** A stored message as the stream-json `assistant` / `user` line it was sent as (its `message` part). */
export function messageEvent(message: Message): Record<string, unknown> {
  const content = message.content.map((block) => {
    switch (block.type) {
      case "tool_result":
        return { type: "tool_result", tool_use_id: block.toolUseId, content: wireResultContent(block.content), is_error: block.isError };
      case "image":
        return { type: "image" };
      default:
        return block;
    }
  });
  return { type: message.role, message: { role: message.role, content } };
}

/** A stored result's content with its tool references in the wire's spelling (`tool_name`). */
function wireResultContent(content: ToolResultBlock["content"]): unknown {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "tool_reference" ? { type: "tool_reference", tool_name: part.toolName } : part));
}
