import * as z from "zod";

/**
 * The parts of stream-json events the renderer reads, as loose schemas: it renders agentwire's
 * events and the real Claude Code's (which carry many more fields), so it checks only what it
 * uses and ignores the rest. An event that does not fit is shown as an unknown line.
 */
const TextBlock = z.looseObject({ type: z.literal("text"), text: z.string() });
const ThinkingBlock = z.looseObject({ type: z.literal("thinking"), thinking: z.string() });
const ToolUseBlock = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});
const ToolResultBlock = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).optional(),
  is_error: z.boolean().optional(),
});
const OtherBlock = z.looseObject({ type: z.string() });

export const AssistantShape = z.looseObject({
  type: z.literal("assistant"),
  message: z.looseObject({ content: z.array(z.union([TextBlock, ThinkingBlock, ToolUseBlock, OtherBlock])) }),
  error: z.string().optional(),
  parent_tool_use_id: z.string().nullable().optional(),
});

export const UserShape = z.looseObject({
  type: z.literal("user"),
  message: z.looseObject({ content: z.union([z.string(), z.array(z.union([TextBlock, ToolResultBlock, OtherBlock]))]) }),
  tool_use_result: z.unknown().optional(),
  isSynthetic: z.boolean().optional(),
  parent_tool_use_id: z.string().nullable().optional(),
});

export const ResultShape = z.looseObject({
  type: z.literal("result"),
  subtype: z.string(),
  is_error: z.boolean().optional(),
  duration_ms: z.number().optional(),
  num_turns: z.number().optional(),
  result: z.string().optional(),
  errors: z.array(z.string()).optional(),
  total_cost_usd: z.number().optional(),
  usage: z
    .looseObject({
      input_tokens: z.number().optional(),
      output_tokens: z.number().optional(),
      cache_read_input_tokens: z.number().optional(),
      cache_creation_input_tokens: z.number().optional(),
    })
    .optional(),
  permission_denials: z
    .array(z.looseObject({ tool_name: z.string(), tool_input: z.record(z.string(), z.unknown()).optional() }))
    .optional(),
  terminal_reason: z.string().optional(),
  structured_output: z.unknown().optional(),
});

export const SystemShape = z.looseObject({
  type: z.literal("system"),
  subtype: z.string(),
  model: z.string().optional(),
  cwd: z.string().optional(),
  session_id: z.string().optional(),
  permissionMode: z.string().optional(),
  provider: z.string().optional(),
  message: z.string().optional(),
  attempt: z.number().optional(),
  max_retries: z.number().optional(),
  retry_delay_ms: z.number().optional(),
  error_status: z.number().nullable().optional(),
  // A string on api_retry; {code, message} on input_error.
  error: z.union([z.string(), z.looseObject({ code: z.string().optional(), message: z.string() })]).optional(),
  status: z.string().nullable().optional(),
  tool_name: z.string().optional(),
  tool_use_id: z.string().optional(),
  compact_metadata: z
    .looseObject({
      trigger: z.string().optional(),
      pre_tokens: z.number().optional(),
      post_tokens: z.number().optional(),
      duration_ms: z.number().optional(),
    })
    .optional(),
});

/** Claude Code's `system/task_*` lines: a subagent or a background shell starting, progressing, ending. */
export const TaskEventShape = z.looseObject({
  type: z.literal("system"),
  subtype: z.enum(["task_started", "task_progress", "task_notification"]),
  task_id: z.string(),
  tool_use_id: z.string().optional(),
  description: z.string().optional(),
  task_type: z.string().optional(),
  is_backgrounded: z.boolean().optional(),
  status: z.string().optional(),
  summary: z.string().optional(),
  usage: z
    .looseObject({ total_tokens: z.number().optional(), tool_uses: z.number().optional(), duration_ms: z.number().optional() })
    .optional(),
});

export const PermissionRequestShape = z.looseObject({
  type: z.literal("control_request"),
  request: z.looseObject({
    subtype: z.literal("can_use_tool"),
    tool_name: z.string(),
    input: z.record(z.string(), z.unknown()),
    decision_reason: z.string().optional(),
  }),
});

export type ToolUse = z.infer<typeof ToolUseBlock>;
export type TaskEvent = z.infer<typeof TaskEventShape>;
export type ToolResult = z.infer<typeof ToolResultBlock>;
