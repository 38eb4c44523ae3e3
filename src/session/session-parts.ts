import type { OutputEvent } from "../../protocol/events.js";
import type { AgentCatalog } from "../agents/agent-catalog.js";
import type { Message } from "../conversation/messages.js";
import type { ProviderRequest } from "../providers/types.js";
import type { ToolDefinition } from "../tools/define-tool.js";
import type { ReadOnlyConfinement } from "../tools/sandbox/confinement.js";
import type { SandboxSettings } from "../tools/sandbox/sandbox-settings.js";
import type { SessionState } from "../tools/session-state.js";
import type { BackgroundTasks } from "../tools/background/task-registry.js";
import type { BudgetWatch } from "./budget.js";
import type { ContextKeeper } from "./context-keeper.js";
import type { SessionStartSource } from "./hook-runners.js";
import type { ModelProfile } from "./model-profile.js";
import type { SessionNotices } from "./notices.js";
import type { SessionPermissions } from "./permission-state.js";
import type { SessionPersistence } from "./persistence.js";
import type { SessionHookSet } from "./session-hooks.js";
import type { CheckedSessionSettings, SessionLogger, ToolApprover } from "./session-options.js";
import type { SkillSession } from "./skill-session.js";
import type { Subagents } from "./subagent/subagents.js";
import type { ToolSet } from "./tool-set.js";
import type { SessionAccounting } from "./turn-accounting.js";

/**
 * What a session is made of, built once by `createSession`: the validated settings as they came
 * (the one settings shape; nothing copies them into another), what was derived from them once,
 * and the collaborators that each keep one part of the session's state.
 */
export interface SessionParts {
  sessionId: string;
  cwd: string;
  /** The agentwire home (settings, skills, sessions, cached code): writing into it always asks. */
  home: string;
  settings: CheckedSessionSettings;
  systemPrompt: string;
  /**
   * The model for small side requests (WebFetch reading a page), from ANTHROPIC_DEFAULT_HAIKU_MODEL
   * or ANTHROPIC_SMALL_FAST_MODEL as Claude Code reads them; undefined: the session's model.
   */
  smallFastModel: string | undefined;
  /** Every model-dependent setting (and the provider) for a model, computed when asked. */
  profileOf: (model: string) => ModelProfile;
  /** For a local model with a small window the user gave: the warning for a request that will not fit. */
  contextFit: ((request: ProviderRequest) => string | undefined) | undefined;
  history: Message[];
  accounting: SessionAccounting;
  /** Per-session state the tools keep between calls, shared with the Skill tool and the permissions. */
  state: SessionState;
  tools: ToolSet;
  permissions: SessionPermissions;
  hooks: SessionHookSet;
  persistence: SessionPersistence;
  notices: SessionNotices;
  /** Bash's background commands and Monitors (later background subagents): their lines and notifications. */
  tasks: BackgroundTasks;
  skills: SkillSession;
  /** The agent definitions (built-in, files, `--agents`, the SDK's). */
  agents: AgentCatalog;
  budget: BudgetWatch;
  /** The agent types the Agent tool starts, and what the turn's subagents did. */
  subagents: Subagents;
  contextKeeper: ContextKeeper;
  /** Where tools write their output files (Bash's full output); a workspace root too. */
  outputDirectory: string;
  /** How commands approved only by the read-only judgement run. */
  confinement: ReadOnlyConfinement;
  /** Bash's sandbox, checked to work here; undefined when it is off. */
  sandbox: SandboxSettings | undefined;
  /** The settings files' `env`, for the processes tools and hooks start (credentials still removed). */
  settingsEnv: Readonly<Record<string, string>>;
  /** The SearXNG instance WebSearch uses when the provider has no search (AGENTWIRE_SEARXNG_URL). */
  searxngUrl: string | undefined;
  approve: ToolApprover | undefined;
  /** SessionStart's `source` for the first turn. */
  origin: SessionStartSource;
  onEvent: (event: OutputEvent) => void;
  log: SessionLogger;
}

/** What the host may change between turns (and mid-turn: the model and thinking apply from the next request). */
export interface SessionControls {
  model: string;
  maxThinkingTokens: number | undefined;
  /** `setOutputSchema`: the StructuredOutput tool being built, or the error its schema gave. */
  outputTool: Promise<ToolDefinition | Error> | undefined;
  closed: boolean;
}

/** What a host may see and do of the session's background tasks. */
export type BackgroundTaskView = Pick<BackgroundTasks, "running" | "hasNotifications" | "takeNotifications" | "nextChange" | "stopAll">;
