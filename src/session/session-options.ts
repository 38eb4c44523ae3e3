import * as z from "zod/mini";
import "../validation/english-issues.js";
import { PERMISSION_MODES } from "../../protocol/permission-mode.js";
import type { PermissionResult, PermissionUpdate } from "../../protocol/control.js";
import type { OutputEvent, TerminalReason } from "../../protocol/events.js";
import { McpServerNameSchema, McpServersSchema } from "../mcp/mcp-config.js";
import { PROVIDER_IDS } from "../providers/registry.js";
import type { Provider } from "../providers/types.js";
import type { ToolDefinition } from "../tools/define-tool.js";
import { SANDBOX_MODES } from "../tools/sandbox/sandbox-settings.js";
import type { SessionHooks } from "./hook-runners.js";
import { SETTING_SOURCES } from "../settings/settings-files.js";
import type { FileSettings } from "../settings/effective-settings.js";

/** A session id; never a path (it becomes a file name under the sessions folder). */
export const SessionIdSchema = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/, "must be a session id (letters, digits, '-', '_', '.'), not a path"));

/**
 * The data that configures a session: what the CLI's flags and the library's `options` both
 * come down to. Validated when a session is created.
 */
/**
 * Long enough for a slow first token (a big prompt, a reasoning model thinking before it streams),
 * short enough that a stalled stream is noticed in minutes, not at the HTTP client's 5-10 min.
 */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 120_000;

/** Retries of a failed model request when neither the caller nor AGENTWIRE_MAX_RETRIES says. */
export const DEFAULT_MAX_RETRIES = 10;

/** Model requests per user turn when `--max-turns` is not given: a looping model stops here. */
export const DEFAULT_MAX_TURNS = 200;

export { SETTING_SOURCES, type SettingSource } from "../settings/settings-files.js";

const nonEmpty = () => z.string().check(z.minLength(1));
const positiveInt = () => z.int().check(z.positive());
const flag = (fallback: boolean) => z._default(z.boolean(), fallback);

