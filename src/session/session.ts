import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { platform, tmpdir } from "node:os";
import { join } from "node:path";
import type { PermissionResult } from "../../protocol/control.js";
import type { OutputEvent, ResultEvent, SystemInitEvent } from "../../protocol/events.js";
import type { AgentEvent } from "../agent/events.js";
import { runTurn, type PermissionDecision, type TurnOutcome } from "../agent/loop.js";
import { baseSystemPrompt, composeSystemPrompt, replacesDefaultPrompt } from "../agent/system-prompt.js";
import type { SessionAccounting } from "../agent/turn-accounting.js";
import type { Message, ToolUseBlock, UserMessage } from "../conversation/messages.js";
import type { PermissionMode } from "../permissions/policy.js";
import { applyPermissionUpdates, type PermissionState } from "../permissions/permission-updates.js";
import { parseRuleList, wholeToolRuleCovers } from "../permissions/rule-syntax.js";
import { McpServerPool, type McpServerStatus } from "../mcp/mcp-servers.js";
import type { McpServers } from "../mcp/mcp-config.js";
import { filterChildEnvironment } from "../process/child-environment.js";
import { createProvider, isLocalServer } from "../providers/registry.js";
import type { Provider, ProviderRequest } from "../providers/types.js";
import { contextFitCheck, SMALL_CONTEXT_WINDOW } from "./context-fit.js";
import { loadMemoryFiles } from "./memory-files.js";
import type { SessionStore } from "../sessions/store.js";
import type { ToolDefinition } from "../tools/define-tool.js";
import { findTool, toolInputJsonSchema } from "../tools/registry.js";
import { createStructuredOutputTool } from "../tools/structured-output.js";
import { MAX_STRUCTURED_OUTPUT_RETRIES, STRUCTURED_OUTPUT_TOOL } from "../tools/structured-output-limits.js";
import type { SandboxSettings } from "../tools/sandbox/sandbox-settings.js";
import { shellStartDirectory } from "../tools/bash.js";
import { createReadOnlyConfinement, type ReadOnlyConfinement } from "../tools/sandbox/confinement.js";
import {
  describeHookStop,
  runNotificationHooks,
  runPostToolUseHooks,
  runSessionEndHooks,
  runSessionStartHooks,
  runStopHooks,
  runUserPromptSubmitHooks,
  type HookStop,
  type SessionHooks,
  type SessionStartSource,
} from "./hook-runners.js";
import { combineHooks } from "./combined-hooks.js";
import { CommandHooks } from "./command-hooks.js";
import type { CommandHook } from "../settings/effective-settings.js";
import { loopDependencies, MAX_OUTPUT_TOKENS_CAP, turnSettings, type TurnWiring } from "./loop-wiring.js";
import { buildApiErrorAssistantEvent, buildFailureResult, buildResultEvent } from "./result.js";
import { DEFAULT_MAX_TURNS, type SessionLogger, type SessionOptions, type ToolApprover } from "./session-options.js";
import { createTranslationState, toStreamJson } from "./stream-json.js";
import { createToolAuthorizer, type HostApproval } from "./tool-authorizer.js";
import { chooseBuiltinTools } from "./session-tools.js";
import { buildInitEvent } from "./init-event.js";
import { keySourceOf, prepareSession, providerSettingsOf, untrustedServerStatus, type PreparedSession } from "./prepare-session.js";
import { untrustedProjectWarning } from "./project-trust-policy.js";
import { trustRootOf, type ProjectTrust } from "../trust/project-trust.js";
import { offersSkillTool, type Skill, type SkillCatalog, type SkillProblem } from "../skills/catalog.js";
import { createSkillTool, LOADED_SKILLS_KEY, SKILL_READ_RULES_KEY, TURN_SKILL_RULES_KEY } from "../skills/skill-tool.js";
import { skillInstructions } from "../skills/instructions.js";
import { ContextKeeper } from "./context-keeper.js";
import { rerankWithModel } from "./skill-rerank.js";
import { skillPrompt } from "./skill-turn.js";
import { modelLimits } from "../providers/models.js";

