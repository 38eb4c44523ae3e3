import { randomUUID } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { SetPermissionModeCommandSchema } from "../../protocol/commands.js";
import type { OutputEvent, ResultEvent, SystemInitEvent } from "../../protocol/events.js";
import { PROTOCOL_VERSION } from "../../protocol/version.js";
import type { AgentEvent } from "../agent/events.js";
import { runTurn, type LoopDependencies, type PermissionDecision, type TurnSettings } from "../agent/loop.js";
import type { Message, ToolUseBlock, UserMessage } from "../conversation/messages.js";
import { exponentialBackoff } from "../agent/retry-policy.js";
import { SessionAccounting } from "../agent/turn-accounting.js";
import { runToolCall } from "../agent/tool-runner.js";
import type { RunConfig } from "../config.js";
import type { Logger } from "../log.js";
import { hasKnownPrice, modelLimits } from "../providers/models.js";
import { isLocalServer } from "../providers/registry.js";
import type { Provider } from "../providers/types.js";
import type { ToolContext, ToolDefinition } from "../tools/define-tool.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { isSameOrInside } from "../paths/real-path.js";
import { findTool, toolInputJsonSchema } from "../tools/registry.js";
import type { SessionStore } from "../sessions/store.js";
import { AGENTWIRE_VERSION } from "../version.js";
import type { PermissionMode, PermissionRules } from "../permissions/policy.js";
import { parseRule, targetPath, type PermissionRule } from "../permissions/rules.js";
import type { HostChannel } from "./host-channel.js";
import type { HostHooks } from "./host-hooks.js";
import type { SdkMcpServer } from "./sdk-mcp-tools.js";
import { buildApiErrorAssistantEvent, buildFailureResult, buildResultEvent } from "./result.js";
import { createToolAuthorizer, type HostApproval } from "./tool-authorizer.js";
import { createTranslationState, toStreamJson } from "./stream-json.js";

export interface SessionOptions {
  config: RunConfig;
  sessionId: string;
  systemPrompt: string;
  provider: Provider;
  tools: ToolDefinition[];
  apiKeySource: string;
  /** Conversation so far (empty for a new session). */
  history: Message[];
  accounting: SessionAccounting;
  /** Undefined when persistence is off. */
  store: SessionStore | undefined;
  /** Receives every stdout event of the session. */
  output: (event: OutputEvent) => void;
  log: Logger;
  maxRetries: number;
  /** Permission rules (from --allowedTools / --disallowedTools) and workspace roots (cwd first). */
  permissions: { rules: PermissionRules; roots: string[] };
  /** Private directory for tool output files (Bash's full output); the caller removes it at exit. */
  toolOutputDirectory: string;
  /**
   * Who answers permission questions: the host over the control protocol (`can_use_tool`, with
   * --permission-prompt-tool stdio), the host over agentwire's simple frames
   * (`system/permission_request` → `tool_approval`), or nobody (questions are denied at once).
   */
  approvals: "control" | "frames" | "none";
  /** Control requests to the host; present when stdin carries stream-json. */
  host: HostChannel | undefined;
}

/**
 * A conversation: runs user turns one at a time, turning loop events into protocol lines,
 * persisting committed messages, and closing every turn with exactly one `result`.
 */
export class AgentSession {
  private readonly history: Message[];
  private readonly unpricedModelsWarned = new Set<string>();
  private readonly sessionState = new Map<string, unknown>();
  private currentTurn: AbortController | undefined;
  private turnDone: Promise<unknown> = Promise.resolve();
  private permissionMode: PermissionMode;
  private model: string;
  private maxThinkingTokens: number | undefined;
  private hooks: HostHooks | undefined;
  private readonly pendingApprovals = new Map<string, (decision: PermissionDecision) => void>();
  private approvalsClosed = false;
  private closed = false;
  private permissionDenials: ResultEvent["permission_denials"] = [];
  private tools: ToolDefinition[];
  private readonly mcpServers: string[] = [];

  constructor(private readonly options: SessionOptions) {
    this.history = options.history;
    this.permissionMode = options.config.permissionMode;
    this.model = options.config.model;
    this.maxThinkingTokens = options.config.maxThinkingTokens;
    this.tools = options.tools;
  }

  /** Tools of in-process MCP servers of the host; offered from the next model request on. */
  addMcpServers(servers: SdkMcpServer[]): void {
    for (const server of servers) {
      this.mcpServers.push(server.name);
      this.tools = [...this.tools.filter((tool) => !server.tools.some((added) => added.name === tool.name)), ...server.tools];
    }
  }

