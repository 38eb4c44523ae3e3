import type { AssistantContentBlock, Message } from "../conversation/messages.js";

/**
 * The history as one provider may see it. Thinking blocks and signatures are opaque,
 * provider-bound tokens: a signature from Anthropic sent to Gemini (or the reverse) is rejected
 * with HTTP 400, so messages another provider produced keep their text and tool calls only.
 * Pure; the stored history is not changed.
 */
export function messagesForProvider(history: Message[], providerId: string): Message[] {
  if (history.every((message) => message.role === "user" || message.provider === undefined || message.provider === providerId))
    return history;
  return history.map((message) => {
    if (message.role === "user" || message.provider === undefined || message.provider === providerId) return message;
    return { ...message, content: message.content.flatMap(withoutProviderTokens) };
  });
}

function withoutProviderTokens(block: AssistantContentBlock): AssistantContentBlock[] {
  if (block.type === "thinking") return [];
  if ("signature" in block && block.signature !== undefined) {
    const { signature: _signature, ...rest } = block;
    return [rest];
  }
  return [block];
}
