import type { Message, UserMessage } from "../../conversation/messages.js";

/**
 * Where a `fork` subagent starts: a copy of the parent's conversation as it is at the Agent call,
 * then its task. The parent's last message holds the calls still running (the Agent call among
 * them); every provider wants each call answered before anything else is said, so the fork's
 * first message answers them with a note that they run in the parent, then gives the task. Pure.
 */
export function forkedConversation(parentHistory: readonly Message[], task: string): { history: Message[]; prompt: UserMessage } {
  const history = structuredClone(parentHistory) as Message[];
  const last = history.at(-1);
  const pending = last?.role === "assistant" ? last.content.filter((block) => block.type === "tool_use") : [];
  return {
    history,
    prompt: {
      role: "user",
      content: [
        ...pending.map((call) => ({
          type: "tool_result" as const,
          toolUseId: call.id,
          content: "This call goes on in the parent conversation; this fork does not see its result.",
          isError: false,
        })),
        { type: "text", text: task },
      ],
    },
  };
}
