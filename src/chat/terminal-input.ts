import { createInterface } from "node:readline";
import { emitKeypressEvents } from "node:readline";
import type { Key } from "./line-editor.js";

/**
 * Keys from a terminal with cursor control, in raw mode and with bracketed paste (the terminal
 * marks pasted text, so a paste never submits by itself). Returns what gives the terminal back.
 */
export function listenToKeys(
  input: NodeJS.ReadStream,
  output: NodeJS.WriteStream,
  onKey: (character: string | undefined, key: Key) => void,
): () => void {
  // A lone Esc is told from the start of an escape sequence after 50 ms.
  emitKeypressEvents(input, { escapeCodeTimeout: 50 } as never);
  input.setRawMode(true);
  output.write("\u001b[?2004h");
  input.on("keypress", (character: string | undefined, key: Key | undefined) => onKey(character, key ?? { sequence: character }));
  input.resume();
  return () => {
    output.write("\u001b[?2004l");
    input.setRawMode(false);
  };
}

/** Plain mode: input line by line, its end, and Ctrl+C (the terminal's own, as SIGINT). */
export function listenToLines(input: NodeJS.ReadStream, handlers: { line(line: string): void; end(): void; interrupt(): void }): void {
  const lines = createInterface({ input, terminal: false });
  lines.on("line", handlers.line);
  lines.on("close", handlers.end);
  process.on("SIGINT", handlers.interrupt);
}
