import type { Writable } from "node:stream";

/**
 * JSONL framing, write side: the only code that writes protocol lines. Writes one JSON value per line. Contract: never throws, and never writes a line that is not a
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
