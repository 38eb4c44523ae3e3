import { platform } from "node:os";
import type { ResultEvent, SystemInitEvent } from "../../protocol/events.js";
import type { AgentDefinition } from "../agents/agent-definition.js";
import { baseSystemPrompt, composeSystemPrompt, replacesDefaultPrompt } from "../agent/system-prompt.js";
import type { UserMessage } from "../conversation/messages.js";
import type { McpServerStatus } from "../mcp/mcp-servers.js";
import type { PermissionMode } from "../permissions/policy.js";
import { parseRuleList } from "../permissions/rule-syntax.js";
import { filterChildEnvironment } from "../process/child-environment.js";
import { SEARXNG_URL_VARIABLE } from "./web-search-service.js";
import { createProvider } from "../providers/registry.js";
import { createSkillTool } from "../skills/skill-tool.js";
import { createReadOnlyConfinement } from "../tools/sandbox/confinement.js";
import { SessionState } from "../tools/session-state.js";
import { BackgroundTasks } from "../tools/background/task-registry.js";
import { BudgetWatch } from "./budget.js";
import { ContextKeeper } from "./context-keeper.js";
import type { SessionHooks } from "./hook-runners.js";
import { loadMemoryFiles } from "./memory-files.js";
import { modelProfile, providerPerModel, sessionContextFit } from "./model-profile.js";
import { SessionNotices } from "./notices.js";
import { outputDirectory } from "./output-directory.js";
import { SessionPermissions } from "./permission-state.js";
import { SessionPersistence } from "./persistence.js";
import { keySourceOf, prepareSession, providerSettingsOf, type PreparedSession } from "./prepare-session.js";
import { modeStatus, SessionCore } from "./session-core.js";
import { SessionHookSet } from "./session-hooks.js";
import type { SessionLogger, SessionOptions } from "./session-options.js";
import type { BackgroundTaskView, SessionControls, SessionParts } from "./session-parts.js";
import { chooseBuiltinTools } from "./session-tools.js";
import { SkillSession } from "./skill-session.js";
import { createAgentTool } from "./subagent/agent-tool.js";
import { offersAgentTool } from "./subagent/subagent-limits.js";
import { Subagents } from "./subagent/subagents.js";
import { ToolSet, type HostMcpServer } from "./tool-set.js";
import { toolOffer } from "../agent/tool-offer.js";
import { deferredTools } from "../tools/deferral.js";

export type { HostMcpServer } from "./tool-set.js";
export type { BackgroundTaskView } from "./session-parts.js";

/**
 * A conversation with a model: runs user turns one at a time, emits every protocol event through
 * `onEvent`, persists committed messages, and closes every turn with exactly one `result`.
 * The same object serves the CLI (stdin/stdout), the library API and any other consumer.
 */
export interface Session {
  readonly sessionId: string;
  readonly cwd: string;
  /** The store's file, when the session is persisted. */
  readonly transcriptPath: string | undefined;
  readonly model: string;
  readonly permissionMode: PermissionMode;
  /** A turn is running. */
  readonly busy: boolean;
  /** `close()` was called: no further turns run. */
  readonly closed: boolean;
  /**
   * The `system/init` event for the next turn (Claude Code repeats it before every turn). Waits
   * for the skills' frontmatter to be read the first time: only skills that load are listed.
   */
  initEvent(): Promise<SystemInitEvent>;
  /** Emits the turn's events, then resolves with its `result` (also emitted). Never rejects. */
  runTurn(prompt: UserMessage): Promise<ResultEvent>;
  /** Stops the running turn; it still ends with its `result`. False when no turn runs. */
  interrupt(): boolean;
  /** From the next model request on; undefined returns to the session's first model. */
  setModel(model: string | undefined): void;
  /** From the next permission decision on (also mid-turn); emits `system/status`. */
  setPermissionMode(mode: PermissionMode): void;
  /** From the next model request on; 0 turns extended thinking off, undefined returns to the session's first budget. */
  setMaxThinkingTokens(tokens: number | undefined): void;
  /** Hooks the host registered (`initialize`); they run beside the settings files' hooks. */
  setHooks(hooks: SessionHooks): void;
  /**
   * The JSON Schema each turn's answer must match (`--json-schema`, the SDK's `outputFormat`):
   * the model answers with the StructuredOutput tool and the result carries `structured_output`.
   * Undefined turns it off. Rejects with an `OutputSchemaError` when the schema does not compile.
   */
  setOutputSchema(schema: Record<string, unknown> | undefined): Promise<void>;
  /**
   * One of the host's in-process MCP servers: its tools, offered from the next model request on
   * (replacing same-named ones), or why it could not be reached. A later call for the same name
   * replaces the earlier one.
   */
  addMcpServer(server: HostMcpServer): void;
  /** The host's in-process servers and the configured ones (`mcpServers`), with their state. */
  mcpServerStatus(): McpServerStatus[];
  /**
   * Resolves once every configured MCP server has connected or failed, or their start-up
   * timeout has passed: `system/init` lists them as they are then. At once when there are none.
   */
  mcpReady(): Promise<void>;
  /** The agent definitions the Agent tool can start, sorted by name (waits for their files the first time). */
  agentDefinitions(): Promise<AgentDefinition[]>;
  /**
   * The host's agent definitions (`initialize`'s `agents`: `{name: {description, prompt, …}}`),
   * over every other of the same name from the next turn on. Throws an `AgentDefinitionError`
   * naming the first problem; nothing changes then.
   */
  setHostAgents(record: unknown): void;
  /** The user-invocable skills, as the `initialize` answer lists commands. */
  skillCommands(): Promise<Array<{ name: string; description: string; argumentHint: string }>>;
  /** Resolves when no turn is running. */
  whenIdle(): Promise<void>;
  /**
   * The background tasks running (Bash `run_in_background`, Monitor), and what they have to tell
   * the model: a host that has no more prompts waits here for them (`-p`, stdin at its end).
   */
  readonly backgroundTasks: BackgroundTaskView;
  /**
   * No further turns; interrupts the running one, waits for its result, runs SessionEnd hooks
   * (once a turn has started the session), removes private temp files.
   */
  close(): Promise<void>;
}

