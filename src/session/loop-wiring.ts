import { setTimeout as sleep } from "node:timers/promises";
import type { AgentEvent } from "../agent/events.js";
import type { LoopDependencies, ToolApproval, TurnSettings } from "../agent/loop.js";
import type { DebugLog } from "../agent/model-call.js";
import { exponentialBackoff } from "../agent/retry-policy.js";
import { rejectMalformedToolCall, runToolCall } from "../agent/tool-runner.js";
import type { SessionAccounting } from "./turn-accounting.js";
import type { ToolUseBlock } from "../conversation/messages.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { isSameOrInside } from "../paths/real-path.js";
import { hasKnownPrice, modelLimits } from "../providers/models.js";
import type { Provider, ProviderRequest } from "../providers/types.js";
import { targetPath } from "../permissions/rules.js";
import type { PermissionState } from "../permissions/permission-updates.js";
import type { ToolContext, ToolDefinition, ToolLog } from "../tools/define-tool.js";
import { findTool, toolInputJsonSchema } from "../tools/registry.js";
import type { ReadOnlyConfinement } from "../tools/sandbox/confinement.js";
import type { SandboxSettings } from "../tools/sandbox/sandbox-settings.js";

/**
 * The most output tokens agentwire asks for in one response, whatever more the model allows:
 * Claude Code's own default cap. Longer answers continue automatically (see OUTPUT_LIMIT_NUDGE).
 */
export const MAX_OUTPUT_TOKENS_CAP = 32_000;

/** What one turn of the loop is set up from: the session's state at the start of the turn. */
export interface TurnWiring {
  sessionId: string;
  cwd: string;
  model: string;
  systemPrompt: string;
  maxTurns: number | undefined;
  maxThinkingTokens: number | undefined;
  maxRetries: number;
  streamIdleTimeoutMs: number;
  provider: Provider;
  /** Read at each use: the session's tools as they are now (MCP servers may join mid-turn). */
  tools: () => readonly ToolDefinition[];
  accounting: SessionAccounting;
  /** Read per call: the mode, rules and roots can change mid-turn. */
  permissions: () => PermissionState;
  toolOutputDirectory: string;
  /** Bash's sandbox, when the session has one. */
  sandbox: SandboxSettings | undefined;
  /** Credential variables passed to tools' child processes on purpose (`--pass-env`). */
  passEnv: readonly string[];
  /** The settings files' `env`, for the processes tools start. */
  settingsEnv: Readonly<Record<string, string>>;
  /** How commands approved only by the read-only judgement are confined. */
  confinement: ReadOnlyConfinement;
  /** Per-session state tools keep between calls (Bash's working directory). */
  toolState: Map<string, unknown>;
  log: ToolLog;
  /** Debug diagnostics: requests, responses, tool calls, permission decisions. */
  debugLog: DebugLog;
  emit: (event: AgentEvent) => void;
  authorizeToolCall: LoopDependencies["authorizeToolCall"];
  /** Runs after each tool call (PostToolUse hooks); may add to the result. */
  afterToolCall: (call: ToolUseBlock, result: ToolResult, signal: AbortSignal) => Promise<ToolResult>;
  beforeStop: LoopDependencies["beforeStop"];
  hookStopped: LoopDependencies["hookStopped"];
  /** Once per session and model: a model without a list price is counted as 0 USD. */
  onUnpricedModel: (model: string) => void;
  /** `--max-budget-usd`: whether the budget is spent. */
  budgetSpent: (() => boolean) | undefined;
  maintainContext: LoopDependencies["maintainContext"];
  structuredOutput: LoopDependencies["structuredOutput"];
  /** For a local model with a small known window: the warning for a request that will not fit. */
  contextFit: ((request: ProviderRequest) => string | undefined) | undefined;
}

export function turnSettings(wiring: TurnWiring): TurnSettings {
  return {
    model: wiring.model,
    system: wiring.systemPrompt,
    maxTurns: wiring.maxTurns,
    maxOutputTokens: Math.min(modelLimits(wiring.model).maxOutputTokens, MAX_OUTPUT_TOKENS_CAP),
    thinkingBudgetTokens: wiring.maxThinkingTokens,
    sessionId: wiring.sessionId,
    toolSpecs: () => wiring.tools().map((tool) => ({ name: tool.name, description: tool.description, inputSchema: toolInputJsonSchema(tool) })),
  };
}

