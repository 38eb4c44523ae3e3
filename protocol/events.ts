import * as z from "zod";
import { modelUsageFields } from "./model-usage.js";
import {
  BackgroundTasksChangedEventSchema,
  TaskNotificationEventSchema,
  TaskProgressEventSchema,
  TaskStartedEventSchema,
  TaskUpdatedEventSchema,
} from "./task-events.js";

export * from "./task-events.js";

/**
 * Every line agentwire writes to stdout, as zod schemas. Shapes follow what Claude Code 2.1.330
 * emits in `-p --output-format stream-json --verbose` mode (see protocol/README.md for the
 * deliberate differences). Objects are strict so that the test suite catches any field that
 * drifts from this file; nested provider payloads (`stream_event.event`) are passed through.
 */

const Uuid = z.string().min(1);
const SessionId = z.string().min(1);
/** The Agent call whose subagent produced the line; null on the main conversation's own lines. */
const ParentToolUseId = z.string().min(1).nullable();

// ---------------------------------------------------------------------------------------------
// Content blocks as they appear inside `message.content` (Anthropic Messages shape).

export const WireTextBlockSchema = z.strictObject({ type: z.literal("text"), text: z.string() });
export const WireThinkingBlockSchema = z.strictObject({
  type: z.literal("thinking"),
  thinking: z.string(),
  signature: z.string(),
});
export const WireToolUseBlockSchema = z.strictObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});
export const WireImageBlockSchema = z.strictObject({
  type: z.literal("image"),
  source: z.strictObject({ type: z.literal("base64"), media_type: z.string(), data: z.string() }),
});
/** A tool ToolSearch loaded: the next request carries its schema. */
export const WireToolReferenceBlockSchema = z.strictObject({ type: z.literal("tool_reference"), tool_name: z.string() });
export const WireToolResultBlockSchema = z.strictObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.union([WireTextBlockSchema, WireImageBlockSchema, WireToolReferenceBlockSchema]))]),
  is_error: z.boolean().optional(),
});

/** Per-message usage in Anthropic's shape. */
export const MessageUsageSchema = z.strictObject({
  input_tokens: z.number().int().nonnegative(),
  cache_creation_input_tokens: z.number().int().nonnegative(),
  cache_read_input_tokens: z.number().int().nonnegative(),
  cache_creation: z.strictObject({
    ephemeral_5m_input_tokens: z.number().int().nonnegative(),
    ephemeral_1h_input_tokens: z.number().int().nonnegative(),
  }),
  output_tokens: z.number().int().nonnegative(),
  service_tier: z.string().nullable(),
});

// ---------------------------------------------------------------------------------------------
// system/*

export const SystemInitEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("init"),
  cwd: z.string(),
  session_id: SessionId,
  tools: z.array(z.string()),
  mcp_servers: z.array(z.strictObject({ name: z.string(), status: z.string(), error: z.string().optional() })),
  model: z.string(),
  /** agentwire extension: which provider serves `model`. */
  provider: z.string(),
  permissionMode: z.string(),
  slash_commands: z.array(z.string()),
  apiKeySource: z.string(),
  output_style: z.string(),
  agents: z.array(z.string()),
  skills: z.array(z.string()),
  plugins: z.array(z.strictObject({ name: z.string(), path: z.string() })),
  /** The Claude Code release whose protocol agentwire follows (protocol/version.ts). */
  claude_code_version: z.string(),
  /** agentwire extension: version of this protocol (protocol/version.ts). */
  protocol_version: z.string(),
  /** agentwire extension: the agentwire package version. */
  agentwire_version: z.string(),
  uuid: Uuid,
});

export const ApiRetryEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("api_retry"),
  attempt: z.number().int().positive(),
  max_retries: z.number().int().nonnegative(),
  retry_delay_ms: z.number().int().nonnegative(),
  /** HTTP status of the failed attempt; null when the connection dropped. */
  error_status: z.number().int().nullable(),
  error: z.enum(["authentication_failed", "rate_limit", "server_error", "overloaded", "unknown"]),
  session_id: SessionId,
  uuid: Uuid,
});

