import * as z from "zod";
import { absentOrNull } from "./absent-or-null.js";
import { PermissionModeSchema } from "./commands.js";
import { HOOK_EVENT_NAMES } from "./hook-events.js";

/**
 * The payloads of Claude Code's control protocol, both ways: what a host may put in
 * `control_request.request` (initialize, set_model, …) and what agentwire answers, and the
 * requests agentwire sends the host (can_use_tool, hook_callback, mcp_message) with the answers
 * it accepts. Shapes follow the Claude Agent SDK 0.3.330 (shared/reference/agent-sdk/CONTRACT.md
 * §3–4). What a host sends is read as Claude Code reads it: unknown fields are ignored, and an
 * optional field may also be `null` (the Python Agent SDK's `None`), which means absent. What
 * agentwire sends is exact.
 */

// ---------------------------------------------------------------------------------------------
// Hooks

/** The hook events agentwire raises (protocol/hook-events.ts). */
export const HookEventNameSchema = z.enum(HOOK_EVENT_NAMES);

/**
 * `initialize.hooks`: event name → matchers, each with the host's callback ids. A matcher without
 * a pattern (absent or `null`: the Python SDK's `HookMatcher(hooks=[…])`) matches every tool.
 */
export const HookRegistrationsSchema = z.record(
  z.string(),
  absentOrNull(
    z.array(
      z.looseObject({
        matcher: absentOrNull(z.string()),
        hookCallbackIds: z.array(z.string()),
        /** Seconds. */
        timeout: absentOrNull(z.number().positive()),
      }),
    ),
  ),
);

/** What a hook callback may answer (Claude Code's HookJSONOutput; unknown fields ignored). */
export const HookOutputSchema = z.looseObject({
  continue: absentOrNull(z.boolean()),
  stopReason: absentOrNull(z.string()),
  decision: absentOrNull(z.enum(["approve", "block"])),
  reason: absentOrNull(z.string()),
  systemMessage: absentOrNull(z.string()),
  hookSpecificOutput: absentOrNull(
    z.looseObject({
      hookEventName: absentOrNull(z.string()),
      // "defer" leaves the decision to the permission system, like no answer.
      permissionDecision: absentOrNull(z.enum(["allow", "deny", "ask", "defer"])),
      permissionDecisionReason: absentOrNull(z.string()),
      updatedInput: absentOrNull(z.record(z.string(), z.unknown())),
      additionalContext: absentOrNull(z.string()),
    }),
  ),
});

// ---------------------------------------------------------------------------------------------
// Permissions

/**
 * Claude Code's PermissionUpdate: what agentwire suggests with `can_use_tool`, and what a host
 * sends back with an answer ("always allow"). Updates for other destinations (user/project
 * settings files) apply to this session too. `rule` is the rule's schema: exact in what
 * agentwire sends, tolerant in what it reads.
 */
function permissionUpdateSchema<Rule extends z.ZodType<{ toolName: string; ruleContent?: string | undefined }>>(rule: Rule) {
  return z.discriminatedUnion("type", [
    z.looseObject({
      type: z.enum(["addRules", "replaceRules", "removeRules"]),
      rules: z.array(rule),
      behavior: z.enum(["allow", "deny", "ask"]),
    }),
    z.looseObject({ type: z.literal("setMode"), mode: PermissionModeSchema }),
    z.looseObject({ type: z.enum(["addDirectories", "removeDirectories"]), directories: z.array(z.string()) }),
  ]);
}

export const PermissionUpdateSchema = permissionUpdateSchema(
  z.looseObject({ toolName: z.string().min(1), ruleContent: z.string().optional() }),
);

/** As a host sends it: the Python SDK writes a rule without content as `"ruleContent": null`. */
const HostPermissionUpdateSchema = permissionUpdateSchema(
  z.looseObject({ toolName: z.string().min(1), ruleContent: absentOrNull(z.string()) }),
);