export function loopDependencies(wiring: TurnWiring): LoopDependencies {
  const { accounting, tools, provider, debugLog } = wiring;
  const isReadOnlyTool = (name: string): boolean => findTool(tools(), name)?.kind === "read";
  return {
    provider,
    retryPolicy: exponentialBackoff(wiring.maxRetries),
    streamIdleTimeoutMs: wiring.streamIdleTimeoutMs,
    ...(wiring.budgetSpent ? { budgetSpent: wiring.budgetSpent } : {}),
    ...(wiring.maintainContext ? { maintainContext: wiring.maintainContext } : {}),
    ...(wiring.structuredOutput ? { structuredOutput: wiring.structuredOutput } : {}),
    ...(wiring.contextFit
      ? {
          beforeRequest: (request: ProviderRequest) => {
            const warning = wiring.contextFit!(request);
            if (warning) wiring.emit({ type: "warning", code: "context_window_exceeded", message: warning });
          },
        }
      : {}),
    emit: wiring.emit,
    // An interrupt ends the wait early; the loop then sees the aborted signal.
    sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined),
    now: Date.now,
    onUsage: (usage, model) => {
      accounting.addUsage(usage, model);
      if (provider.capabilities?.meteredBilling && !hasKnownPrice(model)) wiring.onUnpricedModel(model);
    },
    onApiTime: (ms) => accounting.addApiTime(ms),
    runTool: async (call, signal, approval) => {
      const startedAt = Date.now();
      debugLog.debug({ tool: call.name, toolUseId: call.id, judgedReadOnly: approval.judgedReadOnly }, "tool start");
      const result = await wiring.afterToolCall(call, await runToolCall(call, tools(), toolContext(wiring, call, signal, approval)), signal);
      debugLog.debug({ tool: call.name, toolUseId: call.id, ms: Date.now() - startedAt, isError: result.isError, code: result.code }, "tool end");
      return result;
    },
    beforeStop: wiring.beforeStop,
    ...(wiring.hookStopped ? { hookStopped: wiring.hookStopped } : {}),
    rejectMalformedCall: (call) => rejectMalformedToolCall(call, tools()),
    authorizeToolCall: async (call, signal) => {
      const decision = await wiring.authorizeToolCall(call, signal);
      debugLog.debug({ tool: call.name, toolUseId: call.id, allow: decision.allow, ...(decision.allow ? {} : { reason: decision.message }) }, "permission decision");
      return decision;
    },
    log: debugLog,
    isReadOnlyTool,
  };
}

/**
 * What a tool call may touch. Built per call, because the permission mode can change mid-turn.
 * Paths outside the roots are refused by the tools unless permissions bypass the check, or the
 * call names such a path itself: then it only got here through an explicit approval (a rule,
 * the host, or a mode that allows it), since the permission policy asks for outside paths. A
 * path that merely resolves outside (through a symlink) is still refused. Files with several
 * hard links may be changed only when the call itself was approved (see WorkspacePolicy).
 */
function toolContext(wiring: TurnWiring, call: ToolUseBlock, signal: AbortSignal, approval: ToolApproval): ToolContext {
  const { mode, roots } = wiring.permissions();
  const target = targetPath({ toolName: call.name, input: call.input, cwd: wiring.cwd, traits: findTool(wiring.tools(), call.name) ?? { kind: "other" } });
  const namesOutsidePath = target !== undefined && !roots.some((root) => isSameOrInside(target, root));
  return {
    cwd: wiring.cwd,
    signal,
    sessionState: wiring.toolState,
    workspace: { roots, allowOutside: mode === "bypassPermissions" || namesOutsidePath, allowLinkedFiles: mode === "bypassPermissions" || approval.approvedExplicitly },
    outputDirectory: wiring.toolOutputDirectory,
    ...(wiring.sandbox ? { sandbox: wiring.sandbox } : {}),
    passEnv: wiring.passEnv,
    ...(Object.keys(wiring.settingsEnv).length > 0 ? { settingsEnv: wiring.settingsEnv } : {}),
    ...(approval.judgedReadOnly ? { confinement: wiring.confinement } : {}),
    imageInput: wiring.provider.capabilities?.imagesInToolResults === true,
    log: wiring.log,
    onProgress: (progress) => wiring.emit({ type: "tool_progress", toolUseId: call.id, toolName: call.name, ...progress }),
  };
}