export const StatusEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("status"),
  status: z.enum(["requesting", "compacting"]).nullable(),
  /** Present when the permission mode changed (set_permission_mode). */
  permissionMode: z.string().optional(),
  /** After compacting (`status: null`): whether it worked, and why not. */
  compact_result: z.enum(["success", "failed"]).optional(),
  compact_error: z.string().optional(),
  session_id: SessionId,
  uuid: Uuid,
});

/** The conversation was compacted: what came before is summarized (or its old tool outputs stubbed). */
export const CompactBoundaryEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("compact_boundary"),
  compact_metadata: z.strictObject({
    trigger: z.enum(["manual", "auto"]),
    /** Estimated tokens of the conversation before and after. */
    pre_tokens: z.number().int().nonnegative(),
    post_tokens: z.number().int().nonnegative(),
    duration_ms: z.number().int().nonnegative(),
  }),
  session_id: SessionId,
  uuid: Uuid,
});

/**
 * For the Claude Agent SDK only (emitted when it sets CLAUDE_CODE_SDK_READS_SESSION_STATE=1):
 * `running` when a turn starts, `idle` once no turn is running or queued. The SDK does not
 * yield these to its users.
 */
export const SessionStateChangedEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("session_state_changed"),
  state: z.enum(["idle", "running", "requires_action"]),
  sdk_host_only: z.literal(true),
  session_id: SessionId,
  uuid: Uuid,
});

/** A tool call was refused by the permission system; its error tool_result follows. */
export const PermissionDeniedEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("permission_denied"),
  tool_name: z.string(),
  tool_use_id: z.string(),
  message: z.string(),
  session_id: SessionId,
  uuid: Uuid,
});

/**
 * agentwire's simple approval dialect (`agentwire start`, or `--permission-mode interactive`
 * with stream-json input): the host answers with `{"type":"tool_approval","id":…,"approved":…}`.
 */
export const PermissionRequestEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("permission_request"),
  /** The tool_use id; echo it as `id` in the tool_approval answer. */
  id: z.string(),
  tool_name: z.string(),
  input: z.record(z.string(), z.unknown()),
  reason: z.string(),
  session_id: SessionId,
  uuid: Uuid,
});

export const ThinkingTokensEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("thinking_tokens"),
  estimated_tokens: z.number().int().nonnegative(),
  estimated_tokens_delta: z.number().int().nonnegative(),
  session_id: SessionId,
  uuid: Uuid,
});

/**
 * agentwire extension (a `system` subtype, not a new top-level type): a stdin line that could
 * not be used. The process keeps serving.
 */
export const InputErrorEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("input_error"),
  error: z.strictObject({
    code: z.enum(["invalid_json", "invalid_command", "line_too_long", "unsupported"]),
    message: z.string(),
  }),
  /** 1-based stdin line number. */
  line: z.number().int().positive(),
  session_id: SessionId,
  uuid: Uuid,
});

/**
 * agentwire extension: something the consumer should know that is not an error — the run goes on.
 * Known codes include `tools_unsupported` (the model cannot call tools; the session runs
 * text-only), `unknown_model_price` (the model has no list price in agentwire's table; its cost
 * counts as 0), `skill_skipped` (a skill could not be loaded; never listed in `system/init`) and
 * `skill_fixed` (loaded with a fix: frontmatter read with its unreadable values quoted, a name
 * that differs from its folder, a description cut short), both with the SKILL.md's `path`,
 * `default_skills_installed` and `flags_ignored` (notices that would otherwise have gone to
 * stderr); protocol/README.md lists them all. Consumers must accept codes they do not know.
 */
export const WarningEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("warning"),
  code: z.string().min(1),
  message: z.string(),
  /** The file the warning is about (a skill's SKILL.md), when it is about one. */
  path: z.string().optional(),
  session_id: SessionId,
  uuid: Uuid,
});

// ---------------------------------------------------------------------------------------------
// system/task_* (a subagent run by the Agent tool; Claude Code's local_agent tasks)

