import type { OutputEvent, ResultEvent, ResultUsage } from "../../protocol/events.js";
import { query, type QueryOptions, type QueryUserMessage } from "./query.js";

export interface RunResult {
  /** The final answer's text ("" when the last turn failed). */
  result: string;
  /** Whether the last turn ended in an error (then `resultEvent.errors` says why). */
  isError: boolean;
  /** The last turn's `result` event, as stream-json prints it. */
  resultEvent: ResultEvent;
  /** Every event of the run, in order. */
  messages: OutputEvent[];
  /** Tokens over every turn of the run. */
  usage: Pick<ResultUsage, "input_tokens" | "output_tokens" | "cache_read_input_tokens" | "cache_creation_input_tokens">;
  sessionId: string;
}

/**
 * `query()` folded into its outcome: runs the prompt (or the streamed messages) to the end and
 * resolves with the final answer, every event, the summed usage and the session id (for `resume`).
 * Contract: never rejects for a failed turn; a failure is `isError` with the reason in `resultEvent`.
 */
export async function run(prompt: string | AsyncIterable<QueryUserMessage>, options?: QueryOptions): Promise<RunResult> {
  const messages: OutputEvent[] = [];
  const usage = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  let last: ResultEvent | undefined;
  for await (const event of query({ prompt, ...(options ? { options } : {}) })) {
    messages.push(event);
    if (event.type !== "result") continue;
    last = event;
    usage.input_tokens += event.usage.input_tokens;
    usage.output_tokens += event.usage.output_tokens;
    usage.cache_read_input_tokens += event.usage.cache_read_input_tokens;
    usage.cache_creation_input_tokens += event.usage.cache_creation_input_tokens;
  }
  // query() ends every path with a result; an empty prompt stream is the one way to have none.
  if (!last) throw new Error("The prompt stream ended before any message was sent.");
  return {
    result: last.is_error ? "" : (last.result ?? ""),
    isError: last.is_error,
    resultEvent: last,
    messages,
    usage,
    sessionId: last.session_id,
  };
}
