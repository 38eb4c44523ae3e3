import type { Writable } from "node:stream";
import { readLines } from "../../protocol/lines.js";
import { sessionLineToItems } from "./session-events.js";
import { TranscriptRenderer, type RenderItem, type RenderOptions } from "./transcript-renderer.js";

/**
 * Renders a JSONL stream line by line as it arrives (a live run piped in, a large file): stream-json
 * events, or a session file, recognised by its header line. Malformed lines are shown, not fatal.
 * Yields the rendered lines of each input line together.
 */
export async function* renderStream(
  input: AsyncIterable<Uint8Array | string>,
  options: RenderOptions & { sessionFile?: boolean },
): AsyncGenerator<string[]> {
  const renderer = new TranscriptRenderer(options);
  // Known to be a session file (`sessions show`): its lines read as one even when the header is damaged.
  let sessionFile: boolean | undefined = options.sessionFile;
  for await (const line of readLines(input)) {
    const items: RenderItem[] = [];
    if (line.kind === "too_long") items.push({ kind: "note", text: `? line ${line.number}: ${line.bytes} bytes, too long to show` });
    else {
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch {
        items.push({ kind: "invalid", text: line.text });
      }
      if (value !== undefined) {
        sessionFile ??= typeof value === "object" && value !== null && (value as { type?: unknown }).type === "session";
        items.push(...(sessionFile ? sessionLineToItems(value) : [{ kind: "event" as const, event: value }]));
      }
    }
    const text = items.flatMap((item) => renderer.render(item));
    if (text.length > 0) yield text;
  }
}

/** renderStream to a writable (stdout), respecting its back-pressure. */
export async function writeRendered(
  input: AsyncIterable<Uint8Array | string>,
  output: Writable,
  options: RenderOptions & { sessionFile?: boolean },
): Promise<void> {
  for await (const lines of renderStream(input, options)) {
    if (!output.write(`${lines.join("\n")}\n`)) await new Promise((done) => output.once("drain", done));
  }
}