export const SessionSettingsSchema = z.object({
  /** Working directory for tools and sessions (absolute, or relative to the caller's cwd). */
  cwd: nonEmpty(),
  /** More directories tools may use (`--add-dir`). */
  addDirs: z._default(z.array(nonEmpty()), []),
  provider: z.enum(PROVIDER_IDS),
  model: nonEmpty(),
  /** The model API's endpoint, overriding the provider's default and its *_BASE_URL variable. */
  baseUrl: z.optional(z.url({ protocol: /^https?$/ })),
  /** Chat Completions or Responses for OpenAI-family providers (default: per model). */
  openaiApi: z.optional(z.enum(["chat", "responses"])),
  /** The model's context window in tokens, for models agentwire does not know (local ones). */
  contextWindow: z.optional(positiveInt()),
  /** Most model requests per user turn (default DEFAULT_MAX_TURNS). */
  maxTurns: z.optional(positiveInt()),
  /** Stop when this process's requests have cost this much (`--max-budget-usd`). */
  maxBudgetUsd: z.optional(z.number().check(z.positive())),
  maxThinkingTokens: z.optional(positiveInt()),
  /** Retries of a failed model request (rate limits, overload, dropped connections). */
  maxRetries: z._default(z.int().check(z.nonnegative()), DEFAULT_MAX_RETRIES),
  /** Longest silence of a model stream before the attempt is abandoned and retried (AGENTWIRE_STREAM_IDLE_TIMEOUT_MS). */
  streamIdleTimeoutMs: z._default(positiveInt(), DEFAULT_STREAM_IDLE_TIMEOUT_MS),
  includePartialMessages: flag(false),
  /** Replaces the default system prompt. */
  systemPrompt: z.optional(z.string()),
  /** Appended to the system prompt (default or replaced). */
  appendSystemPrompt: z.optional(z.string()),
  permissionMode: z._default(z.enum(PERMISSION_MODES), "default"),
  /** Claude Code permission rules: calls allowed without asking / always refused. */
  allowedTools: z._default(z.array(z.string()), []),
  disallowedTools: z._default(z.array(z.string()), []),
  /** The built-in tools to offer: undefined = the default set, `[]` = none. */
  tools: z.optional(z.array(z.string())),
  /** Resume this session. */
  resume: z.optional(SessionIdSchema),
  /** Continue the most recent session of the working directory. */
  continue: flag(false),
  /** With `resume`/`continue`: go on in a new session that starts as a copy; the old one stays as it was. */
  forkSession: flag(false),
  /** The id of a new session (fails if it exists). */
  sessionId: z.optional(z.uuid()),
  /** Write the session to disk, so it can be resumed. */
  persistSession: flag(true),
  /** Add AGENTS.md / CLAUDE.md memory files to the system prompt (`--no-memory-files` turns it off). */
  memoryFiles: flag(true),
  /** Compact the conversation when it nears the context window or overflows it (`--no-auto-compact`). */
  autoCompact: flag(true),
  /** Compact at this share of the context window instead of the default threshold (AGENTWIRE_AUTOCOMPACT_PCT). */
  autoCompactPercent: z.optional(z.number().check(z.gte(1), z.lte(100))),
  /** Discover SKILL.md skills (`--no-skills` turns it off). */
  skills: flag(true),
  /** More folders of skills (`--skills-dir`), after the project's and before the user's. */
  skillsDirs: z._default(z.array(nonEmpty()), []),
  /** `llm`: the session's model re-ranks the 20 best BM25 matches when the listing does not fit. */
  skillRanking: z._default(z.enum(["bm25", "llm"]), "bm25"),
  /** Room for the skill listing, in characters (default: 1 % of the model's context window × 4). */
  skillListingBudget: z.optional(positiveInt()),
  /**
   * Agent definitions by name, as the Agent SDK's `agents` option gives them (`{description,
   * prompt, tools?, model?, …}`): over every other definition of the same name. Checked as the
   * session is set up (src/agents/agent-definition.ts), not here: a name like `__proto__` must
   * reach that check rather than vanish in a record schema.
   */
  agents: z.optional(z.unknown()),
  /** `--agents`: the same shape from the command line; under the SDK's, over the files'. */
  cliAgents: z.optional(z.unknown()),
  /** `compact`: Bash, Read, Write and Skill, short and thin, for small models. */
  toolProfile: z._default(z.enum(["default", "compact"]), "default"),
  /** MCP servers in Claude Code's format (stdio commands, http/sse URLs); their tools are `mcp__<server>__<tool>`. */
  mcpServers: z._default(McpServersSchema, {}),
  /**
   * Servers of the project's `.mcp.json` that were not started because the project is not
   * trusted: listed in `system/init` with the status `needs-trust`, and named in one warning.
   */
  untrustedProjectMcpServers: z._default(z.array(McpServerNameSchema), []),
  /**
   * Trust what the project brings (its skills' `allowed-tools`; for the CLI also its `.mcp.json`)
   * for this session only, without `agentwire trust` (`--trust-project`): for CI checkouts.
   */
  trustProject: flag(false),
  /**
   * Which settings are read, as Claude Code's `--setting-sources`: without `project`, nothing the
   * project brings takes effect (its skills still load as instructions). Undefined: all.
   */
  settingSources: z.optional(z.array(z.enum(SETTING_SOURCES))),
  /** Run Bash commands under bubblewrap (`--sandbox`): writes only in the workspace, or nowhere. */
  sandbox: z._default(z.enum(SANDBOX_MODES), "off"),
  /** More paths sandboxed commands may write (`--sandbox-allow-write`; relative to `cwd`). */
  sandboxAllowWrite: z._default(z.array(nonEmpty()), []),
  /** Let sandboxed commands use the network (`--sandbox-network`). */
  sandboxNetwork: flag(false),
  /**
   * Credential variables handed to child processes on purpose (`--pass-env`): every other name
   * that reads like a key, token or password is removed from the environment of Bash commands
   * and MCP servers (src/process/child-environment.ts).
   */
  passEnv: z._default(
    z.array(
      z
        .string()
        .check(
          z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name (letters, digits and _, not starting with a digit)"),
        ),
    ),
    [],
  ),
});