/** One of the host's in-process MCP servers, once its tools were listed, or why they could not be. */
export type HostMcpServer = { name: string; tools: ToolDefinition[]; serverInfo?: { name: string; version: string } } | { name: string; error: string };

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
  /** The user-invocable skills, as the `initialize` answer lists commands. */
  skillCommands(): Promise<Array<{ name: string; description: string; argumentHint: string }>>;
  /** Resolves when no turn is running. */
  whenIdle(): Promise<void>;
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
  const { settings, cwd, addDirs, home, skills, opened, env, fileSettings } = prepared;
  const skillTools = skills.entries.length > 0 ? [createSkillTool(skills, { compact: settings.toolProfile === "compact" })] : [];
  const tools = options.toolDefinitions ?? chooseBuiltinTools(settings, skillTools);
  const log = options.logger ?? silentLogger;
  // Repairs of a stored session (a turn cut off mid-tool) are made and the run goes on: debug detail.
  for (const diagnostic of opened.diagnostics) log.info({ session: opened.sessionId }, diagnostic);
  // Filtering the environment only to say so costs a pass over it: only when debug lines are kept.
  const keptFromChildren = log.isLevelEnabled?.("debug") === true ? filterChildEnvironment(env, settings.passEnv).removed : [];
  if (keptFromChildren.length > 0) log.debug({ names: keptFromChildren }, "credential variables kept out of child processes (--pass-env NAME hands one over)");
  // Bash's full outputs: disposable and possibly gigabytes, so in the OS temp folder rather than
  // the agentwire home (which keeps sessions), and private to this session object.
  const ownsOutputDirectory = options.toolOutputDirectory === undefined;
  const toolOutputDirectory = options.toolOutputDirectory ?? join(tmpdir(), `agentwire-${opened.sessionId}-${randomUUID().slice(0, 8)}`);
  const memory = settings.memoryFiles && !replacesDefaultPrompt(settings.systemPrompt) ? loadMemoryFiles({ cwd, agentwireHome: home }) : undefined;
  const systemPrompt = composeSystemPrompt(
    composeSystemPrompt(baseSystemPrompt(settings.systemPrompt, { cwd, platform: platform(), date: new Date().toISOString().slice(0, 10), model: settings.model }), memory?.section || undefined),
    settings.appendSystemPrompt,
  );
  return new SessionCore({
    sessionId: opened.sessionId,
    cwd,
    env,
    mcpServers: settings.mcpServers,
    untrustedProjectMcpServers: settings.untrustedProjectMcpServers,
    projectTrust: prepared.projectTrust,
    systemPrompt,
    provider: options.providerInstance ?? createProvider(providerSettingsOf(settings, env)),
    apiKeySource: keySourceOf(prepared),
    tools,
    history: opened.history,
    accounting: opened.accounting,
    store: opened.store,
    onEvent: options.onEvent,
    log,
    approve: options.approve,
    hooks: options.hooks,
    settingsHooks: fileSettings.hooks,
    settingsEnv: fileSettings.env,
    untrustedProjectSettings: fileSettings.untrusted,
    origin: opened.origin,
    model: settings.model,
    // A model looping on tool calls must not make thousands of requests; --max-turns overrides.
    maxTurns: settings.maxTurns ?? DEFAULT_MAX_TURNS,
    maxBudgetUsd: settings.maxBudgetUsd,
    maxThinkingTokens: settings.maxThinkingTokens,
    maxRetries: settings.maxRetries,
    streamIdleTimeoutMs: settings.streamIdleTimeoutMs,
    includePartialMessages: settings.includePartialMessages,
    permissions: {
      mode: settings.permissionMode,
      rules: { allow: parseRuleList(settings.allowedTools), deny: parseRuleList(settings.disallowedTools), ask: parseRuleList(fileSettings.ask) },
      // The output directory is a root too, so Read can page through a long Bash output.
      roots: [cwd, ...addDirs, toolOutputDirectory],
    },
    toolOutputDirectory,
    ownsOutputDirectory,
    sandbox: prepared.sandbox,
    passEnv: settings.passEnv,
    projectVouched: settings.trustProject,
    agentwireHome: home,
    skills,
    compaction: {
      automatic: settings.autoCompact,
      thresholdPercent: settings.autoCompactPercent,
      contextWindow: settings.contextWindow ?? modelLimits(settings.model).contextWindow,
      maxOutputTokens: Math.min(modelLimits(settings.model).maxOutputTokens, MAX_OUTPUT_TOKENS_CAP),
    },
    startupWarnings: [
      ...(options.notices ?? []).map((notice) => ({ type: "warning" as const, ...notice })),
      ...(memory?.problems ?? []).map((problem) => ({ type: "warning" as const, code: "memory_file_cut", message: `The memory file ${problem.path}: ${problem.reason}.`, path: problem.path })),
      ...fileSettings.problems.map((problem) => ({ type: "warning" as const, code: "settings_invalid", message: `Settings not applied: ${problem}.` })),
    ],
    skillRanking: settings.skillRanking,
    // Ollama checks its own requests against the context it asks for (ollama-native.ts).
    contextFit:
      isLocalServer(settings.provider) && settings.provider !== "ollama" && settings.contextWindow !== undefined && settings.contextWindow <= SMALL_CONTEXT_WINDOW
        ? contextFitCheck(settings.contextWindow)
        : undefined,
    skillListingBudget: settings.skillListingBudget ?? defaultListingBudget(settings.model, settings.contextWindow),
  });
}

/** The `confinement_unavailable` warning: what runs unconfined now, and how to fix the machine. */
function confinementUnavailable(problem: string): string {
  return (
    `Commands judged read-only run without confinement on this machine (${problem}): the read-only judgement alone decides whether they run without a question. ` +
    "Install bubblewrap and allow unprivileged user namespaces to confine them (see agentwire's README, Bash sandbox)."
  );
}

/** 1 % of the model's context window, at about 4 characters per token. */
function defaultListingBudget(model: string, contextWindow: number | undefined): number {
  return Math.round((contextWindow ?? modelLimits(model).contextWindow) * 0.01 * 4);
}

