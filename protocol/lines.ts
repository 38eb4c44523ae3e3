/**
 * JSONL framing, read side. Lines are split on "\n" only (not readline, which also splits on
 * characters that are legal inside JSON strings), a trailing "\r" is stripped, blank lines are
 * skipped, and a final line without "\n" is still delivered.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export type LineEvent = { kind: "line"; text: string; number: number } | { kind: "too_long"; number: number; bytes: number };

/** Yields stdin lines in order. Oversized lines are reported (not buffered) and skipped. */
export async function* readLines(input: AsyncIterable<Uint8Array | string>, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<LineEvent> {
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
    let buffer = typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
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
