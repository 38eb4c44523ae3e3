import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";

/** Entries kept: older ones stay in the file but are not loaded. */
const MAX_ENTRIES = 1000;

/**
 * The chat's input history, one JSON string per line (entries may span lines) in
 * `$AGENTWIRE_HOME/chat-history.jsonl`, shared by every chat on the machine, as a shell's is.
 * A file that cannot be read or written costs the history, never the chat.
 */
export class ChatHistory {
  constructor(private readonly file: string) {}

  load(): string[] {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      return [];
    }
    const entries: string[] = [];
    for (const line of text.split("\n")) {
      try {
        const entry = JSON.parse(line) as unknown;
        if (typeof entry === "string") entries.push(entry);
      } catch {
        // A torn last line (two chats writing at once) is skipped.
      }
    }
    return entries.slice(-MAX_ENTRIES);
  }

  append(entry: string): void {
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      appendFileSync(this.file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    } catch {
      // Read-only home: the chat goes on without saving history.
    }
  }
}
