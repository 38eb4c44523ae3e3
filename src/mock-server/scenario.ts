import { readFile } from "node:fs/promises";
import * as z from "zod";

/**
 * Scenario files script the model side of a conversation for the replay server: one turn per
 * model request, served in order. The format is vendor-neutral on purpose, so the same file can
 * later be encoded for other wire formats than Anthropic's. Field reference: fixtures/README.md.
 */

const toolCallSchema = z.strictObject({
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  /** Fixed tool-use id; the server generates a deterministic one when absent. */
  id: z.string().min(1).optional(),
});

const stopReasonSchema = z.enum(["end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal"]);

/**
 * A web search the answering side ran: the vendor's own search (Anthropic's server tool, OpenAI's
 * web_search, Gemini's grounding) before the turn's text, or a SearXNG instance's results.
 */
const webSearchSchema = z.strictObject({
  /** The query the search ran (default "search"). */
  query: z.string().min(1).optional(),
  results: z.array(
    z.strictObject({
      title: z.string(),
      url: z.url(),
      /** SearXNG's `content`: a few words from the page. */
      snippet: z.string().optional(),
    }),
  ),
});

const responseTurnSchema = z.strictObject({
  thinking: z.string().optional(),
  web_search: webSearchSchema.optional(),
  text: z.string().optional(),
  tool_calls: z.array(toolCallSchema).optional(),
  /** Default: "tool_use" when there are tool calls, else "end_turn". */
  stop_reason: stopReasonSchema.optional(),
  /** Characters per streamed text/thinking/tool-input delta (default 8, as the real API does). */
  chunk_chars: z.number().int().positive().optional(),
  /** Pause between two SSE frames, so interrupts and partial streaming can be observed. */
  chunk_delay_ms: z.number().int().nonnegative().optional(),
  /** Destroy the socket once this many SSE frames were written (simulates a dropped stream). */
  disconnect_after_chunks: z.number().int().nonnegative().optional(),
  /** Write this many SSE frames, then nothing more while keeping the connection open (a stalled stream). */
  stall_after_chunks: z.number().int().nonnegative().optional(),
  /** Sent as an SSE `event: error` after the content blocks, instead of message_delta/stop. */
  stream_error: z.strictObject({ type: z.string().min(1), message: z.string() }).optional(),
  /** Overrides for the token estimates (input ≈ request chars / 4, output ≈ content chars / 4). */
  usage: z
    .strictObject({
      /** Input tokens not read from a prompt cache. */
      input_tokens: z.number().int().nonnegative().optional(),
      output_tokens: z.number().int().nonnegative().optional(),
      /** Input tokens read from a prompt cache (default 0). */
      cache_read_input_tokens: z.number().int().nonnegative().optional(),
    })
    .optional(),
  /** Model name reported in the response; default: the model the request asked for. */
  model: z.string().min(1).optional(),
  /** Misbehaviours of local OpenAI-compatible servers, reproduced in the Chat Completions format only. */
  quirks: z
    .strictObject({
      /** No usage chunk, even when the request asks for `stream_options.include_usage`. */
      omit_usage: z.boolean().optional(),
      /** Tool calls come without an `id`. */
      omit_tool_call_ids: z.boolean().optional(),
      /** Every argument piece of a call repeats its id, type and name (merged by `index`). */
      split_tool_call_arguments: z.boolean().optional(),
      /** The tool calls are printed as content text: one bare JSON object, or `<tool_call>` tags. */
      tool_calls_as_text: z.enum(["json", "tags"]).optional(),
    })
    .optional(),
  repeat: z.boolean().optional(),
  match: z.string().min(1).optional(),
});

const errorTurnSchema = z.strictObject({
  error: z.strictObject({
    status: z.number().int().min(400).max(599),
    /** Vendor error type, e.g. "rate_limit_error"; default derived from the status. */
    type: z.string().min(1).optional(),
    /** OpenAI error code, e.g. "context_length_exceeded" (OpenAI formats); default derived from the status. */
    code: z.string().min(1).optional(),
    message: z.string().optional(),
    /** Seconds, sent as the `retry-after` header. */
    retry_after: z.number().nonnegative().optional(),
  }),
  repeat: z.boolean().optional(),
  match: z.string().min(1).optional(),
});

/**
 * A turn is an error when it has an `error` key. Choosing the schema by that key (instead of a
 * plain union) keeps validation messages pointed at the field that is actually wrong.
 */
const scenarioTurnSchema = z.unknown().transform((value, context): ErrorTurn | ResponseTurn => {
  const looksLikeError = typeof value === "object" && value !== null && "error" in value;
  const result = (looksLikeError ? errorTurnSchema : responseTurnSchema).safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) context.addIssue({ ...issue });
  return z.NEVER;
});

/**
 * `match` on a turn: it answers only a request whose first user message contains this text.
 * Several conversations can then share one server — a main conversation and its subagents, each
 * starting from its own prompt — however their requests interleave.
 */
export const scenarioSchema = z.strictObject({
  turns: z.array(scenarioTurnSchema).min(1),
});

export type ScriptedToolCall = z.infer<typeof toolCallSchema>;
export type ScriptedWebSearch = z.infer<typeof webSearchSchema>;
export type ScenarioStopReason = z.infer<typeof stopReasonSchema>;
export type ResponseTurn = z.infer<typeof responseTurnSchema>;
export type ErrorTurn = z.infer<typeof errorTurnSchema>;
export type ScenarioTurn = ResponseTurn | ErrorTurn;
export type Scenario = z.infer<typeof scenarioSchema>;

export function isErrorTurn(turn: ScenarioTurn): turn is ErrorTurn {
  return "error" in turn;
}

/**
 * Reads and validates a scenario file.
 *
 * Contract: rejects with an Error naming the file and every invalid field; never returns a
 * scenario that does not match the schema.
 */
export async function loadScenario(path: string): Promise<Scenario> {
  const text = await readFile(path, "utf8").catch((cause: unknown) => {
    throw new Error(`Cannot read scenario ${path}: ${(cause as Error).message}`, { cause });
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new Error(`Scenario ${path} is not valid JSON: ${(cause as Error).message}`, { cause });
  }
  const result = scenarioSchema.safeParse(json);
  if (!result.success) {
    throw new Error(`Scenario ${path} is invalid:\n${z.prettifyError(result.error)}`);
  }
  return result.data;
}