/** The Agent SDK's PermissionResult: the answer to `can_use_tool` (and what `canUseTool` returns). */
export const PermissionResultSchema = z.discriminatedUnion("behavior", [
  z.looseObject({
    behavior: z.literal("allow"),
    /** Absent: the call runs with its own input. */
    updatedInput: absentOrNull(z.record(z.string(), z.unknown())),
    updatedPermissions: absentOrNull(z.array(HostPermissionUpdateSchema)),
  }),
  z.looseObject({
    behavior: z.literal("deny"),
    message: z
      .string()
      .nullish()
      .transform((message) => message ?? "Denied by the host."),
    interrupt: absentOrNull(z.boolean()),
    updatedPermissions: absentOrNull(z.array(HostPermissionUpdateSchema)),
  }),
]);

// ---------------------------------------------------------------------------------------------
// Host → agentwire: control_request.request payloads

export const InitializeRequestSchema = z.looseObject({
  subtype: z.literal("initialize"),
  /** The Python SDK sends `null` when no hook is registered. */
  hooks: absentOrNull(HookRegistrationsSchema),
  /** Names of the host's in-process MCP servers (the TypeScript SDK's createSdkMcpServer). */
  sdkMcpServers: absentOrNull(z.array(z.string())),
  /** The MCP handshake the SDK ran for us: `{name: {initializeResult, toolsListResult?}}`. */
  sdkMcpServerManifests: absentOrNull(z.record(z.string(), z.unknown())),
  /** The SDK's `outputFormat: {type: "json_schema", schema}`: the answer's JSON Schema. */
  jsonSchema: absentOrNull(z.record(z.string(), z.unknown())),
  /**
   * The SDK's `agents`: `{name: {description, prompt, tools?, disallowedTools?, model?, …}}`
   * (its AgentDefinition). Checked by the session (src/agents/agent-definition.ts), which also
   * refuses names a record schema would silently drop (`__proto__`).
   */
  agents: absentOrNull(z.unknown()),
});

export const InterruptRequestSchema = z.looseObject({ subtype: z.literal("interrupt") });

/** `mode` is required: Claude Code answers an absent or `null` one with an error. */
export const SetPermissionModeRequestSchema = z.looseObject({ subtype: z.literal("set_permission_mode"), mode: PermissionModeSchema });

/** `model` absent, `null` (the Python SDK's `set_model()`) or `"default"`: back to the session's first model. */
export const SetModelRequestSchema = z.looseObject({ subtype: z.literal("set_model"), model: absentOrNull(z.string().min(1)) });

/**
 * A number sets the budget (0 turns extended thinking off); `null` returns to the budget the
 * session started with; absent leaves it as it is (a request that only changes
 * `thinking_display`, which agentwire does not have). `null` is not "absent" here, as in Claude Code.
 */
export const SetMaxThinkingTokensRequestSchema = z.looseObject({
  subtype: z.literal("set_max_thinking_tokens"),
  max_thinking_tokens: z.number().nonnegative().nullable().optional(),
});

export const McpStatusRequestSchema = z.looseObject({ subtype: z.literal("mcp_status") });

// ---------------------------------------------------------------------------------------------
// agentwire → host: control_request.request payloads

export const CanUseToolRequestSchema = z.strictObject({
  subtype: z.literal("can_use_tool"),
  tool_name: z.string(),
  display_name: z.string(),
  input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string(),
  /** A one-line description of the call (its command, path or pattern). */
  description: z.string(),
  decision_reason: z.string(),
  decision_reason_type: z.enum(["rule", "mode", "workingDir", "risk"]),
  permission_suggestions: z.array(PermissionUpdateSchema),
  /** Set when the call is a subagent's: its task id (`system/task_started`'s `task_id`). */
  agent_id: z.string().optional(),
});

export const HookCallbackRequestSchema = z.strictObject({
  subtype: z.literal("hook_callback"),
  callback_id: z.string(),
  input: z.looseObject({ hook_event_name: HookEventNameSchema }),
  tool_use_id: z.string().optional(),
});

