import * as z from "zod";
import { PermissionModeSchema, type SimpleUserCommandSchema, type UserMessageCommandSchema } from "../../protocol/commands.js";
import type { PermissionResultSchema, PermissionUpdate } from "../../protocol/control.js";
import type { SessionHooks } from "../session/hook-runners.js";
import { SessionSettingsSchema, SETTING_SOURCES, type SessionLogger } from "../session/session-options.js";

/**
 * Decides a permission question the session's rules leave open, as the Claude Agent SDK's
 * `canUseTool` does: allow (optionally with a replaced input) or deny (optionally interrupting
 * the turn); either may carry `updatedPermissions` ("always allow") for the rest of the session.
 */
export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: {
    signal: AbortSignal;
    suggestions: PermissionUpdate[];
    toolUseID: string;
    decisionReason: string;
    /** agentwire's: the call in one line (its command, path or pattern), and what made it need asking. */
    description: string;
    decisionReasonType: "rule" | "mode" | "workingDir" | "risk";
  },
) => Promise<z.input<typeof PermissionResultSchema>>;

/** A user message of a streamed prompt: the Agent SDK's SDKUserMessage shape, or a plain string. */
export type QueryUserMessage = string | z.input<typeof UserMessageCommandSchema> | z.input<typeof SimpleUserCommandSchema>;

/** The data options, validated at the boundary; unknown keys (other Agent SDK options) are ignored. */
const QueryDataOptionsShape = {
  cwd: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  provider: z.optional(SessionSettingsSchema.shape.provider),
  baseUrl: SessionSettingsSchema.shape.baseUrl,
  openaiApi: SessionSettingsSchema.shape.openaiApi,
  contextWindow: SessionSettingsSchema.shape.contextWindow,
  /** A string replaces the default prompt; the SDK's `{type: "preset", append}` keeps it and appends. */
  systemPrompt: z
    .union([z.string(), z.looseObject({ type: z.literal("preset"), preset: z.string().optional(), append: z.string().optional() })])
    .optional(),
  appendSystemPrompt: z.string().optional(),
  maxTurns: SessionSettingsSchema.shape.maxTurns,
  maxThinkingTokens: SessionSettingsSchema.shape.maxThinkingTokens,
  maxRetries: z.number().int().nonnegative().optional(),
  streamIdleTimeoutMs: z.number().int().positive().optional(),
  permissionMode: z.optional(PermissionModeSchema),
  allowedTools: z.array(z.string()).optional(),
  disallowedTools: z.array(z.string()).optional(),
  tools: z.array(z.string()).optional(),
  additionalDirectories: z.array(z.string().min(1)).optional(),
  resume: SessionSettingsSchema.shape.resume,
  continue: z.boolean().optional(),
  /** With `resume`/`continue`: continue in a new session that starts as a copy. */
  forkSession: z.boolean().optional(),
  sessionId: SessionSettingsSchema.shape.sessionId,
  persistSession: z.boolean().optional(),
  includePartialMessages: z.boolean().optional(),
  /**
   * agentwire's Bash sandbox (the CLI's --sandbox flags): a mode string, not the Agent SDK's
   * `sandbox` object, which is refused rather than ignored, so commands never run unconfined by mistake.
   */
  sandbox: z.optional(SessionSettingsSchema.shape.sandbox),
  sandboxAllowWrite: z.array(z.string().min(1)).optional(),
  sandboxNetwork: z.boolean().optional(),
  /** Credential variables (keys, tokens, passwords) handed to Bash commands and MCP servers, which otherwise never see one (the CLI's --pass-env). */
  passEnv: z.optional(SessionSettingsSchema.shape.passEnv),
  /** The answer's JSON Schema: the result carries it as `structured_output` (the Agent SDK's option). */
  outputFormat: z.looseObject({ type: z.literal("json_schema"), schema: z.record(z.string(), z.unknown()) }).optional(),
  /** MCP servers to start (stdio) or reach (http, sse), in the Agent SDK's format; in-process (`sdk`) servers are not supported here. */
  mcpServers: z.optional(SessionSettingsSchema.shape.mcpServers),
  /**
   * Trust what the project brings (its skills' `allowed-tools`) for this query only, as the CLI's
   * --trust-project; default: only what `agentwire trust` recorded. The library never reads a
   * project's `.mcp.json`: its servers are the ones passed in `mcpServers`.
   */
  trustProject: z.boolean().optional(),
  /**
   * The Agent SDK's setting sources: which of the settings files (~/.claude/settings.json and
   * $AGENTWIRE_HOME/settings.json for `user`, .claude/settings.json, .claude/settings.local.json)
   * are read; default all, `[]` none. Without `project`, nothing the project brings takes effect.
   */
  settingSources: z.array(z.enum(SETTING_SOURCES)).optional(),
  /** The Agent SDK's `settings`: more settings over the files, as a settings.json path, its JSON text, or the object (the CLI's --settings). */
  settings: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  env: z.record(z.string(), z.string().optional()).optional(),
  /**
   * The Agent SDK's `agents`: subagent definitions by name (`{description, prompt, tools?, model?,
   * …}`), over the built-in ones and the files' of the same name. Checked when the session is set
   * up (a bad one refuses the query with `invalid_arguments`).
   */
  agents: z.record(z.string(), z.unknown()).optional(),
};
export const QueryDataOptionsSchema = z.looseObject(QueryDataOptionsShape);

// From the plain object: a loose object's index signature would erase every named key under Omit.
export interface QueryOptions extends Omit<z.input<z.ZodObject<typeof QueryDataOptionsShape>>, "env"> {
  /** Credentials and endpoints (`ANTHROPIC_API_KEY`, `OPENAI_BASE_URL`, …). Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Aborting interrupts the running turn (it still ends with its `result`) and ends the query. */
  abortSignal?: AbortSignal;
  /** The Agent SDK's spelling of `abortSignal`. */
  abortController?: AbortController;
  /** Answers permission questions; without it they are denied at once (nobody to ask). */
  canUseTool?: CanUseTool;
  /** Hooks of Claude Code's events (PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart, …) as plain functions; they run beside the settings files' hooks. */
  hooks?: SessionHooks;
  /** Where agentwire's diagnostics go (pino-compatible); default: nowhere. Never stdout. */
  logger?: SessionLogger;
}
