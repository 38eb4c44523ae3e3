import * as z from "zod";
import { SimpleUserCommandSchema, UserMessageCommandSchema } from "../../protocol/commands.js";
import type { UserMessage } from "../conversation/messages.js";
import { toUserMessage } from "../session/user-input.js";
import type { QueryUserMessage } from "./query-options.js";

/** The prompt as conversation messages, validated one by one as they arrive. */
export async function* userMessages(prompt: string | AsyncIterable<QueryUserMessage>): AsyncGenerator<UserMessage> {
  if (typeof prompt === "string") {
    yield toUserMessage(prompt);
    return;
  }
  let position = 0;
  for await (const message of prompt) {
    position++;
    if (typeof message === "string") {
      yield toUserMessage(message);
      continue;
    }
    const parsed = z.union([UserMessageCommandSchema, SimpleUserCommandSchema]).safeParse(message);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `Prompt message ${position} is not a user message: ${issue ? `${issue.path.join(".") || "(message)"}: ${issue.message}` : "invalid"}`,
      );
    }
    yield toUserMessage("message" in parsed.data ? parsed.data.message.content : parsed.data.content);
  }
}
