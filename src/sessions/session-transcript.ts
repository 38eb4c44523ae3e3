import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { Writable } from "node:stream";
import type { Message } from "../conversation/messages.js";
import { EntrySchema, HeaderSchema, type SessionEntry } from "./session-file.js";

// A long tool output shows its first lines; the file keeps all of it.
const RESULT_LINES = 6;

/**
 * A session file as plain text for people (`agentwire sessions show`): each message with its
 * role, tool calls on one line with their input, results cut to a few lines, compactions and
 * turn ends as separators. Read line by line, so a large file streams.
 */
export async function writeTranscript(file: string, output: Writable): Promise<void> {
  const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Number.POSITIVE_INFINITY });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (line.trim() === "") continue;
    const text = describeLine(line, lineNumber);
    if (!output.write(`${text}\n`)) await new Promise((resolve) => output.once("drain", resolve));
  }
}

function describeLine(line: string, lineNumber: number): string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return `[line ${lineNumber}: unreadable, ${line.length} characters]`;
  }
  if (lineNumber === 1) {
    const header = HeaderSchema.safeParse(value);
    if (header.success) {
      const { session_id, cwd, created_at, forked_from } = header.data;
      return `Session ${session_id}\n  cwd ${cwd}\n  created ${created_at}${forked_from ? `\n  forked from ${forked_from}` : ""}\n`;
    }
  }
  const entry = EntrySchema.safeParse(value);
  return entry.success ? describeEntry(entry.data) : `[line ${lineNumber}: not a session entry]`;
}

function describeEntry(entry: SessionEntry): string {
  switch (entry.type) {
    case "message":
      return describeMessage(entry.message);
    case "turn_end":
      return `── end of turn · session cost $${entry.total_cost_usd.toFixed(4)} ──\n`;
    case "compaction":
      return entry.trigger === "clear"
        ? "── /clear: the conversation starts over ──\n"
        : `── compacted (${entry.trigger}): ${entry.pre_tokens} → ${entry.post_tokens} tokens; the conversation goes on from: ──\n${entry.messages.map(describeMessage).join("\n")}\n── end of compacted conversation ──\n`;
  }
}

function describeMessage(message: Message): string {
  const parts = message.content.map((block) => {
    switch (block.type) {
      case "text":
        return block.text;
      case "thinking":
        return `(thinking) ${block.thinking}`;
      case "image":
        return "[image]";
      case "tool_use":
        return `→ ${block.name} ${JSON.stringify(block.input)}`;
      case "tool_result":
        return `← ${block.isError ? "error" : "result"}: ${shorten(typeof block.content === "string" ? block.content : block.content.map((item) => (item.type === "text" ? item.text : "[image]")).join("\n"))}`;
      default:
        return "";
    }
  });
  return `${message.role}: ${parts.join("\n")}`;
}

function shorten(text: string): string {
  const lines = text.split("\n");
  return lines.length <= RESULT_LINES ? text : `${lines.slice(0, RESULT_LINES).join("\n")}\n  … ${lines.length - RESULT_LINES} more lines`;
}