interface SessionCoreInput {
  sessionId: string;
  cwd: string;
  env: SessionOptions["env"];
  mcpServers: McpServers;
  /** Project servers not started for want of trust: shown with their status, named in the trust warning. */
  untrustedProjectMcpServers: string[];
  projectTrust: ProjectTrust;
  systemPrompt: string;
  provider: Provider;
  apiKeySource: string;
  tools: ToolDefinition[];
  history: Message[];
  accounting: SessionAccounting;
  store: SessionStore | undefined;
  onEvent: (event: OutputEvent) => void;
  log: SessionLogger;
  approve: ToolApprover | undefined;
  /** The host's hooks, when given at creation (the library's); a stdin host registers them later (`setHooks`). */
  hooks: SessionHooks | undefined;
  /** The settings files' shell-command hooks. */
  settingsHooks: readonly CommandHook[];
  /** The settings files' `env`, for the processes tools and hooks start (credentials still removed). */
  settingsEnv: Readonly<Record<string, string>>;
  /** What the project's untrusted settings files were denied, named in the trust warning. */
  untrustedProjectSettings: readonly string[];
  /** SessionStart's `source` for the first turn. */
  origin: SessionStartSource;
  model: string;
  maxTurns: number | undefined;
  maxBudgetUsd: number | undefined;
  maxThinkingTokens: number | undefined;
  maxRetries: number;
  streamIdleTimeoutMs: number;
  includePartialMessages: boolean;
  permissions: PermissionState;
  toolOutputDirectory: string;
  ownsOutputDirectory: boolean;
  sandbox: SandboxSettings | undefined;
  /** Credential variables passed to child processes on purpose (`--pass-env`). */
  passEnv: readonly string[];
  /** The host vouched for the project for this run (`--trust-project`); see PermissionQuestion. */
  projectVouched: boolean;
  /** Hidden from confined commands even inside a workspace root: sessions, skills and settings. */
  agentwireHome: string;
  skills: SkillCatalog;
  compaction: { automatic: boolean; thresholdPercent: number | undefined; contextWindow: number; maxOutputTokens: number };
  /** Reported at the start of the first turn (memory files that were cut or unreadable). */
  startupWarnings: AgentEvent[];
  skillRanking: "bm25" | "llm";
  contextFit: ((request: ProviderRequest) => string | undefined) | undefined;
  skillListingBudget: number;
}

class SessionCore implements Session {
  private readonly unpricedModelsWarned = new Set<string>();
  private readonly contextKeeper: ContextKeeper;
  /** The session's cost when this process opened it: the budget counts from here. */
  private readonly costAtStart: number;
  /** The skills' metadata has been read, and its problems and what the untrusted project held back reported. */
  private startupReported = false;
  /** The skills that loaded and the problems of the others, read once; the Skill tool is dropped when none is model-invocable. */
  private skillsLoading: Promise<{ skills: Skill[]; problems: SkillProblem[] }> | undefined;
  /** Why the session file could not be written, once it could not; nothing is written after. */
  private persistenceFailure: string | undefined;
  private readonly toolState = new Map<string, unknown>();
  /** The host's in-process MCP servers (the Agent SDKs'), as they were registered. */
  private readonly hostMcpServers = new Map<string, McpServerStatus>();
  /** The configured MCP servers; undefined when there are none (nothing MCP is loaded then). */
  private readonly mcp: McpServerPool | undefined;
  /** How commands approved only by the read-only judgement run. */
  private readonly confinement: ReadOnlyConfinement;
  private currentTurn: AbortController | undefined;
  /** The running turn's event sink: a warning raised meanwhile (an MCP server crashing) goes out at once. */
  private turnEmit: ((event: AgentEvent) => void) | undefined;
  private turnDone: Promise<unknown> = Promise.resolve();
  private permissions: PermissionState;
  private currentModel: string;
  private maxThinkingTokens: number | undefined;
  /** The settings files' hooks and the host's, as one (`combineHooks`). */
  private hooks: SessionHooks | undefined;
  private hostHooks: SessionHooks | undefined;
  private readonly settingsHooks: CommandHooks | undefined;
  /** SessionStart hooks ran (at the first turn); SessionEnd hooks run at close only after them. */
  private sessionStarted = false;
  private sessionEnded = false;
  /** Context from SessionStart hooks, for the next prompt. */
  private readonly startContext: string[] = [];
  /** Notification hooks still running: nobody waits for them, but the session does not close before they end. */
  private readonly notifications = new Set<Promise<void>>();
  private tools: ToolDefinition[];
  /** `setOutputSchema`: the StructuredOutput tool being built, or the error its schema gave. */
  private outputTool: Promise<ToolDefinition | Error> | undefined;
  private isClosed = false;