// ---------------------------------------------------------------------------------------------
// assistant / user

const AssistantMessageSchema = z.strictObject({
  id: z.string(),
  type: z.literal("message"),
  role: z.literal("assistant"),
  model: z.string(),
  content: z.tuple([z.union([WireTextBlockSchema, WireThinkingBlockSchema, WireToolUseBlockSchema])]),
  stop_reason: z.string().nullable(),
  stop_sequence: z.string().nullable(),
  usage: MessageUsageSchema,
  context_management: z.null(),
});

/** One line per completed content block; blocks of one model response share `message.id`. */
export const AssistantEventSchema = z.strictObject({
  type: z.literal("assistant"),
  message: AssistantMessageSchema,
  parent_tool_use_id: ParentToolUseId,
  session_id: SessionId,
  uuid: Uuid,
  timestamp: z.string(),
  request_id: z.string().optional(),
  /** Set on the partial block of an interrupted response. */
  aborted: z.literal(true).optional(),
  /** Set on the synthetic message that reports an API error. */
  error: z.string().optional(),
  is_api_error_message: z.literal(true).optional(),
  api_error_status: z.number().int().nullable().optional(),
});

export const UserEventSchema = z.strictObject({
  type: z.literal("user"),
  message: z.strictObject({
    role: z.literal("user"),
    // A tool result may be followed by text the tool adds beside it (ToolSearch's "Tool loaded.").
    content: z.union([
      z.tuple([z.union([WireToolResultBlockSchema, WireTextBlockSchema])]),
      z.tuple([WireToolResultBlockSchema, WireTextBlockSchema]),
    ]),
  }),
  parent_tool_use_id: ParentToolUseId,
  session_id: SessionId,
  uuid: Uuid,
  timestamp: z.string(),
  /** The tool's structured output for consumers; for errors, the string "Error: <message>". */
  tool_use_result: z.unknown().optional(),
  /** agentwire extension: machine-readable code of an expected tool failure. */
  tool_error_code: z.string().optional(),
  /** Set on text agentwire added by itself (the continuation after an output-limit cut). */
  isSynthetic: z.literal(true).optional(),
  /** On a subagent's prompt line: its task id, agent type and the Agent call's description. */
  agent_id: z.string().optional(),
  subagent_type: z.string().optional(),
  task_description: z.string().optional(),
});

// ---------------------------------------------------------------------------------------------
// stream_event (only with --include-partial-messages)

export const StreamEventSchema = z.strictObject({
  type: z.literal("stream_event"),
  /** A raw Anthropic Messages streaming event (message_start, content_block_delta, …). */
  event: z.looseObject({
    type: z.enum(["message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"]),
  }),
  session_id: SessionId,
  parent_tool_use_id: ParentToolUseId,
  uuid: Uuid,
  api_message_id: z.string(),
  ttft_ms: z.number().int().nonnegative().optional(),
});

// ---------------------------------------------------------------------------------------------
// result

export const ResultUsageSchema = z.strictObject({
  input_tokens: z.number().int().nonnegative(),
  cache_creation_input_tokens: z.number().int().nonnegative(),
  cache_read_input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  /** Of `output_tokens`, the reasoning ones where the provider reports them (OpenAI); else 0, as in Claude Code. */
  output_tokens_details: z.strictObject({ thinking_tokens: z.number().int().nonnegative() }),
  server_tool_use: z.strictObject({
    web_search_requests: z.number().int().nonnegative(),
    web_fetch_requests: z.number().int().nonnegative(),
  }),
  service_tier: z.string(),
  cache_creation: z.strictObject({
    ephemeral_1h_input_tokens: z.number().int().nonnegative(),
    ephemeral_5m_input_tokens: z.number().int().nonnegative(),
  }),
  inference_geo: z.string(),
  iterations: z.array(z.unknown()),
  speed: z.string(),
  fallback_credit: z.unknown().nullable(),
});

/** One model's usage in `result.modelUsage`. */
export const ModelUsageEntrySchema = z.strictObject(
  modelUsageFields(
    () => z.number().int().nonnegative(),
    () => z.number().nonnegative(),
  ),
);