/**
 * A JSON-RPC message for one of the host's in-process MCP servers: a request (with `id`), or the
 * `notifications/initialized` notification of the handshake (without).
 */
export const McpMessageRequestSchema = z.strictObject({
  subtype: z.literal("mcp_message"),
  server_name: z.string(),
  message: z.strictObject({
    jsonrpc: z.literal("2.0"),
    id: z.number().int().optional(),
    method: z.string(),
    params: z.record(z.string(), z.unknown()).optional(),
  }),
});

// ---------------------------------------------------------------------------------------------
// Answers (control_response.response.response)

export const InitializeResponseSchema = z.strictObject({
  commands: z.array(z.strictObject({ name: z.string(), description: z.string(), argumentHint: z.string() })),
  models: z.array(z.strictObject({ value: z.string(), displayName: z.string(), description: z.string() })),
  /** Claude Code's AgentInfo: every agent type, sorted by name; `model` when the definition names one. */
  agents: z.array(z.strictObject({ name: z.string(), description: z.string(), model: z.string().optional() })),
  account: z.record(z.string(), z.unknown()),
  output_style: z.string(),
  available_output_styles: z.array(z.string()),
  pid: z.number().int(),
  agentwire_version: z.string(),
  current_permission_mode: PermissionModeSchema,
  hooks_applied: z.literal(true).optional(),
});

export const InterruptResponseSchema = z.strictObject({ still_queued: z.array(z.string()) });
export const SetPermissionModeResponseSchema = z.strictObject({ mode: PermissionModeSchema });
export const SetModelResponseSchema = z.strictObject({ model: z.string() });
export const SetMaxThinkingTokensResponseSchema = z.strictObject({});
export const McpStatusResponseSchema = z.strictObject({
  mcpServers: z.array(
    z.strictObject({
      name: z.string(),
      status: z.string(),
      error: z.string().optional(),
      serverInfo: z.strictObject({ name: z.string(), version: z.string() }).optional(),
    }),
  ),
});

/** The host's answer to `mcp_message`: the JSON-RPC response of its server. */
export const McpMessageResponseSchema = z.looseObject({
  mcp_response: z.looseObject({ result: absentOrNull(z.unknown()), error: absentOrNull(z.looseObject({ message: z.string() })) }),
});

export type HookEventName = z.infer<typeof HookEventNameSchema>;
export type HookRegistrations = z.infer<typeof HookRegistrationsSchema>;
export type HookOutput = z.infer<typeof HookOutputSchema>;
export type PermissionUpdate = z.infer<typeof PermissionUpdateSchema>;
export type PermissionResult = z.infer<typeof PermissionResultSchema>;
export type CanUseToolRequest = z.infer<typeof CanUseToolRequestSchema>;
export type InitializeResponse = z.infer<typeof InitializeResponseSchema>;

/** Every payload above by name, for protocol/schema.json. */
export const CONTROL_PAYLOAD_SCHEMAS = {
  requests: {
    initialize: InitializeRequestSchema,
    interrupt: InterruptRequestSchema,
    set_permission_mode: SetPermissionModeRequestSchema,
    set_model: SetModelRequestSchema,
    set_max_thinking_tokens: SetMaxThinkingTokensRequestSchema,
    mcp_status: McpStatusRequestSchema,
    can_use_tool: CanUseToolRequestSchema,
    hook_callback: HookCallbackRequestSchema,
    mcp_message: McpMessageRequestSchema,
  },
  responses: {
    initialize: InitializeResponseSchema,
    interrupt: InterruptResponseSchema,
    set_permission_mode: SetPermissionModeResponseSchema,
    set_model: SetModelResponseSchema,
    set_max_thinking_tokens: SetMaxThinkingTokensResponseSchema,
    mcp_status: McpStatusResponseSchema,
    can_use_tool: PermissionResultSchema,
    hook_callback: HookOutputSchema,
    mcp_message: McpMessageResponseSchema,
  },
} as const;
