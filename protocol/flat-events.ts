import * as z from "zod";
import {
  ApiErrorCodeSchema,
  ControlCancelRequestEventSchema,
  ControlRequestEventSchema,
  ControlResponseEventSchema,
  PermissionRequestEventSchema,
  ResultSubtypeSchema,
  TerminalReasonSchema,
} from "./events.js";

/**
 * The flat dialect (`--output-format stream-json --event-dialect flat`): the simpler event list
 * of the seed design, for hosts written against it. Text arrives as deltas, tool calls and their
 * results are top-level events, and fatal API failures are `system/error` lines. It is a
 * translation of the same run (src/server/flat-dialect.ts), with the same guarantees: every turn
 * ends with one `result`, and the exit codes are the same. README-flat.md documents it;
 * flat-schema.json is the same as JSON Schema.
 */
const SessionId = z.string();

export const FlatInitEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("init"),
  session_id: SessionId,
  model: z.string(),
  provider: z.string(),
  cwd: z.string(),
  tools: z.array(z.string()),
  dialect: z.literal("flat"),
});

/** Assistant text: `streaming: true` for each delta as it arrives; `false` for a whole text that was not streamed. */
export const FlatAssistantEventSchema = z.strictObject({
  type: z.literal("assistant"),
  message: z.strictObject({ content: z.string() }),
  streaming: z.boolean(),
  session_id: SessionId,
});

export const FlatToolUseEventSchema = z.strictObject({
  type: z.literal("tool_use"),
  message: z.strictObject({ name: z.string(), input: z.record(z.string(), z.unknown()), id: z.string() }),
  session_id: SessionId,
});

/** What the model was told; images appear as "[image]". */
export const FlatToolResultEventSchema = z.strictObject({
  type: z.literal("tool_result"),
  message: z.strictObject({ tool_use_id: z.string(), content: z.string(), is_error: z.boolean() }),
  session_id: SessionId,
});

export const FlatUsageSchema = z.strictObject({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cache_read_input_tokens: z.number().int().nonnegative(),
  cache_creation_input_tokens: z.number().int().nonnegative(),
});

/** The last line of every turn. */
export const FlatResultEventSchema = z.strictObject({
  type: z.literal("result"),
  subtype: ResultSubtypeSchema,
  is_error: z.boolean(),
  /** The final answer; present on success. */
  result: z.string().optional(),
  /** Why the turn failed; present on errors. */
  errors: z.array(z.string()).optional(),
  structured_output: z.unknown().optional(),
  terminal_reason: TerminalReasonSchema,
  error_code: ApiErrorCodeSchema.optional(),
  num_turns: z.number().int().nonnegative(),
  duration_ms: z.number().int().nonnegative(),
  total_cost_usd: z.number().nonnegative(),
  usage: FlatUsageSchema,
  session_id: SessionId,
});

/**
 * A failure the host should show: an API failure that ends the turn (after retries), with
 * `error_code` from ApiErrorCodeSchema (`authentication_failed` for a bad key), or a stdin line
 * that could not be used (`invalid_json`, `invalid_command`, `line_too_long`, `unsupported`;
 * the session goes on).
 */
export const FlatErrorEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("error"),
  message: z.string(),
  error_code: z.string(),
  session_id: SessionId,
});

/** Any stdout line in the flat dialect. Approvals and control answers are the same lines as in Claude Code's dialect. */
export const FlatEventSchema = z.union([
  FlatInitEventSchema,
  FlatAssistantEventSchema,
  FlatToolUseEventSchema,
  FlatToolResultEventSchema,
  FlatResultEventSchema,
  FlatErrorEventSchema,
  PermissionRequestEventSchema,
  ControlResponseEventSchema,
  ControlRequestEventSchema,
  ControlCancelRequestEventSchema,
]);

export type FlatEvent = z.infer<typeof FlatEventSchema>;
export type FlatResultEvent = z.infer<typeof FlatResultEventSchema>;
