import type { Message, UserContentBlock } from "./messages.js";

/**
 * How a skills listing began when agentwire stored it without the `reminder` mark (session files
 * written before the mark existed). Frozen: it describes old files, not today's listing.
 */
const UNMARKED_LISTING_START = "<system-reminder>\nThe following skills are available";

/**
 * `text` wrapped as agentwire's note to the model (the skills listing, task notifications, the
 * deferred tools): user-role text in every provider, since none but OpenAI's takes a system
 * message mid-conversation, and the wrapping tells the model it is not the user's words.
 */
export function systemReminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`;
}

/** A block agentwire added for the model (the skills listing, task notifications), not the user's words. */
export function isReminder(block: UserContentBlock | Message["content"][number]): boolean {
  return block.type === "text" && (block.reminder !== undefined || block.text.startsWith(UNMARKED_LISTING_START));
}

/**
 * The message as a person reads it back: without reminders. Undefined when nothing of it was the
 * user's (a message that held only a reminder).
 */
export function visibleMessage(message: Message): Message | undefined {
  if (message.role !== "user") return message;
  const content = message.content.filter((block) => !isReminder(block));
  if (content.length === message.content.length) return message;
  return content.length === 0 ? undefined : { ...message, content };
}

/** The user's own text in a user message, reminders left out. */
export function userWords(content: readonly UserContentBlock[]): string {
  return content.flatMap((block) => (block.type === "text" && !isReminder(block) ? [block.text] : [])).join("\n");
}

/** The text of the last skills listing the conversation holds, if any: what the model last saw. */
export function lastSkillsListing(history: readonly Message[]): string | undefined {
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index]!;
    if (message.role !== "user") continue;
    for (let position = message.content.length - 1; position >= 0; position--) {
      const block = message.content[position]!;
      if (block.type === "text" && isReminder(block) && block.reminder !== "tasks") return block.text;
    }
  }
  return undefined;
}
