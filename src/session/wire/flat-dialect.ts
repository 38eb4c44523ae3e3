import type { FlatEvent, FlatResultEvent } from "../../../protocol/flat-events.js";
import type { OutputEvent, ResultEvent } from "../../../protocol/events.js";

/**
 * Translates Claude Code–dialect events into the flat dialect (protocol/flat-events.ts), line by
 * line, as they are produced. The session runs with partial messages on, so text is forwarded as
 * deltas; a complete text block is sent whole only when none of it was streamed. What the flat
 * list has no place for (thinking, retries, warnings, compaction and status notices, tool
 * progress) is left out: the host sees its outcome in the results.
 */
export function createFlatTranslator(): (event: OutputEvent) => FlatEvent[] {
  // Text deltas seen since the last complete assistant line of the same response.
  let streamedText = false;
  return (event) => {
    // A subagent's own calls stay inside its Agent call: the flat list shows that call and its result.
    if ("parent_tool_use_id" in event && event.parent_tool_use_id) return [];
    switch (event.type) {
      case "system":
        switch (event.subtype) {
          case "init":
            return [
              {
                type: "system",
                subtype: "init",
                session_id: event.session_id,
                model: event.model,
                provider: event.provider,
                cwd: event.cwd,
                tools: event.tools,
                dialect: "flat",
              },
            ];
          case "input_error":
            return [
              {
                type: "system",
                subtype: "error",
                message: event.error.message,
                error_code: event.error.code,
                session_id: event.session_id,
              },
            ];
          case "permission_request":
            return [event];
          default:
            return [];
        }
      case "stream_event": {
        const delta = event.event as { type: string; delta?: { type?: string; text?: unknown } };
        if (delta.type !== "content_block_delta" || delta.delta?.type !== "text_delta" || typeof delta.delta.text !== "string") return [];
        streamedText = true;
        return [{ type: "assistant", message: { content: delta.delta.text }, streaming: true, session_id: event.session_id }];
      }
      case "assistant": {
        const [block] = event.message.content;
        if (event.error) {
          streamedText = false;
          return [
            {
              type: "system",
              subtype: "error",
              message: block.type === "text" ? block.text : event.error,
              error_code: event.error,
              session_id: event.session_id,
            },
          ];
        }
        if (block.type === "tool_use")
          return [{ type: "tool_use", message: { name: block.name, input: block.input, id: block.id }, session_id: event.session_id }];
        if (block.type !== "text") return [];
        const wasStreamed = streamedText;
        streamedText = false;
        return wasStreamed ? [] : [{ type: "assistant", message: { content: block.text }, streaming: false, session_id: event.session_id }];
      }
      case "user": {
        const [block] = event.message.content;
        if (block.type !== "tool_result") return [];
        const content =
          typeof block.content === "string"
            ? block.content
            : block.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
        return [
          {
            type: "tool_result",
            message: { tool_use_id: block.tool_use_id, content, is_error: block.is_error === true },
            session_id: event.session_id,
          },
        ];
      }
      case "result":
        streamedText = false;
        return [flatResult(event)];
      case "control_response":
      case "control_request":
      case "control_cancel_request":
        return [event];
      default:
        return [];
    }
  };
}

export function flatResult(event: ResultEvent): FlatResultEvent {
  const { usage } = event;
  return {
    type: "result",
    subtype: event.subtype,
    is_error: event.is_error,
    ...(event.result === undefined ? {} : { result: event.result }),
    ...(event.errors === undefined ? {} : { errors: event.errors }),
    ...(event.structured_output === undefined ? {} : { structured_output: event.structured_output }),
    terminal_reason: event.terminal_reason,
    ...(event.error_code === undefined ? {} : { error_code: event.error_code }),
    num_turns: event.num_turns,
    duration_ms: event.duration_ms,
    total_cost_usd: event.total_cost_usd,
    usage: {
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      cache_read_input_tokens: usage.cache_read_input_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens,
    },
    session_id: event.session_id,
  };
}