  constructor(private readonly input: SessionCoreInput) {
    this.costAtStart = input.accounting.totalCostUsd();
    this.contextKeeper = new ContextKeeper({
      ...input.compaction,
      provider: input.provider,
      sessionId: input.sessionId,
      model: () => this.currentModel,
      system: input.systemPrompt,
      toolSpecs: () => this.offeredTools().map((tool) => ({ name: tool.name, description: tool.description, inputSchema: toolInputJsonSchema(tool) })),
      onUsage: (usage, model) => input.accounting.addUsage(usage, model),
      hooks: () => this.hooks,
      hookBase: () => this.hookBase(),
      extraContext: () => this.loadedSkillInstructions(),
    });
    this.permissions = input.permissions;
    this.currentModel = input.model;
    this.maxThinkingTokens = input.maxThinkingTokens;
    this.settingsHooks =
      input.settingsHooks.length > 0
        ? new CommandHooks({
            hooks: input.settingsHooks,
            cwd: input.cwd,
            settingsEnv: input.settingsEnv,
            passEnv: input.passEnv,
            onProblem: (message) => this.warn({ type: "warning", code: "hook_failed", message }),
          })
        : undefined;
    this.hostHooks = input.hooks;
    this.hooks = this.combinedHooks();
    this.tools = input.tools;
    this.mcp =
      Object.keys(input.mcpServers).length > 0
        ? new McpServerPool(input.mcpServers, { cwd: input.cwd, env: input.env, passEnv: input.passEnv, onWarning: (message) => this.warn({ type: "warning", code: "mcp_server_failed", message }) })
        : undefined;
    // Probed when the first command judged read-only is about to run, not at start: a session that
    // never runs one (a single answer, auto mode) pays nothing. The warning goes out before that
    // command runs unconfined.
    this.confinement = createReadOnlyConfinement({
      hidden: [input.agentwireHome],
      onUnavailable: (problem) => this.warn({ type: "warning", code: "confinement_unavailable", message: confinementUnavailable(problem) }),
    });
  }

  get sessionId(): string {
    return this.input.sessionId;
  }

  get cwd(): string {
    return this.input.cwd;
  }

  get transcriptPath(): string | undefined {
    return this.input.store?.file;
  }

  get model(): string {
    return this.currentModel;
  }

  get permissionMode(): PermissionMode {
    return this.permissions.mode;
  }