export type SessionSettings = z.input<typeof SessionSettingsSchema>;
/** The settings once validated, defaults filled in. */
export type CheckedSessionSettings = z.output<typeof SessionSettingsSchema>;

/** A permission question for whoever can answer it (a host, a person, a library callback). */
export interface ApprovalRequest {
  toolName: string;
  toolUseId: string;
  input: Record<string, unknown>;
  /** A one-line description of the call: its command, path or pattern. */
  description: string;
  /** Why someone must decide: from the permission policy or the risk sentinel. */
  reason: string;
  reasonType: "rule" | "mode" | "workingDir" | "risk";
  /** Updates an "always allow" answer could carry back. */
  suggestions: PermissionUpdate[];
  /** Set when a subagent makes the call: its task id. */
  agentId?: string;
}

/**
 * Answers a permission question. `allow` may replace the input; `deny` may interrupt the turn;
 * either may carry `updatedPermissions` that apply for the rest of the session.
 * Contract: resolves promptly when `signal` aborts; a rejection counts as a denial.
 */
export type ToolApprover = (request: ApprovalRequest, signal: AbortSignal) => Promise<PermissionResult>;

/** The part of a logger the session core uses (pino's Logger satisfies it). */
export interface SessionLogger {
  /** Whether lines of this level are written (lets callers skip costly diagnostics). */
  isLevelEnabled?(level: string): boolean;
  debug(object: unknown, message?: string): void;
  info(object: unknown, message?: string): void;
  warn(object: unknown, message?: string): void;
  error(object: unknown, message?: string): void;
}

export interface SessionOptions extends SessionSettings {
  /** Receives every protocol event of the session, in order. Contract: must not throw. */
  onEvent: (event: OutputEvent) => void;
  /** Credentials and endpoints (`ANTHROPIC_API_KEY`, `OPENAI_BASE_URL`, …); never read from the process. */
  env: Readonly<Record<string, string | undefined>>;
  /** Where sessions are kept. Default: `AGENTWIRE_HOME` from `env`, else ~/.agentwire. */
  home?: string;
  /** Who answers permission questions; undefined: nobody, so questions are denied at once. */
  approve?: ToolApprover;
  /** Hooks the host registered. */
  hooks?: SessionHooks;
  /**
   * What the settings files bring that no flag carries (src/settings/load-settings.ts): `ask`
   * rules, `env`, shell-command hooks, the problems found and what an untrusted project was
   * denied. The caller has already put the settings' model, mode, allow and deny rules and
   * directories under its flags (`flagsOverSettings`).
   */
  fileSettings?: FileSettings;
  /** Replaces the built-in tool set (after `tools` / `disallowedTools` selection of the built-ins). */
  toolDefinitions?: ToolDefinition[];
  /** A ready provider instead of one built from `provider`/`model`/`baseUrl`/`env` (tests, embedders). */
  providerInstance?: Provider;
  /**
   * Directory for tool output files (Bash's full output). Default: a private folder in the OS
   * temp directory, removed by `close()`. A caller that passes one removes it itself.
   */
  toolOutputDirectory?: string;
  logger?: SessionLogger;
  /**
   * What the caller did or learned while starting (the bundled skills installed, flags without
   * effect): `system/warning` lines at the start of the first turn, where a host reads them,
   * rather than text on stderr, which hosts show as an error.
   */
  notices?: Array<{ code: string; message: string }>;
}

/** A session that cannot be set up (bad settings, unknown session, missing directory). */
export class SessionSetupError extends Error {
  constructor(
    message: string,
    readonly terminalReason: Extract<TerminalReason, "invalid_arguments" | "session_not_found" | "session_unreadable">,
  ) {
    super(message);
  }
}
