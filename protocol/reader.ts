import type { z } from "zod";
import { OutputEventSchema, type OutputEvent } from "./events.js";
import { readLines } from "./lines.js";

/** One line of a stream-json byte stream: a validated event, or a line that is not one. */
export type ReadResult<Event> =
  | { kind: "event"; event: Event; line: number }
  | { kind: "invalid"; line: number; text: string; error: string };

/**
 * Turns a byte stream of stream-json (agentwire's stdout, Claude Code's, a saved transcript)
 * into validated events, in order. A line that is not JSON, or not an event of the schema, is
 * yielded as `invalid` with the reason, never thrown: a consumer decides whether to skip it.
 * `schema` defaults to every stdout event (OutputEventSchema); pass InputCommandSchema to read
 * stdin lines.
 *
 * @example
 * for await (const item of readEvents(child.stdout)) {
 *   if (item.kind === "event" && item.event.type === "result") console.log(item.event.result);
 * }
 */
export function readEvents(input: AsyncIterable<Uint8Array | string>): AsyncGenerator<ReadResult<OutputEvent>>;
export function readEvents<Schema extends z.ZodType>(
  input: AsyncIterable<Uint8Array | string>,
  schema: Schema,
): AsyncGenerator<ReadResult<z.infer<Schema>>>;
export async function* readEvents(
  input: AsyncIterable<Uint8Array | string>,
  schema: z.ZodType = OutputEventSchema,
): AsyncGenerator<ReadResult<unknown>> {
  for await (const line of readLines(input)) {
    if (line.kind === "too_long") {
      yield { kind: "invalid", line: line.number, text: "", error: `line is ${line.bytes} bytes, over the limit` };
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch (error) {
      yield { kind: "invalid", line: line.number, text: line.text, error: `not JSON: ${(error as Error).message}` };
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) yield { kind: "event", event: parsed.data, line: line.number };
    else {
      const issue = parsed.error.issues[0];
      yield {
        kind: "invalid",
        line: line.number,
        text: line.text,
        error: `not a protocol event: ${issue ? `${issue.path.join(".") || "(line)"}: ${issue.message}` : "no match"}`,
      };
    }
  }
}
