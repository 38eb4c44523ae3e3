import type { Readable, Writable } from "node:stream";

/**
 * JSONL framing: the only code that writes protocol lines. Lines are split on "\n" only (not
 * readline, which also splits on characters that are legal inside JSON strings), a trailing
 * "\r" is stripped, blank lines are skipped, and a final line without "\n" is still delivered.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export type LineEvent = { kind: "line"; text: string; number: number } | { kind: "too_long"; number: number; bytes: number };

/** Yields stdin lines in order. Oversized lines are reported (not buffered) and skipped. */
export async function* readLines(input: Readable, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<LineEvent> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let discarding = false;
  let number = 0;
  const flush = (): LineEvent | undefined => {
    number++;
    if (discarding) {
      const event: LineEvent = { kind: "too_long", number, bytes: pendingBytes };
      pending = [];
      pendingBytes = 0;
      discarding = false;
      return event;
    }
    let text = Buffer.concat(pending).toString("utf8");
    pending = [];
    pendingBytes = 0;
    if (text.endsWith("\r")) text = text.slice(0, -1);
    return text.trim() === "" ? undefined : { kind: "line", text, number };
  };
  for await (const chunk of input) {
    let buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    for (let newline = buffer.indexOf(10); newline !== -1; newline = buffer.indexOf(10)) {
      take(buffer.subarray(0, newline));
      const event = flush();
      if (event) yield event;
      buffer = buffer.subarray(newline + 1);
    }
    take(buffer);
  }
  if (pendingBytes > 0 || discarding) {
    const event = flush();
    if (event) yield event;
  }

  function take(part: Buffer): void {
    if (part.length === 0) return;
    pendingBytes += part.length;
    if (discarding) return;
    if (pendingBytes > maxLineBytes) {
      discarding = true;
      pending = [];
      return;
    }
    pending.push(part);
  }
}

/**
 * Writes one JSON value per line. Contract: never throws, and never writes a line that is not a
 * JSON object; an unserializable value is reported as such. Writes to a pipe are synchronous
 * on Linux and macOS, so a slow reader blocks the writer instead of growing a buffer.
 */
export function createLineWriter(output: Writable): (value: unknown) => void {
  return (value) => {
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch (error) {
      text = JSON.stringify({ type: "system", subtype: "output_error", message: String(error) });
    }
    // JSON.stringify returns undefined (instead of throwing) for undefined, functions, symbols.
    text ??= JSON.stringify({ type: "system", subtype: "output_error", message: "value is not JSON-serializable" });
    output.write(`${text}\n`);
  };
}
