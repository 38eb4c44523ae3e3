import type * as z from "zod/v4/core";
import type { ToolErrorCode, ToolResult } from "../conversation/tool-result.js";
import type { ToolTraits } from "../conversation/tool-traits.js";
import type { ReadOnlyConfinement } from "./sandbox/confinement.js";
import type { SandboxSettings } from "./sandbox/sandbox-settings.js";
import type { SessionState } from "./session-state.js";
import type { BackgroundTasks } from "./background/task-registry.js";

export interface ToolContext {
  /** Absolute session working directory; relative paths resolve against it. */
  cwd: string;
  /** Aborted on interrupt; a tool must stop promptly and kill any child processes. */
  signal: AbortSignal;
  /**
   * Optional progress reports for long-running tools (Bash calls it about once a second); they
   * reach stdout as `tool_progress` lines.
   */
  onProgress?: (progress: ToolProgress) => void;
  /** Per-session state a tool may keep between calls (e.g. Bash's working directory), by typed slot. */
  sessionState: SessionState;
  /** Where file paths may point (see `resolveWorkspacePath` in paths.ts). */
  workspace: WorkspacePolicy;
  /**
   * Private per-process directory for tool output files (Bash's full output). Created on first
   * use; always readable by Read, even though it is outside the workspace roots.
   */
  outputDirectory: string;
  /** Whether the provider accepts images inside tool results (Read returns images as images). */
  imageInput: boolean;
  /**
   * Credential variables the user passes to the processes a tool starts (`--pass-env`); every
   * other credential is removed from their environment (src/process/child-environment.ts).
   */
  passEnv?: readonly string[];
  /**
   * Variables the settings files set (`env`): the processes a tool starts get them on top of
   * agentwire's environment, and then lose their credentials like every other variable.
   */
  settingsEnv?: Readonly<Record<string, string>>;
  /** The session's sandbox: when set, Bash runs commands under bubblewrap with these settings. */
  sandbox?: SandboxSettings;
  /**
   * Set only for a call that runs because its command was judged read-only, and nothing else
   * approved it: Bash then runs the command confined (and with git hardened) instead.
   */
  confinement?: ReadOnlyConfinement;
  /**
   * A model request beside the conversation, without tools (WebFetch reads a page with it): on
   * the session's small fast model when one is set, else its model, its usage counted by the
   * session in `modelUsage` and the cost. Absent: no such request can be made here.
   */
  sideRequest?: (request: SideRequest, signal: AbortSignal) => Promise<{ text: string }>;
  /**
   * Whether an allow rule of the calling tool names this host (`WebFetch(domain:127.0.0.1)`): the
   * one way a fetch reaches a private address or a host name without a dot. Absent: none does.
   */
  ruleNamesHost?: (host: string) => boolean;
  /** The id of the call being run (a background task names the call that started it). */
  toolUseId?: string;
  /** The session's background tasks: where Bash `run_in_background`, Monitor and TaskStop register and find them. */
  backgroundTasks?: BackgroundTasks;
  /** Diagnostics for stderr (e.g. how many secrets were redacted); never the model's text. */
  log?: ToolLog;
  /**
   * WebSearch's way to the web: the session chooses the search service for its provider and
   * counts what the search costs. Absent outside a session.
   */
  webSearch?: WebSearchCapability;
}

/** A search as WebSearch asks for it; at most one of the domain lists is set. */
export interface WebSearchQuery {
  query: string;
  allowedDomains?: readonly string[];
  blockedDomains?: readonly string[];
}

/** The searches run (each with the links it found) and the answer's text, in the order they came. */
export interface WebSearchAnswer {
  results: Array<{ toolUseId: string; links: Array<{ title: string; url: string }> } | string>;
  searchCount: number;
}

/**
 * Runs one web search. Rejects with a WebSearchUnavailable when no search service can be used
 * (its message says how to configure one), or an Error saying what failed.
 */
export type WebSearchCapability = (query: WebSearchQuery, signal: AbortSignal) => Promise<WebSearchAnswer>;

/** No search service for this session: the provider has none and no backend is configured. */
export class WebSearchUnavailable extends Error {}

export interface WorkspacePolicy {
  /** Absolute directories tools may touch: the session cwd first, then each --add-dir. */
  roots: readonly string[];
  /**
   * Paths outside the roots are allowed too. True in bypassPermissions mode; the permission
   * system may later grant it per call.
   */
  allowOutside: boolean;
  /**
   * Files with more than one hard link may be changed. The permission policy asks before such a
   * write, so this is true only when the call was approved for itself (bypassPermissions, the
   * host or a hook), never on a mode's or a rule's say alone: a link found then appeared after
   * the decision. Absent = false.
   */
  allowLinkedFiles?: boolean;
}

/** A one-off question to a model: its instructions and one user message. */
export interface SideRequest {
  system: string;
  text: string;
}

/** A progress report: `message` for people, `details` for machines (same split as results). */
export interface ToolProgress {
  message: string;
  elapsedMs: number;
  details?: Record<string, unknown>;
}

/** The part of the logger tools need; pino's Logger satisfies it. */
export interface ToolLog {
  warn(message: string): void;
}

/**
 * One tool = a name, a description (prompt text for the model), a zod input schema, and an
 * execute function. The schema may be of either zod flavour (the built-in tools build theirs with
 * `zod/mini`, MCP tools and tests with classic zod), so it is typed by zod's core and used only
 * through what both flavours share.
 *
 * Contract: `execute` receives input already validated against `inputSchema` (the tool runner
 * validates; tools never re-parse). Expected failures are returned as `{isError: true, code}`
 * results with a message that tells the model what to do next. Only broken infrastructure
 * throws, and the runner turns a throw into an `internal_error` result as well.
 */
export interface ToolDefinition<Schema extends z.$ZodType = z.$ZodType> extends ToolTraits {
  name: string;
  description: string;
  inputSchema: Schema;
  /**
   * The JSON Schema advertised to the model, when it comes from elsewhere (an MCP server's
   * `inputSchema`) rather than from `inputSchema`.
   */
  inputJsonSchema?: Record<string, unknown>;
  execute(input: z.output<Schema>, context: ToolContext): Promise<ToolResult>;
  /**
   * Called when the model begins to write a call of this tool, before its input is complete or
   * approved: work every call needs, and that harms nothing when the call never runs, can start
   * (Bash starts its process launcher). Returns at once; what it throws is ignored (the call does
   * the same work again and reports the failure).
   */
  prepare?(): void;
}

/** Identity function that exists for type inference of `execute`'s input. */
export function defineTool<Schema extends z.$ZodType>(definition: ToolDefinition<Schema>): ToolDefinition<Schema> {
  return definition;
}

/** An expected failure, with Claude Code's `tool_use_result` string form. */
export function toolError(code: ToolErrorCode, message: string): ToolResult {
  return { content: message, isError: true, code, details: `Error: ${message}` };
}