/**
 * Sets up a session from settings: validates them, checks the directories, chooses the tools,
 * resumes or starts the stored session, and builds the provider (its SDK loads on the first
 * request). Free of `process.*`: the environment, the output sink, approvals and logging come in
 * through `options`. Throws a `SessionSetupError` when the settings cannot work.
 */
export function createSession(options: SessionOptions, prepared: PreparedSession = prepareSession(options)): Session {
  const { settings, cwd, addDirs, home, skills, agents, opened, env, fileSettings } = prepared;
  const sessionId = opened.sessionId;
  const log = options.logger ?? silentLogger;
  // Repairs of a stored session (a turn cut off mid-tool) are made and the run goes on: debug detail.
  for (const diagnostic of opened.diagnostics) log.info({ session: sessionId }, diagnostic);
  // Filtering the environment only to say so costs a pass over it: only when debug lines are kept.
  const keptFromChildren = log.isLevelEnabled?.("debug") === true ? filterChildEnvironment(env, settings.passEnv).removed : [];
  if (keptFromChildren.length > 0)
    log.debug({ names: keptFromChildren }, "credential variables kept out of child processes (--pass-env NAME hands one over)");
  const output = outputDirectory(options.toolOutputDirectory, sessionId);
  const memory =
    settings.memoryFiles && !replacesDefaultPrompt(settings.systemPrompt) ? loadMemoryFiles({ cwd, agentwireHome: home }) : undefined;
  const systemPrompt = composeSystemPrompt(
    composeSystemPrompt(
      baseSystemPrompt(settings.systemPrompt, {
        cwd,
        platform: platform(),
        date: new Date().toISOString().slice(0, 10),
        model: settings.model,
      }),
      memory?.section || undefined,
    ),
    settings.appendSystemPrompt,
  );
  const notices = new SessionNotices([
    ...(options.notices ?? []).map((notice) => ({ type: "warning" as const, ...notice })),
    ...(memory?.problems ?? []).map((problem) => ({
      type: "warning" as const,
      code: "memory_file_cut",
      message: `The memory file ${problem.path}: ${problem.reason}.`,
      path: problem.path,
    })),
    ...fileSettings.problems.map((problem) => ({
      type: "warning" as const,
      code: "settings_invalid",
      message: `Settings not applied: ${problem}.`,
    })),
  ]);
  const warn = (code: string, message: string): void => notices.warn({ type: "warning", code, message });
  // Read now (system/init waits for them anyway); what was wrong reaches the host as warnings.
  void agents.load().then(({ problems }) => {
    for (const problem of problems)
      notices.warn({ type: "warning", code: problem.code, message: problem.message, ...(problem.path ? { path: problem.path } : {}) });
  });
  const state = new SessionState();
  const permissions = new SessionPermissions(
    {
      mode: settings.permissionMode,
      rules: {
        allow: parseRuleList(settings.allowedTools),
        deny: parseRuleList(settings.disallowedTools),
        ask: parseRuleList(fileSettings.ask),
      },
      // The output directory is a root too, so Read can page through a long Bash output.
      roots: [cwd, ...addDirs, output.path],
    },
    state,
    (mode) => options.onEvent(modeStatus(sessionId, mode)),
  );
  const skillTools = skills.entries.length > 0 ? [createSkillTool(skills, { compact: settings.toolProfile === "compact" })] : [];
  const subagents = new Subagents(agents);
  // Its listing is filled in before the first model request, once the definitions are read.
  const agentTool = offersAgentTool(settings) ? [createAgentTool([])] : [];
  const tools: ToolSet = new ToolSet({
    tools: options.toolDefinitions ?? chooseBuiltinTools(settings, [...skillTools, ...agentTool], () => deferredTools(tools.offered())),
    mcpServers: settings.mcpServers,
    untrustedProjectMcpServers: settings.untrustedProjectMcpServers,
    cwd,
    env,
    passEnv: settings.passEnv,
    denials: () => permissions.denials(),
    onWarning: (message) => warn("mcp_server_failed", message),
  });
  const providerInstance = options.providerInstance;
  const providerOf = providerInstance
    ? () => providerInstance
    : providerPerModel((model) => createProvider(providerSettingsOf({ ...settings, model }, env)));
  const profileOf = (model: string) => modelProfile(model, settings, providerOf(model));
  const controls: SessionControls = {
    model: settings.model,
    maxThinkingTokens: settings.maxThinkingTokens,
    outputTool: undefined,
    closed: false,
  };
  const transcriptPath = opened.store?.file;
  const hooks = new SessionHookSet({
    settingsHooks: fileSettings.hooks,
    hostHooks: options.hooks,
    cwd,
    settingsEnv: fileSettings.env,
    passEnv: settings.passEnv,
    // Common fields of every hook input, as Claude Code sends them.
    base: () => ({ session_id: sessionId, transcript_path: transcriptPath ?? "", cwd, permission_mode: permissions.mode }),
    warn,
  });
  const onUsage = opened.accounting.addUsage.bind(opened.accounting);
  const skillSession = new SkillSession({
    catalog: skills,
    tools,
    state,
    history: opened.history,
    sessionId,
    cwd,
    ranking: settings.skillRanking,
    untrusted: { servers: settings.untrustedProjectMcpServers, settings: fileSettings.untrusted, trust: prepared.projectTrust },
    onUsage,
  });
  const parts: SessionParts = {
    sessionId,
    cwd,
    home,
    settings,
    systemPrompt,
    smallFastModel: env.ANTHROPIC_DEFAULT_HAIKU_MODEL || env.ANTHROPIC_SMALL_FAST_MODEL || undefined,
    profileOf,
    contextFit: sessionContextFit(settings),
    history: opened.history,
    accounting: opened.accounting,
    state,
    tools,
    permissions,
    hooks,
    persistence: new SessionPersistence(opened.store, log),
    notices,
    tasks: new BackgroundTasks(sessionId, options.onEvent),
    skills: skillSession,
    agents,
    budget: new BudgetWatch(opened.accounting, settings.maxBudgetUsd),
    subagents,
    contextKeeper: new ContextKeeper({
      sessionId,
      profile: () => profileOf(controls.model),
      system: systemPrompt,
      thresholdPercent: settings.autoCompactPercent,
      automatic: settings.autoCompact,
      toolSpecs: (messages) => toolOffer(tools.offered(), messages).tools,
      onUsage,
      hooks: () => hooks.current,
      hookBase: () => hooks.base(),
      extraContext: () => skillSession.instructions(),
    }),
    outputDirectory: output.path,
    // Probed when the first command judged read-only is about to run, not at start: a session that
    // never runs one (a single answer, auto mode) pays nothing. The warning goes out before that
    // command runs unconfined.
    confinement: createReadOnlyConfinement({
      hidden: [home],
      onUnavailable: (problem) => warn("confinement_unavailable", confinementUnavailable(problem)),
    }),
    sandbox: prepared.sandbox,
    settingsEnv: fileSettings.env,
    searxngUrl: env[SEARXNG_URL_VARIABLE] || undefined,
    approve: options.approve,
    origin: opened.origin,
    onEvent: options.onEvent,
    log,
  };
  return new SessionCore(parts, controls, output, keySourceOf(prepared));
}

/** The `confinement_unavailable` warning: what runs unconfined now, and how to fix the machine. */
function confinementUnavailable(problem: string): string {
  return (
    `Commands judged read-only run without confinement on this machine (${problem}): the read-only judgement alone decides whether they run without a question. ` +
    "Install bubblewrap and allow unprivileged user namespaces to confine them (see agentwire's README, Bash sandbox)."
  );
}

const silentLogger: SessionLogger = { debug() {}, info() {}, warn() {}, error() {} };