export const PermissionDenialSchema = z.strictObject({
  tool_name: z.string(),
  tool_use_id: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
});

export const ResultSubtypeSchema = z.enum([
  "success",
  "error_max_turns",
  "error_max_budget_usd",
  "error_max_structured_output_retries",
  "error_during_execution",
]);

/** Why the turn ended. The first seven are values of the Agent SDK's `TerminalReason`; the rest are agentwire's. */
export const TerminalReasonSchema = z.enum([
  "completed",
  "max_turns",
  "budget_exhausted",
  "aborted_streaming",
  "aborted_tools",
  "api_error",
  "structured_output_retry_exhausted",
  "invalid_arguments",
  "invalid_input",
  "session_not_found",
  "session_unreadable",
  "hook_blocked",
  "hook_stopped",
  "stop_hook_prevented",
  "internal_error",
]);

/** Machine-readable kinds of API failure, in the synthetic assistant line's `error` and `result.error_code`. */
export const ApiErrorCodeSchema = z.enum([
  "authentication_failed",
  "rate_limit",
  "server_error",
  "overloaded",
  "connection_error",
  "context_length_exceeded",
  "invalid_request",
  "api_error",
]);

const count = () => z.number().int().nonnegative();

/** What the turn's Agent calls did, in Claude Code's counters (zeroed when none ran). */
export const SubagentStatsSchema = z.strictObject({
  spawned: count(),
  /** How each Agent call asked to run (`run_in_background` true, false, absent). */
  requested: z.strictObject({ background: count(), foreground: count(), unset: count() }),
  started_in_background: count(),
  max_depth: count(),
  /** Spawned by a subagent rather than the main conversation. */
  spawned_by_subagents: count(),
  completed: count(),
  failed: count(),
  /** Stopped before the end: by the agent that started it, by the user (interrupt), by agentwire. */
  killed: z.strictObject({ parent: count(), user: count(), system: count() }),
  /** Agent calls that started nothing: too deep, too many at once, the budget spent. */
  refused: z.strictObject({ depth_limit: count(), concurrency_limit: count(), budget: count() }),
  by_type: z.record(z.string(), count()),
});

/** The last line of every turn. */
export const ResultEventSchema = z.strictObject({
  type: z.literal("result"),
  subtype: ResultSubtypeSchema,
  is_error: z.boolean(),
  duration_ms: z.number().int().nonnegative(),
  duration_api_ms: z.number().int().nonnegative(),
  num_turns: z.number().int().nonnegative(),
  /** Final assistant text; present when subtype is "success". */
  result: z.string().optional(),
  /** Human-readable reasons; present when subtype is an error. */
  errors: z.array(z.string()).optional(),
  /** `--json-schema` / `outputFormat`: the answer, valid against the schema; present on success. */
  structured_output: z.unknown().optional(),
  session_id: SessionId,
  total_cost_usd: z.number().nonnegative(),
  usage: ResultUsageSchema,
  modelUsage: z.record(z.string(), ModelUsageEntrySchema),
  permission_denials: z.array(PermissionDenialSchema),
  stop_reason: z.string().nullable(),
  terminal_reason: TerminalReasonSchema,
  /** HTTP status of the API failure that ended the turn, when one did. */
  api_error_status: z.number().int().nullable().optional(),
  /** agentwire extension: what kind of API failure ended the turn (see ApiErrorCodeSchema). */
  error_code: ApiErrorCodeSchema.optional(),
  /** agentwire extension: `false` when the session file could not be written (it cannot be resumed); absent otherwise. */
  session_persisted: z.literal(false).optional(),
  subagent_stats: SubagentStatsSchema,
  uuid: Uuid,
});

// ---------------------------------------------------------------------------------------------
// control_response (answers to stdin control_request lines; no session_id/uuid, as Claude Code)