  get busy(): boolean {
    return this.currentTurn !== undefined;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  setModel(model: string | undefined): void {
    this.currentModel = model ?? this.input.model;
  }

  setPermissionMode(mode: PermissionMode): void {
    this.permissions = { ...this.permissions, mode };
    this.input.onEvent({ type: "system", subtype: "status", status: null, permissionMode: mode, session_id: this.sessionId, uuid: randomUUID() });
  }

  setMaxThinkingTokens(tokens: number | undefined): void {
    this.maxThinkingTokens = tokens === undefined ? this.input.maxThinkingTokens : tokens > 0 ? tokens : undefined;
  }

  setHooks(hooks: SessionHooks): void {
    this.hostHooks = hooks;
    this.hooks = this.combinedHooks();
  }

  /** A hook's `systemMessage` is for the user: a warning, wherever the hook came from. */
  private combinedHooks(): SessionHooks | undefined {
    return combineHooks([this.settingsHooks, this.hostHooks], (message) => this.warn({ type: "warning", code: "hook_message", message }));
  }

  async setOutputSchema(schema: Record<string, unknown> | undefined): Promise<void> {
    const tool = schema === undefined ? undefined : createStructuredOutputTool(schema).catch((error: Error) => error);
    this.outputTool = tool;
    const built = await tool;
    if (built instanceof Error) throw built;
  }

  addMcpServer(server: HostMcpServer): void {
    const prefix = `mcp__${server.name}__`;
    this.tools = this.tools.filter((tool) => !tool.name.startsWith(prefix));
    if ("error" in server) {
      this.hostMcpServers.set(server.name, { name: server.name, status: "failed", error: server.error });
      return;
    }
    this.hostMcpServers.set(server.name, { name: server.name, status: "connected", ...(server.serverInfo ? { serverInfo: server.serverInfo } : {}) });
    this.tools = withTools(this.tools, server.tools);
  }

  mcpServerStatus(): McpServerStatus[] {
    return [...this.hostMcpServers.values(), ...(this.mcp?.status() ?? []), ...this.input.untrustedProjectMcpServers.map(untrustedServerStatus)];
  }

  /** Now when a turn is running, else at the start of the next one (events belong to turns). */
  private warn(warning: AgentEvent): void {
    if (this.turnEmit) this.turnEmit(warning);
    else this.input.startupWarnings.push(warning);
  }

  mcpReady(): Promise<void> {
    return this.mcp?.ready() ?? Promise.resolve();
  }

  /**
   * The built-in tools, the host's in-process MCP tools and the tools of the configured MCP
   * servers connected now, less the MCP tools a whole-tool deny rule covers (`--disallowedTools
   * mcp__server`): each call of those would be refused anyway. The built-ins were chosen by the
   * same rules when the session started.
   */
  private offeredTools(): ToolDefinition[] {
    const tools = withTools(this.tools, this.mcp?.tools() ?? []);
    if (this.hostMcpServers.size === 0 && this.mcp === undefined) return tools;
    const denials = this.permissions.rules.deny;
    return tools.filter((tool) => !tool.name.startsWith("mcp__") || !wholeToolRuleCovers(denials, { name: tool.name, traits: tool }));
  }

  async skillCommands(): Promise<Array<{ name: string; description: string; argumentHint: string }>> {
    const { skills } = await this.input.skills.load();
    return skills.filter((skill) => skill.userInvocable).map((skill) => ({ name: skill.name, description: skill.description, argumentHint: skill.argumentHint ?? "" }));
  }

  whenIdle(): Promise<void> {
    return this.turnDone.then(() => undefined);
  }

  interrupt(): boolean {
    if (!this.currentTurn) return false;
    this.currentTurn.abort();
    return true;
  }

  async close(): Promise<void> {
    this.isClosed = true;
    this.interrupt();
    await this.whenIdle();
    await Promise.all(this.notifications);
    if (this.sessionStarted && !this.sessionEnded) {
      this.sessionEnded = true;
      await runSessionEndHooks(this.hooks, this.hookBase(), "other");
    }
    await this.mcp?.close();
    this.input.store?.close();
    if (this.input.ownsOutputDirectory) rmSync(this.input.toolOutputDirectory, { recursive: true, force: true });
  }

  async initEvent(): Promise<SystemInitEvent> {
    const { skills } = await this.loadedSkills();
    return buildInitEvent({
      cwd: this.cwd,
      sessionId: this.sessionId,
      toolNames: this.offeredTools().map((tool) => tool.name),
      mcpServers: this.mcpServerStatus().map(({ name, status, error }) => ({ name, status, ...(error !== undefined ? { error } : {}) })),
      model: this.currentModel,
      provider: this.input.provider.id,
      permissionMode: this.permissions.mode,
      skills,
      apiKeySource: this.input.apiKeySource,
    });
  }

  runTurn(prompt: UserMessage): Promise<ResultEvent> {
    const turn = this.runOneTurn(prompt);
    this.turnDone = turn.catch(() => undefined);
    return turn;
  }

  private async runOneTurn(prompt: UserMessage): Promise<ResultEvent> {
    const { accounting, onEvent } = this.input;
    const controller = new AbortController();
    this.currentTurn = controller;
    const startedAt = Date.now();
    accounting.startTurn();
    const translationState = createTranslationState();
    const translationContext = { sessionId: this.sessionId, includePartialMessages: this.input.includePartialMessages, newUuid: randomUUID, now: Date.now };
    const permissionDenials: ResultEvent["permission_denials"] = [];
    const emit = (event: AgentEvent): void => {
      if (event.type === "tool_result" && event.result.details !== undefined) this.input.store?.noteToolDetails(event.toolUseId, event.result.details);
      if (event.type === "message_committed") this.persist("message", () => this.input.store?.appendMessage(event.message), emit);
      if (event.type === "compaction_end" && event.messages) {
        const messages = event.messages;
        this.persist("compaction", () => this.input.store?.appendCompaction(event.trigger, event.preTokens, event.postTokens, messages), emit);
      }
      if (event.type === "tool_permission_denied") permissionDenials.push({ tool_name: event.toolName, tool_use_id: event.toolUseId, tool_input: event.input });
      for (const line of toStreamJson(event, translationState, translationContext)) onEvent(line);
    };
    this.turnEmit = emit;
    const failure = (terminalReason: "hook_blocked" | "internal_error" | "invalid_arguments", message: string): ResultEvent => {
      const result = this.withPersistence(buildFailureResult({ sessionId: this.sessionId, terminalReason, message, durationMs: Date.now() - startedAt, newUuid: randomUUID }));
      onEvent(result);
      return result;
    };
    // A hook's `continue: false` (any event of this turn): the user is told its stopReason, and the turn ends.
    let hookStop: HookStop | undefined;
    const noteHookStop = (stop: HookStop | undefined): void => {
      if (!stop || hookStop) return;
      hookStop = stop;
      emit({ type: "warning", code: "hook_stopped", message: describeHookStop(stop) });
    };
    const stoppedBeforeModel = (stop: HookStop): ResultEvent => {
      noteHookStop(stop);
      return this.finishTurn({ terminalReason: "hook_stopped", stopReason: null, numTurns: 0, resultText: "" }, emit, startedAt, permissionDenials);
    };
    try {
      if (this.isClosed) return failure("internal_error", "The session is closed; no further turns run.");
      if (!this.sessionStarted) {
        this.sessionStarted = true;
        const started = await runSessionStartHooks(this.hooks, this.hookBase(), this.input.origin, this.currentModel, controller.signal);
        this.startContext.push(...started.context);
        if (started.stop) return stoppedBeforeModel(started.stop);
      }
      const command = sessionCommand(prompt);
      if (command) return await this.runSessionCommand(command, emit, controller.signal, startedAt, permissionDenials);
      const submitted = await runUserPromptSubmitHooks(this.hooks, this.hookBase(), prompt, controller.signal);
      if ("stop" in submitted) return stoppedBeforeModel(submitted.stop);
      if (!submitted.allow) return failure("hook_blocked", submitted.message);
      const outputTool = await this.outputTool;
      if (outputTool instanceof Error) return failure("invalid_arguments", `The output schema is not valid JSON Schema: ${outputTool.message}`);
      // The context goes in after the skills have read the prompt: a `/skill` command is the prompt's own text.
      const withSkills = withStartContext(await this.prepareSkills(submitted.prompt, emit, controller.signal), this.startContext.splice(0));
      const wiring = this.turnWiring(emit, controller.signal, outputTool, { note: noteHookStop, stopped: () => hookStop !== undefined });
      const outcome = await runTurn(this.input.history, withSkills, turnSettings(wiring), loopDependencies(wiring), controller.signal).catch((error: unknown) => {
        // A bug must still end the turn with a result, never a silent hang.
        this.input.log.error({ err: error }, "turn failed");
        return undefined;
      });
      if (!outcome) return failure("internal_error", "agentwire hit an internal error during this turn; see stderr.");
      if (outcome.terminalReason === "api_error") onEvent(buildApiErrorAssistantEvent(outcome, { sessionId: this.sessionId, newUuid: randomUUID, now: Date.now }));
      return this.finishTurn(outcome, emit, startedAt, permissionDenials);
    } finally {
      // A skill's allowed-tools last only as long as the turn that loaded it.
      this.toolState.delete(TURN_SKILL_RULES_KEY);
      this.currentTurn = undefined;
      this.turnEmit = undefined;
    }
  }

  /** Records the end of a turn in the session file and sends its `result`. */
  private finishTurn(outcome: TurnOutcome, emit: (event: AgentEvent) => void, startedAt: number, permissionDenials: ResultEvent["permission_denials"]): ResultEvent {
    const { accounting } = this.input;
    this.persist("turn_end", () => this.input.store?.appendTurnEnd(accounting.totalCostUsd(), accounting.modelUsageSnapshot()), emit);
    const result = this.withPersistence(
      buildResultEvent(outcome, {
        sessionId: this.sessionId,
        durationMs: Date.now() - startedAt,
        accounting,
        maxTurns: this.input.maxTurns,
        maxBudgetUsd: this.input.maxBudgetUsd,
        permissionDenials,
        newUuid: randomUUID,
      }),
    );
    this.input.onEvent(result);
    return result;
  }

  /**
   * The skills' metadata, read once (for `system/init` or the first turn, whichever comes first);
   * the Skill tool goes when no skill that loaded is model-invocable.
   */
  private loadedSkills(): Promise<{ skills: Skill[]; problems: SkillProblem[] }> {
    this.skillsLoading ??= this.input.skills.load().then((loaded) => {
      if (!offersSkillTool(loaded.skills)) this.tools = this.tools.filter((tool) => tool.name !== "Skill");
      return loaded;
    });
    return this.skillsLoading;
  }

  /**
   * Reports each broken skill once, on the first turn, and returns the prompt with the skill
   * listing and any `/skill` expansion.
   */
  private async prepareSkills(prompt: UserMessage, emit: (event: AgentEvent) => void, signal: AbortSignal): Promise<UserMessage> {
    for (const warning of this.input.startupWarnings.splice(0)) emit(warning);
    const catalog = this.input.skills;
    const { skills, problems } = await this.loadedSkills();
    if (!this.startupReported) {
      this.startupReported = true;
      for (const problem of problems) {
        const what = problem.code === "skill_skipped" ? "was skipped" : "was loaded with a fix";
        emit({ type: "warning", code: problem.code, message: `The skill at ${problem.path} ${what}: ${problem.reason}.`, path: problem.path });
      }
      const untrusted = untrustedProjectWarning({
        root: trustRootOf(this.cwd),
        servers: this.input.untrustedProjectMcpServers,
        skills: skills.filter((skill) => skill.withheldGrants?.reason === "untrusted-project").map((skill) => skill.name),
        settings: this.input.untrustedProjectSettings,
        storeProblem: this.input.projectTrust.problem,
      });
      if (untrusted) emit({ type: "warning", code: "project_not_trusted", message: untrusted });
    }
    if (catalog.entries.length === 0) return prompt;
    const rerank =
      this.input.skillRanking === "llm"
        ? (promptText: string, candidates: Skill[]) =>
            rerankWithModel({ provider: this.input.provider, model: this.currentModel, sessionId: this.sessionId, promptText, candidates, signal, onUsage: (usage, model) => this.input.accounting.addUsage(usage, model) })
        : undefined;
    return skillPrompt({ catalog, prompt, history: this.input.history, sessionState: this.toolState, budgetChars: this.input.skillListingBudget, ...(rerank ? { rerank } : {}) });
  }

  /**
   * The session's permissions, plus reading the folders of loaded skills, plus the allowed-tools
   * of skills loaded in the running turn. Allow rules only: deny rules, plan mode and the risk
   * sentinel still come first.
   */
  private effectivePermissions(): PermissionState {
    const skillRules = [...((this.toolState.get(SKILL_READ_RULES_KEY) as string[] | undefined) ?? []), ...((this.toolState.get(TURN_SKILL_RULES_KEY) as string[] | undefined) ?? [])];
    if (skillRules.length === 0) return this.permissions;
    return { ...this.permissions, rules: { ...this.permissions.rules, allow: [...this.permissions.rules.allow, ...parseRuleList(skillRules)] } };
  }

  /** The session's state as this turn's loop sees it. */
  private turnWiring(
    emit: (event: AgentEvent) => void,
    turnSignal: AbortSignal,
    outputTool: ToolDefinition | undefined,
    hookStop: { note: (stop: HookStop | undefined) => void; stopped: () => boolean },
  ): TurnWiring {
    const tools = (): ToolDefinition[] => (outputTool ? [...this.offeredTools(), outputTool] : this.offeredTools());
    return {
      sessionId: this.sessionId,
      cwd: this.cwd,
      model: this.currentModel,
      systemPrompt: this.input.systemPrompt,
      maxTurns: this.input.maxTurns,
      maxThinkingTokens: this.maxThinkingTokens,
      maxRetries: this.input.maxRetries,
      streamIdleTimeoutMs: this.input.streamIdleTimeoutMs,
      provider: this.input.provider,
      tools,
      accounting: this.input.accounting,
      permissions: () => this.effectivePermissions(),
      toolOutputDirectory: this.input.toolOutputDirectory,
      sandbox: this.input.sandbox,
      passEnv: this.input.passEnv,
      settingsEnv: this.input.settingsEnv,
      confinement: this.confinement,
      toolState: this.toolState,
      // A redaction is news for the user, told the way every other notice is (a system/warning
      // line, or stderr in text mode), never as a log record of its own beside them.
      log: { warn: (message) => this.warn({ type: "warning", code: "secrets_redacted", message }) },
      debugLog: this.input.log,
      emit,
      authorizeToolCall: createToolAuthorizer({
        permissions: () => this.effectivePermissions(),
        traitsOf: (name) => findTool(tools(), name) ?? { kind: "other" },
        askHost: this.hostApproval(),
        hooks: this.hooks,
        hookBase: () => this.hookBase(),
        onHookStop: hookStop.note,
        commandDirectory: () => shellStartDirectory(this.toolState, this.cwd),
        projectVouched: this.input.projectVouched,
      }),
      afterToolCall: async (call, result, signal) => {
        const after = await runPostToolUseHooks(this.hooks, this.hookBase(), call, result, signal);
        hookStop.note(after.stop);
        return after.result;
      },
      beforeStop: async (resultText, alreadyContinued) => {
        const answer = await runStopHooks(this.hooks, this.hookBase(), resultText, alreadyContinued, turnSignal);
        hookStop.note(answer.stop);
        return answer.feedback;
      },
      hookStopped: hookStop.stopped,
      contextFit: this.input.contextFit,
      structuredOutput: outputTool ? { toolName: STRUCTURED_OUTPUT_TOOL, maxRetries: MAX_STRUCTURED_OUTPUT_RETRIES } : undefined,
      budgetSpent: this.budgetSpent(),
      maintainContext: (history, cause, signal) => this.contextKeeper.maintain(history, cause, signal, emit),
      onUnpricedModel: (model) => {
        if (this.unpricedModelsWarned.has(model)) return;
        this.unpricedModelsWarned.add(model);
        emit({ type: "warning", code: "unknown_model_price", message: `No list price is known for model ${model}; its cost is counted as 0 USD (tokens are still reported).` });
      },
    };
  }

  /**
   * `/compact [instructions]` and `/clear`: handled by the session, not the model. The turn ends
   * with a result saying what happened; `/clear` starts the conversation over in the same
   * session (the file keeps what came before).
   */
  private async runSessionCommand(
    command: { name: "compact" | "clear"; args: string },
    emit: (event: AgentEvent) => void,
    signal: AbortSignal,
    startedAt: number,
    permissionDenials: ResultEvent["permission_denials"],
  ): Promise<ResultEvent> {
    const history = this.input.history;
    let outcome: TurnOutcome;
    if (command.name === "clear") {
      const before = history.length;
      history.length = 0;
      this.toolState.delete(LOADED_SKILLS_KEY);
      // Claude Code ends the old conversation and starts a new one: SessionEnd, then SessionStart.
      await runSessionEndHooks(this.hooks, this.hookBase(), "clear");
      // Their `continue: false` is not honoured here: the conversation is cleared already, and this turn does nothing more.
      this.startContext.push(...(await runSessionStartHooks(this.hooks, this.hookBase(), "clear", this.currentModel, signal)).context);
      this.persist("compaction", () => this.input.store?.appendCompaction("clear", 0, 0, []), emit);
      outcome = { terminalReason: "completed", stopReason: null, numTurns: 0, resultText: `Cleared the conversation (${before} messages); the session goes on from here.` };
    } else {
      const state = history.length === 0 ? "unchanged" : await this.contextKeeper.compact(history, { trigger: "manual", instructions: command.args || undefined, force: true }, signal, emit);
      outcome =
        state === "compacted"
          ? { terminalReason: "completed", stopReason: null, numTurns: 0, resultText: "Compacted the conversation." }
          : state === "unchanged"
            ? { terminalReason: "completed", stopReason: null, numTurns: 0, resultText: "Nothing to compact yet." }
            : { terminalReason: "api_error", stopReason: null, numTurns: 0, resultText: "", error: { kind: "unknown", status: null, message: "Compacting the conversation failed; it is unchanged." } };
    }
    this.persist("turn_end", () => this.input.store?.appendTurnEnd(this.input.accounting.totalCostUsd(), this.input.accounting.modelUsageSnapshot()), emit);
    // No model turn ran: as Claude Code, the result reports no usage, and the summary's tokens and
    // cost show in modelUsage and total_cost_usd only. Hosts rely on it: Yume's backend takes a
    // result with zero usage for a finished compaction and resets its context meter.
    this.input.accounting.startTurn();
    const result = this.withPersistence(
      buildResultEvent(outcome, { sessionId: this.sessionId, durationMs: Date.now() - startedAt, accounting: this.input.accounting, maxTurns: this.input.maxTurns, maxBudgetUsd: this.input.maxBudgetUsd, permissionDenials, newUuid: randomUUID }),
    );
    this.input.onEvent(result);
    return result;
  }

  /** The instructions of the skills loaded this session, for what survives a summary. */
  private async loadedSkillInstructions(): Promise<string[]> {
    const loaded = this.toolState.get(LOADED_SKILLS_KEY) as Set<string> | undefined;
    if (!loaded || loaded.size === 0) return [];
    const { skills } = await this.input.skills.load();
    const bodies = await Promise.all(skills.filter((skill) => loaded.has(skill.name)).map((skill) => skillInstructions(skill, undefined).catch(() => "")));
    return bodies.filter((body) => body !== "").map((body) => `# A skill loaded earlier in this session\n\n${body}`);
  }

  /** `--max-budget-usd`: what this process has spent (a resumed session's earlier cost is not counted). */
  private budgetSpent(): (() => boolean) | undefined {
    const budget = this.input.maxBudgetUsd;
    if (budget === undefined) return undefined;
    return () => this.input.accounting.totalCostUsd() - this.costAtStart >= budget;
  }

  /** Questions the policy leaves open go to the approver; its "always allow" updates apply to the session. */
  private hostApproval(): HostApproval | undefined {
    const approve = this.input.approve;
    if (!approve) return undefined;
    return async (call, verdict, signal) => {
      // Notification hooks hear that someone must answer; the question does not wait for them.
      const notifying = runNotificationHooks(this.hooks, this.hookBase(), { message: `agentwire needs your permission to use ${call.name}`, notificationType: "permission_prompt" });
      this.notifications.add(notifying);
      void notifying.finally(() => this.notifications.delete(notifying));
      const answer = await approve(
        {
          toolName: call.name,
          toolUseId: call.id,
          input: call.input,
          description: describeCall(call),
          reason: verdict.reason,
          reasonType: verdict.reasonType,
          suggestions: [{ type: "addRules", rules: [{ toolName: call.name }], behavior: "allow", destination: "session" }],
        },
        signal,
      );
      return this.applyAnswer(answer);
    };
  }

  private applyAnswer(answer: PermissionResult): PermissionDecision {
    if (answer.updatedPermissions?.length) {
      const before = this.permissions.mode;
      this.permissions = applyPermissionUpdates(this.permissions, answer.updatedPermissions);
      if (this.permissions.mode !== before) this.setPermissionMode(this.permissions.mode);
    }
    if (answer.behavior === "deny") {
      if (answer.interrupt) this.interrupt();
      return { allow: false, message: answer.message };
    }
    return { allow: true, ...(answer.updatedInput ? { updatedInput: answer.updatedInput } : {}) };
  }

  /** Common fields of every hook input, as Claude Code sends them. */
  private hookBase(): Record<string, unknown> {
    return { session_id: this.sessionId, transcript_path: this.transcriptPath ?? "", cwd: this.cwd, permission_mode: this.permissions.mode };
  }

  /**
   * Appends to the session file. The first failure (a full disk, an AGENTWIRE_HOME that is a file
   * or read-only) is reported once as a warning and ends persistence for the session: the turn
   * goes on, nothing retries a failing mkdir per message, and each result says the session was
   * not saved.
   */
  private persist(entry: "message" | "turn_end" | "compaction", write: () => void, emit: (event: AgentEvent) => void): void {
    const store = this.input.store;
    if (!store || this.persistenceFailure !== undefined) return;
    try {
      write();
      this.input.log.debug({ file: store.file, entry }, "session write");
    } catch (error) {
      this.persistenceFailure = (error as Error).message;
      this.input.log.debug({ err: error }, "could not append to the session file");
      emit({
        type: "warning",
        code: "session_not_persisted",
        message: `The session is not being saved and cannot be resumed: could not write ${store.file}: ${this.persistenceFailure}`,
      });
    }
  }

  private withPersistence(result: ResultEvent): ResultEvent {
    return this.persistenceFailure === undefined ? result : { ...result, session_persisted: false };
  }
}

/** The prompt with the SessionStart hooks' context before it. */
function withStartContext(prompt: UserMessage, context: readonly string[]): UserMessage {
  if (context.length === 0) return prompt;
  return { ...prompt, content: [{ type: "text", text: context.join("\n\n") }, ...prompt.content] };
}

/** `/compact [instructions]` or `/clear` as the whole prompt, or undefined. */
function sessionCommand(prompt: UserMessage): { name: "compact" | "clear"; args: string } | undefined {
  if (prompt.content.length !== 1 || prompt.content[0]!.type !== "text") return undefined;
  const match = /^\/(compact|clear)(?:\s+([\s\S]*))?$/.exec(prompt.content[0]!.text.trim());
  return match ? { name: match[1] as "compact" | "clear", args: match[2]?.trim() ?? "" } : undefined;
}

/** A one-line description of a call for permission prompts. */
function describeCall(call: ToolUseBlock): string {
  const input = call.input;
  const subject = input.command ?? input.file_path ?? input.path ?? input.pattern;
  return typeof subject === "string" ? subject : call.name;
}

const silentLogger: SessionLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** `tools` with `added` after them, each replacing a same-named one. */
function withTools(tools: readonly ToolDefinition[], added: readonly ToolDefinition[]): ToolDefinition[] {
  return [...tools.filter((tool) => !added.some((other) => other.name === tool.name)), ...added];
}
