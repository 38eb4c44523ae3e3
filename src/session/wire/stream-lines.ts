import type { AssistantEvent, OutputEvent, StreamEvent, UserEvent } from "../../../protocol/events.js";
import type { AgentEvent } from "../../agent/events.js";
import type { AssistantContentBlock, ImageBlock, TextBlock, ToolReferenceBlock } from "../../conversation/messages.js";
import type { ResponseAccumulator } from "../../providers/response-accumulator.js";
import { messageUsage } from "./wire-usage.js";

/** Ids and time for the lines, from outside: the translation itself does no I/O. */
export interface TranslationContext {
  sessionId: string;
  includePartialMessages: boolean;
  newUuid: () => string;
  now: () => number;
}

/** The parts of the loop's response record the translator reads. */
export type Response = Pick<Readonly<ResponseAccumulator>, "messageId" | "model" | "requestId" | "startUsage" | "usage" | "openIndices">;

export function warningLine(warning: { code: string; message: string; path?: string }, context: TranslationContext): OutputEvent {
  return {
    type: "system",
    subtype: "warning",
    code: warning.code,
    message: warning.message,
    ...(warning.path ? { path: warning.path } : {}),
    session_id: context.sessionId,
    uuid: context.newUuid(),
  };
}

/** Ends a response that stopped early: content_block_stop per open block, message_delta, message_stop. */
export function closingStreamLines(response: Response, context: TranslationContext): OutputEvent[] {
  if (!response.messageId) return [];
  return [
    ...response.openIndices().map((index) => streamLine({ type: "content_block_stop", index }, response, context)),
    streamLine(
      { type: "message_delta", delta: { stop_reason: null, stop_sequence: null }, usage: { output_tokens: 0 } },
      response,
      context,
    ),
    streamLine({ type: "message_stop" }, response, context),
  ];
}

export function assistantLine(block: AssistantContentBlock, response: Response, context: TranslationContext): AssistantEvent {
  return {
    type: "assistant",
    message: {
      id: response.messageId,
      type: "message",
      role: "assistant",
      model: response.model,
      content: [toWireAssistantBlock(block)],
      stop_reason: null,
      stop_sequence: null,
      usage: messageUsage(response.startUsage),
      context_management: null,
    },
    parent_tool_use_id: null,
    session_id: context.sessionId,
    uuid: context.newUuid(),
    timestamp: new Date(context.now()).toISOString(),
    ...(response.requestId ? { request_id: response.requestId } : {}),
  };
}

export function toWireAssistantBlock(block: AssistantContentBlock): AssistantEvent["message"]["content"][0] {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "thinking":
      return { type: "thinking", thinking: block.thinking, signature: block.signature ?? "" };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: block.input };
  }
}

export function toolResultLine(event: Extract<AgentEvent, { type: "tool_result" }>, context: TranslationContext): UserEvent {
  const { result } = event;
  const content = typeof result.content === "string" ? result.content : result.content.map(toWireContentPart);
  const block = { type: "tool_result" as const, tool_use_id: event.toolUseId, content, ...(result.isError ? { is_error: true } : {}) };
  return {
    ...userLine(result.appendedText === undefined ? [block] : [block, { type: "text", text: result.appendedText }], context),
    ...(result.details === undefined ? {} : { tool_use_result: result.details }),
    ...(result.code ? { tool_error_code: result.code } : {}),
  };
}

export function toWireContentPart(part: TextBlock | ImageBlock | ToolReferenceBlock) {
  switch (part.type) {
    case "text":
      return { type: "text" as const, text: part.text };
    case "image":
      return { type: "image" as const, source: { type: "base64" as const, media_type: part.mediaType, data: part.data } };
    case "tool_reference":
      return { type: "tool_reference" as const, tool_name: part.toolName };
  }
}

export function userLine(content: UserEvent["message"]["content"], context: TranslationContext): UserEvent {
  return {
    type: "user",
    message: { role: "user", content },
    parent_tool_use_id: null,
    session_id: context.sessionId,
    uuid: context.newUuid(),
    timestamp: new Date(context.now()).toISOString(),
  };
}

export function streamLine(raw: Record<string, unknown>, response: Response, context: TranslationContext): StreamEvent {
  return {
    type: "stream_event",
    event: raw as StreamEvent["event"],
    session_id: context.sessionId,
    parent_tool_use_id: null,
    uuid: context.newUuid(),
    api_message_id: response.messageId,
  };
}