export const ControlResponseEventSchema = z.strictObject({
  type: z.literal("control_response"),
  response: z.discriminatedUnion("subtype", [
    z.strictObject({
      subtype: z.literal("success"),
      request_id: z.string(),
      response: z.record(z.string(), z.unknown()),
    }),
    z.strictObject({
      subtype: z.literal("error"),
      request_id: z.string(),
      error: z.string(),
    }),
  ]),
});

/** Claude Code's progress message for a tool that is still running (emitted about once a second). */
export const ToolProgressEventSchema = z.strictObject({
  type: z.literal("tool_progress"),
  tool_use_id: z.string(),
  tool_name: z.string(),
  parent_tool_use_id: ParentToolUseId,
  elapsed_time_seconds: z.number().nonnegative(),
  /** agentwire extension: what the tool reports, for people (`message`) and machines (`details`). */
  progress: z.strictObject({ message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
  session_id: SessionId,
  uuid: Uuid,
});

/** A question agentwire asks the host (Claude Code control protocol): can_use_tool, hook_callback, mcp_message. */
export const ControlRequestEventSchema = z.strictObject({
  type: z.literal("control_request"),
  request_id: z.string(),
  request: z.looseObject({ subtype: z.string() }),
});

/** agentwire no longer needs the answer to this request (the turn was interrupted). */
export const ControlCancelRequestEventSchema = z.strictObject({
  type: z.literal("control_cancel_request"),
  request_id: z.string(),
});

// ---------------------------------------------------------------------------------------------

export const SystemEventSchema = z.discriminatedUnion("subtype", [
  SystemInitEventSchema,
  ApiRetryEventSchema,
  StatusEventSchema,
  CompactBoundaryEventSchema,
  PermissionDeniedEventSchema,
  PermissionRequestEventSchema,
  SessionStateChangedEventSchema,
  ThinkingTokensEventSchema,
  InputErrorEventSchema,
  WarningEventSchema,
  BackgroundTasksChangedEventSchema,
  TaskStartedEventSchema,
  TaskProgressEventSchema,
  TaskUpdatedEventSchema,
  TaskNotificationEventSchema,
]);

/** Any stdout line. */
export const OutputEventSchema = z.union([
  SystemEventSchema,
  AssistantEventSchema,
  UserEventSchema,
  StreamEventSchema,
  ResultEventSchema,
  ControlResponseEventSchema,
  ControlRequestEventSchema,
  ControlCancelRequestEventSchema,
  ToolProgressEventSchema,
]);

export type SystemInitEvent = z.infer<typeof SystemInitEventSchema>;
export type ApiRetryEvent = z.infer<typeof ApiRetryEventSchema>;
export type StatusEvent = z.infer<typeof StatusEventSchema>;
export type ThinkingTokensEvent = z.infer<typeof ThinkingTokensEventSchema>;
export type InputErrorEvent = z.infer<typeof InputErrorEventSchema>;
export type WarningEvent = z.infer<typeof WarningEventSchema>;
export type AssistantEvent = z.infer<typeof AssistantEventSchema>;
export type UserEvent = z.infer<typeof UserEventSchema>;
export type StreamEvent = z.infer<typeof StreamEventSchema>;
export type ResultEvent = z.infer<typeof ResultEventSchema>;
export type SubagentStats = z.infer<typeof SubagentStatsSchema>;
export type ApiErrorCode = z.infer<typeof ApiErrorCodeSchema>;
export type ResultUsage = z.infer<typeof ResultUsageSchema>;
export type ModelUsageEntry = z.infer<typeof ModelUsageEntrySchema>;
export type TerminalReason = z.infer<typeof TerminalReasonSchema>;
export type ResultSubtype = z.infer<typeof ResultSubtypeSchema>;
export type ControlResponseEvent = z.infer<typeof ControlResponseEventSchema>;
export type ControlRequestEvent = z.infer<typeof ControlRequestEventSchema>;
export type PermissionDeniedEvent = z.infer<typeof PermissionDeniedEventSchema>;
export type MessageUsage = z.infer<typeof MessageUsageSchema>;
export type OutputEvent = z.infer<typeof OutputEventSchema>;
