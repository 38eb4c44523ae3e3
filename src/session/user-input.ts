import type { InputContentBlock } from "../../protocol/commands.js";
import type { UserContentBlock, UserMessage } from "../conversation/messages.js";

/** A stdin user message (string or blocks) as a conversation message. */
export function toUserMessage(content: string | InputContentBlock[]): UserMessage {
  if (typeof content === "string") return { role: "user", content: [{ type: "text", text: content }] };
  return {
    role: "user",
    content: content.map(
      (block): UserContentBlock =>
        block.type === "text"
          ? { type: "text", text: block.text }
          : { type: "image", mediaType: block.source.media_type, data: block.source.data },
    ),
  };
}