  /** set_permission_mode: applies to the next permission decision, also mid-turn. */
  setPermissionMode(mode: PermissionMode): void {
    this.permissionMode = mode;
    this.options.output({ type: "system", subtype: "status", status: null, permissionMode: mode, session_id: this.sessionId, uuid: randomUUID() });
  }

  /** set_model: takes effect with the next model request. */
  setModel(model: string): void {
    this.model = model;
  }

  setMaxThinkingTokens(tokens: number | undefined): void {
    this.maxThinkingTokens = tokens;
  }

  /** Hooks registered by the host at initialize. */
  setHooks(hooks: HostHooks): void {
    this.hooks = hooks;
  }

  /**
   * stdin reached EOF: open approval questions can never be answered, so they are denied now,
   * and later ones at once.
   */
  closeApprovals(): void {
    this.approvalsClosed = true;
    for (const [id, resolve] of this.pendingApprovals) {
      this.pendingApprovals.delete(id);
      resolve({ allow: false, message: "The host closed its input before answering; the call was not approved." });
    }
  }

  /** No further turns may start (SIGTERM): queued messages are dropped, the running turn ends. */
  close(): void {
    this.closed = true;
    this.interrupt();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** A `tool_approval` frame; returns false when no question with that id is open. */
  answerApproval(id: string, decision: PermissionDecision): boolean {
    const resolve = this.pendingApprovals.get(id);
    if (!resolve) return false;
    this.pendingApprovals.delete(id);
    resolve(decision);
    return true;
  }

  get currentModel(): string {
    return this.model;
  }

  get currentPermissionMode(): PermissionMode {
    return this.permissionMode;
  }

  /** MCP servers and their state, for mcp_status. */
  mcpServerStatus(): Array<{ name: string; status: string }> {
    return this.mcpServers.map((name) => ({ name, status: "connected" }));
  }

  get sessionId(): string {
    return this.options.sessionId;
  }

  get busy(): boolean {
    return this.currentTurn !== undefined;
  }

  /** Resolves when no turn is running. */
  whenIdle(): Promise<void> {
    return this.turnDone.then(() => undefined);
  }

  /** Stops the running turn, if any. Its `result` is still emitted by `runTurn`. */
  interrupt(): boolean {
    if (!this.currentTurn) return false;
    this.currentTurn.abort();
    return true;
  }

  initEvent(): SystemInitEvent {
    const { config } = this.options;
    return {
      type: "system",
      subtype: "init",
      cwd: config.cwd,
      session_id: this.sessionId,
      tools: this.tools.map((tool) => tool.name),
      mcp_servers: this.mcpServerStatus(),
      model: this.model,
      provider: this.options.provider.id,
      permissionMode: this.permissionMode,
      slash_commands: [],
      apiKeySource: this.options.apiKeySource,
      output_style: "default",
      agents: [],
      skills: [],
      plugins: [],
      protocol_version: PROTOCOL_VERSION,
      agentwire_version: AGENTWIRE_VERSION,
      uuid: randomUUID(),
    };
  }

  runTurn(prompt: UserMessage): Promise<ResultEvent> {
    const turn = this.runOneTurn(prompt);
    this.turnDone = turn.catch(() => undefined);
    return turn;
  }

  private async runOneTurn(prompt: UserMessage): Promise<ResultEvent> {
    const { config, output, accounting } = this.options;
    const controller = new AbortController();
    this.currentTurn = controller;
    const startedAt = Date.now();
    accounting.startTurn();
    const translationState = createTranslationState();
    const translationContext = {
      sessionId: this.sessionId,
      includePartialMessages: config.includePartialMessages,
      newUuid: randomUUID,
      now: Date.now,
    };
    this.permissionDenials = [];
    const emit = (event: AgentEvent): void => {
      if (event.type === "message_committed") this.persist(event.message);
      if (event.type === "tool_permission_denied") {
        this.permissionDenials.push({ tool_name: event.toolName, tool_use_id: event.toolUseId, tool_input: event.input });
      }
      for (const line of toStreamJson(event, translationState, translationContext)) output(line);
    };
    try {
      const submitted = await this.runUserPromptSubmitHooks(prompt, controller.signal);
      if (!submitted.allow) {
        const blocked = buildFailureResult({
          sessionId: this.sessionId,
          terminalReason: "hook_blocked",
          message: submitted.message,
          durationMs: Date.now() - startedAt,
          newUuid: randomUUID,
        });
        output(blocked);
        return blocked;
      }
      const outcome = await runTurn(this.history, submitted.prompt, this.turnSettings(), this.loopDependencies(emit), controller.signal).catch(
        (error: unknown) => {
          // A bug must still end the turn with a result, never a silent hang.
          this.options.log.error({ err: error }, "turn failed");
          return undefined;
        },
      );
      if (!outcome) {
        const failure = buildFailureResult({
          sessionId: this.sessionId,
          terminalReason: "internal_error",
          message: "agentwire hit an internal error during this turn; see stderr.",
          durationMs: Date.now() - startedAt,
          newUuid: randomUUID,
        });
        output(failure);
        return failure;
      }
      if (outcome.terminalReason === "api_error") {
        output(buildApiErrorAssistantEvent(outcome, { sessionId: this.sessionId, newUuid: randomUUID, now: Date.now }));
      }
      const result = buildResultEvent(outcome, {
        sessionId: this.sessionId,
        durationMs: Date.now() - startedAt,
        accounting,
        maxTurns: config.maxTurns,
        permissionDenials: this.permissionDenials,
        newUuid: randomUUID,
      });
      this.persistTurnEnd();
      output(result);
      return result;
    } finally {
      this.currentTurn = undefined;
    }
  }

  private turnSettings(): TurnSettings {
    const { config } = this.options;
    const tools = this.tools;
    return {
      model: this.model,
      system: this.options.systemPrompt,
      maxTurns: config.maxTurns,
      maxOutputTokens: Math.min(modelLimits(this.model).maxOutputTokens, 32_000),
      thinkingBudgetTokens: this.maxThinkingTokens,
      sessionId: this.sessionId,
      toolSpecs: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: toolInputJsonSchema(tool) })),
    };
  }

  /**
   * A model without a list price costs 0 in `total_cost_usd`; say so once per session and model,
   * so a consumer does not take the 0 for a real figure. Local servers are free: no warning.
   */
  private warnOnUnknownPrice(model: string, emit: (event: AgentEvent) => void): void {
    if (hasKnownPrice(model) || isLocalServer(this.options.config.provider) || this.unpricedModelsWarned.has(model)) return;
    this.unpricedModelsWarned.add(model);
    emit({ type: "warning", code: "unknown_model_price", message: `No list price is known for model ${model}; its cost is counted as 0 USD (tokens are still reported).` });
  }

  /**
   * What a tool call may touch. Built per call, because the permission mode can change mid-turn.
   * Paths outside the roots are refused by the tools unless permissions bypass the check, or the
   * call names such a path itself: then it only got here through an explicit approval (a rule,
   * the host, or a mode that allows it), since the permission policy asks for outside paths. A
   * path that merely resolves outside (through a symlink) is still refused.
   */
  private toolContext(call: ToolUseBlock, signal: AbortSignal, emit: (event: AgentEvent) => void): ToolContext {
    const { config, permissions } = this.options;
    const target = targetPath({ toolName: call.name, input: call.input, cwd: config.cwd });
    const namesOutsidePath = target !== undefined && !permissions.roots.some((root) => isSameOrInside(target, root));
    return {
      cwd: config.cwd,
      signal,
      sessionState: this.sessionState,
      workspace: { roots: permissions.roots, allowOutside: this.permissionMode === "bypassPermissions" || namesOutsidePath },
      outputDirectory: this.options.toolOutputDirectory,
      // Until providers declare capabilities, only the Anthropic Messages API is known to take
      // images inside tool results.
      imageInput: this.options.provider.id === "anthropic",
      log: this.options.log,
      onProgress: (progress) => emit({ type: "tool_progress", toolUseId: call.id, toolName: call.name, ...progress }),
    };
  }

  private loopDependencies(emit: (event: AgentEvent) => void): LoopDependencies {
    const { accounting } = this.options;
    const tools = this.tools;
    const isReadOnlyTool = (name: string): boolean => findTool(tools, name)?.readOnly ?? false;
    return {
      provider: this.options.provider,
      retryPolicy: exponentialBackoff(this.options.maxRetries),
      emit,
      sleep: abortableSleep,
      now: Date.now,
      onUsage: (usage, model) => {
        accounting.addUsage(usage, model);
        this.warnOnUnknownPrice(model, emit);
      },
      onApiTime: (ms) => accounting.addApiTime(ms),
      runTool: async (call, signal) => this.runPostToolUseHooks(call, await runToolCall(call, tools, this.toolContext(call, signal, emit)), signal),
      beforeStop: (resultText, alreadyContinued) => this.runStopHooks(resultText, alreadyContinued),
      authorizeToolCall: createToolAuthorizer({
        mode: () => this.permissionMode,
        rules: this.options.permissions.rules,
        roots: this.options.permissions.roots,
        isReadOnlyTool,
        askHost: this.hostApproval(),
        hooks: this.hooks,
        hookBase: () => this.hookBase(),
      }),
      isReadOnlyTool,
    };
  }

  /**
   * UserPromptSubmit: a hook may block the prompt (the turn ends with an error result and no
   * model request) or add context, which is appended to the prompt.
   */
  private async runUserPromptSubmitHooks(prompt: UserMessage, signal: AbortSignal): Promise<{ allow: true; prompt: UserMessage } | { allow: false; message: string }> {
    if (!this.hooks?.has("UserPromptSubmit")) return { allow: true, prompt };
    const text = prompt.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
    const { outputs, undelivered } = await this.hooks.run("UserPromptSubmit", { ...this.hookBase(), prompt: text, source: "sdk" }, { signal });
    if (undelivered > 0) return { allow: false, message: "The prompt was not run: a UserPromptSubmit hook registered by the host could not be asked (the host is gone)." };
    const blocking = outputs.find((output) => output.decision === "block" || output.continue === false);
    if (blocking) return { allow: false, message: `The prompt was blocked by a UserPromptSubmit hook: ${blocking.reason ?? blocking.stopReason ?? "no reason given"}` };
    const context = outputs.flatMap((output) => (output.hookSpecificOutput?.additionalContext ? [output.hookSpecificOutput.additionalContext] : []));
    return { allow: true, prompt: context.length === 0 ? prompt : { ...prompt, content: [...prompt.content, { type: "text", text: context.join("\n") }] } };
  }

  /** PostToolUse: informs the host; added context reaches the model with the result. */
  private async runPostToolUseHooks(call: ToolUseBlock, result: ToolResult, signal: AbortSignal): Promise<ToolResult> {
    if (!this.hooks?.has("PostToolUse")) return result;
    const { outputs } = await this.hooks.run(
      "PostToolUse",
      { ...this.hookBase(), tool_name: call.name, tool_input: call.input, tool_response: result.details ?? result.content, tool_use_id: call.id },
      { toolName: call.name, toolUseId: call.id, signal },
    );
    const notes = outputs.flatMap((output) => [output.hookSpecificOutput?.additionalContext, output.decision === "block" ? output.reason : undefined].filter((note): note is string => Boolean(note)));
    if (notes.length === 0 || typeof result.content !== "string") return result;
    return { ...result, content: `${result.content}\n\n${notes.join("\n")}` };
  }

  /** Stop: a hook answering `decision: "block"` with a reason keeps the turn going with that reason. */
  private async runStopHooks(resultText: string, alreadyContinued: boolean): Promise<string | undefined> {
    if (!this.hooks?.has("Stop")) return undefined;
    const { outputs } = await this.hooks.run(
      "Stop",
      { ...this.hookBase(), stop_hook_active: alreadyContinued, last_assistant_message: resultText },
      this.currentTurn ? { signal: this.currentTurn.signal } : {},
    );
    return outputs.find((output) => output.decision === "block" && output.reason)?.reason;
  }

  /** The host's "always allow / deny" answers become session rules (and mode or root changes). */
  private applyPermissionUpdates(updates: Array<z.infer<typeof PermissionUpdateSchema>>): void {
    const { rules, roots } = this.options.permissions;
    for (const update of updates) {
      switch (update.type) {
        case "addRules":
        case "replaceRules":
        case "removeRules": {
          const changed = update.rules.map((rule) => parseRule(rule.ruleContent === undefined ? rule.toolName : `${rule.toolName}(${rule.ruleContent})`));
          const current = rules[update.behavior];
          rules[update.behavior] =
            update.type === "addRules"
              ? [...current, ...changed]
              : update.type === "replaceRules"
                ? changed
                : current.filter((rule) => !changed.some((gone) => sameRule(gone, rule)));
          break;
        }
        case "setMode":
          this.setPermissionMode(update.mode);
          break;
        case "addDirectories":
          roots.push(...update.directories.map((directory) => path.resolve(this.options.config.cwd, directory)).filter((directory) => !roots.includes(directory)));
          break;
        case "removeDirectories":
          // The working directory always stays a root.
          for (const directory of update.directories) {
            const index = roots.indexOf(path.resolve(this.options.config.cwd, directory));
            if (index > 0) roots.splice(index, 1);
          }
          break;
      }
    }
  }

  /** Common fields of every hook input, as Claude Code sends them. */
  private hookBase(): Record<string, unknown> {
    return {
      session_id: this.sessionId,
      transcript_path: this.options.store?.file ?? "",
      cwd: this.options.config.cwd,
      permission_mode: this.permissionMode,
    };
  }

  private hostApproval(): HostApproval | undefined {
    const { host, approvals } = this.options;
    if (approvals === "control" && host) {
      return async (call, verdict, signal) => {
        const answer = await host.request(
          "can_use_tool",
          {
            tool_name: call.name,
            display_name: call.name,
            input: call.input,
            tool_use_id: call.id,
            description: describeCall(call),
            decision_reason: verdict.reason,
            decision_reason_type: verdict.reasonType,
            permission_suggestions: [{ type: "addRules", rules: [{ toolName: call.name }], behavior: "allow", destination: "session" }],
          },
          signal,
        );
        const parsed = CanUseToolAnswerSchema.safeParse(answer);
        if (!parsed.success) return { allow: false, message: `The host's answer to can_use_tool was not understood: ${parsed.error.issues[0]?.message ?? ""}` };
        this.applyPermissionUpdates(parsed.data.updatedPermissions ?? []);
        if (parsed.data.behavior === "deny") {
          if (parsed.data.interrupt) this.interrupt();
          return { allow: false, message: parsed.data.message };
        }
        return { allow: true, ...(parsed.data.updatedInput ? { updatedInput: parsed.data.updatedInput } : {}) };
      };
    }
    if (approvals === "frames") {
      return (call, verdict, signal) =>
        new Promise((resolve) => {
          if (signal.aborted) return resolve({ allow: false, message: "Interrupted before approval." });
          if (this.approvalsClosed) return resolve({ allow: false, message: "The host closed its input; nobody can approve this call." });
          const onAbort = (): void => {
            this.pendingApprovals.delete(call.id);
            resolve({ allow: false, message: "Interrupted before approval." });
          };
          signal.addEventListener("abort", onAbort, { once: true });
          this.pendingApprovals.set(call.id, (decision) => {
            signal.removeEventListener("abort", onAbort);
            resolve(decision);
          });
          this.options.output({
            type: "system",
            subtype: "permission_request",
            id: call.id,
            tool_name: call.name,
            input: call.input,
            reason: verdict.reason,
            session_id: this.sessionId,
            uuid: randomUUID(),
          });
        });
    }
    return undefined;
  }

  private persistTurnEnd(): void {
    try {
      this.options.store?.appendTurnEnd(this.options.accounting.totalCostUsd(), this.options.accounting.modelUsageSnapshot());
    } catch (error) {
      this.options.log.error({ err: error }, "could not append to the session file");
    }
  }

  private persist(message: Message): void {
    try {
      this.options.store?.appendMessage(message);
    } catch (error) {
      // A full disk must not kill the turn; the consumer still gets its result.
      this.options.log.error({ err: error }, "could not append to the session file");
    }
  }
}

