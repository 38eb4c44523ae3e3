import type { Message } from "../conversation/messages.js";

/**
 * Ids for tool calls a server streamed without one (local OpenAI-compatible servers do), the same
 * for every OpenAI wire API: `call_<n>`, numbered after the calls already in the conversation, so
 * an id stays unique within it (also across --resume) and a result finds its call.
 */
export function fallbackCallIds(history: readonly Message[]): () => string {
  let count = history.reduce((total, message) => total + message.content.filter((block) => block.type === "tool_use").length, 0);
  return () => `call_${++count}`;
}
