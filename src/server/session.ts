import { randomUUID } from "node:crypto";
import { platform } from "node:os";
import type { OutputEvent, ResultEvent, SystemInitEvent } from "../../protocol/events.js";
import { PROTOCOL_VERSION } from "../../protocol/version.js";
import type { AgentEvent } from "../agent/events.js";
import { runTurn, type LoopDependencies, type TurnSettings } from "../agent/loop.js";
import type { Message, UserMessage } from "../agent/messages.js";
import { exponentialBackoff } from "../agent/retry-policy.js";
import { SessionAccounting } from "../agent/turn-accounting.js";
import { runToolCall } from "../agent/tool-runner.js";
import type { RunConfig } from "../config.js";
import type { Logger } from "../log.js";
import { modelLimits } from "../providers/models.js";
import type { Provider } from "../providers/types.js";
import type { ToolDefinition } from "../tools/define-tool.js";
import { toolInputJsonSchema } from "../tools/registry.js";
import type { SessionStore } from "../sessions/store.js";
import { AGENTWIRE_VERSION } from "../version.js";
import { buildApiErrorAssistantEvent, buildFailureResult, buildResultEvent } from "./result.js";
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
}

/**
 * A conversation: runs user turns one at a time, turning loop events into protocol lines,
 * persisting committed messages, and closing every turn with exactly one `result`.
 */
export class AgentSession {
  private readonly history: Message[];
  private readonly sessionState = new Map<string, unknown>();
  private currentTurn: AbortController | undefined;
  private turnDone: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SessionOptions) {
    this.history = options.history;
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
      tools: this.options.tools.map((tool) => tool.name),
      mcp_servers: [],
      model: config.model,
      provider: this.options.provider.id,
      permissionMode: config.permissionMode,
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
    const emit = (event: AgentEvent): void => {
      if (event.type === "message_committed") this.persist(event.message);
      for (const line of toStreamJson(event, translationState, translationContext)) output(line);
    };
    try {
      const outcome = await runTurn(this.history, prompt, this.turnSettings(), this.loopDependencies(emit), controller.signal).catch(
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
    const { config, tools } = this.options;
    return {
      model: config.model,
      system: this.options.systemPrompt,
      maxTurns: config.maxTurns,
      maxOutputTokens: Math.min(modelLimits(config.model).maxOutputTokens, 32_000),
      thinkingBudgetTokens: config.maxThinkingTokens,
      sessionId: this.sessionId,
      toolSpecs: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: toolInputJsonSchema(tool) })),
    };
  }

  private loopDependencies(emit: (event: AgentEvent) => void): LoopDependencies {
    const { tools, accounting, config } = this.options;
    return {
      provider: this.options.provider,
      retryPolicy: exponentialBackoff(this.options.maxRetries),
      emit,
      sleep: abortableSleep,
      now: Date.now,
      onUsage: (usage, model) => accounting.addUsage(usage, model),
      onApiTime: (ms) => accounting.addApiTime(ms),
      runTool: (call, signal) => runToolCall(call, tools, { cwd: config.cwd, signal, sessionState: this.sessionState }),
      // The permission system arrives with its own issue; until then every call runs.
      authorizeToolCall: async () => ({ allow: true }),
      isReadOnlyTool: (name) => tools.find((tool) => tool.name === name)?.readOnly ?? false,
    };
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