/**
 * Claude Code's PermissionUpdate, as a host sends it with an answer ("always allow"). Updates
 * for other destinations (user/project settings files) apply to this session too: agentwire
 * keeps no settings files.
 */
const PermissionUpdateSchema = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.enum(["addRules", "replaceRules", "removeRules"]),
    rules: z.array(z.looseObject({ toolName: z.string().min(1), ruleContent: z.string().optional() })),
    behavior: z.enum(["allow", "deny", "ask"]),
  }),
  z.looseObject({ type: z.literal("setMode"), mode: SetPermissionModeCommandSchema.shape.mode }),
  z.looseObject({ type: z.enum(["addDirectories", "removeDirectories"]), directories: z.array(z.string()) }),
]);

/** The Agent SDK's PermissionResult, as answered to can_use_tool. */
const CanUseToolAnswerSchema = z.discriminatedUnion("behavior", [
  z.looseObject({ behavior: z.literal("allow"), updatedInput: z.record(z.string(), z.unknown()).optional(), updatedPermissions: z.array(PermissionUpdateSchema).optional() }),
  z.looseObject({
    behavior: z.literal("deny"),
    message: z.string().default("Denied by the host."),
    interrupt: z.boolean().optional(),
    updatedPermissions: z.array(PermissionUpdateSchema).optional(),
  }),
]);

function sameRule(a: PermissionRule, b: PermissionRule): boolean {
  return a.toolName === b.toolName && a.content === b.content;
}

/** A one-line description of a call for permission prompts. */
function describeCall(call: ToolUseBlock): string {
  const input = call.input;
  const subject = input.command ?? input.file_path ?? input.path ?? input.pattern;
  return typeof subject === "string" ? subject : call.name;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
