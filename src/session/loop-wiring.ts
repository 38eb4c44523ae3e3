import { setTimeout as sleep } from "node:timers/promises";
import type { AgentEvent } from "../agent/events.js";
import type { LoopDependencies, ToolApproval, TurnSettings } from "../agent/loop.js";
import { exponentialBackoff } from "../agent/retry-policy.js";
import { toolOffer, withLoadHint } from "../agent/tool-offer.js";
import { rejectMalformedToolCall, runToolCall } from "../agent/tool-runner.js";
import type { Message, ToolUseBlock } from "../conversation/messages.js";
import type { ToolResult } from "../conversation/tool-result.js";
import type { ToolTraits } from "../conversation/tool-traits.js";
import { isSameOrInside } from "../paths/real-path.js";
import { rulesNameHost, targetPath } from "../permissions/rules.js";
import { hasKnownPrice } from "../providers/models.js";
import type { ProviderRequest, Usage } from "../providers/types.js";
import { shellStartDirectory } from "../tools/bash.js";
import type { ToolContext, ToolDefinition } from "../tools/define-tool.js";
import { findTool } from "../tools/registry.js";
import { MAX_STRUCTURED_OUTPUT_RETRIES, STRUCTURED_OUTPUT_TOOL } from "../tools/structured-output-limits.js";
import { runPostToolUseHooks, runStopHooks, type HookStop } from "./hook-runners.js";
import type { ModelProfile } from "./model-profile.js";
import { DEFAULT_MAX_TURNS, type CheckedSessionSettings } from "./session-options.js";
import type { SessionParts } from "./session-parts.js";
import { sideRequester } from "./side-request.js";
import { AGENT_TOOL_NAME } from "./subagent/agent-tool.js";
import { createToolAuthorizer } from "./tool-authorizer.js";
import { webSearchService } from "./web-search-service.js";

/** One turn's own part of the wiring: the rest is the session's (`SessionParts`). */
export interface TurnScope {
  /** The model's profile at the start of the turn. */
  profile: ModelProfile;
  maxThinkingTokens: number | undefined;
  /** `--json-schema`: the StructuredOutput tool, offered beside the session's. */
  outputTool: ToolDefinition | undefined;
  emit: (event: AgentEvent) => void;
  signal: AbortSignal;
  /** A hook's `continue: false` during the turn: noted once, and whether one was. */
  hookStop: { note: (stop: HookStop | undefined) => void; stopped: () => boolean };
  interrupt: () => void;
  /** Runs one Agent call: a subagent nested in this turn. Absent: Agent calls run as any tool. */
  runAgent?: (call: ToolUseBlock, signal: AbortSignal) => Promise<ToolResult>;
  /** Set when this loop is a subagent's: what sets it apart from the main conversation's. */
  nested?: NestedScope;
}

/** A subagent's loop: its own prompt, limits and tools, its requests counted beside the conversation's. */
export interface NestedScope {
  /** The subagent's task id: its permission questions and hook inputs carry it as `agent_id`. */
  agentId: string;
  /** Its agent type, `agent_type` in its hook inputs. */
  agentType: string;
  system: string;
  maxTurns: number;
  /** Its tools, out of the session's as they are now. */
  pickTools: (offered: ToolDefinition[]) => ToolDefinition[];
  /** Each of its model requests' usage (already counted in the session's modelUsage and cost). */
  onUsage: (usage: Usage) => void;
}

/** Read at each use: the session's tools as they are now (MCP servers may join mid-turn). */
function turnTools(parts: SessionParts, turn: TurnScope): ToolDefinition[] {
  const offered = parts.tools.offered();
  if (turn.nested) return turn.nested.pickTools(offered);
  return turn.outputTool ? [...offered, turn.outputTool] : offered;
}

/** A model looping on tool calls must not make thousands of requests; --max-turns overrides. */
export function maxTurnsOf(settings: Pick<CheckedSessionSettings, "maxTurns">): number {
  return settings.maxTurns ?? DEFAULT_MAX_TURNS;
}

export function turnSettings(parts: SessionParts, turn: TurnScope): TurnSettings {
  return {
    model: turn.profile.model,
    system: turn.nested?.system ?? parts.systemPrompt,
    maxTurns: turn.nested?.maxTurns ?? maxTurnsOf(parts.settings),
    maxOutputTokens: turn.profile.maxOutputTokens,
    thinkingBudgetTokens: turn.maxThinkingTokens,
    sessionId: parts.sessionId,
    toolOffer: (history) => toolOffer(turnTools(parts, turn), history),
  };
}

export function loopDependencies(parts: SessionParts, turn: TurnScope): LoopDependencies {
  const { accounting, log, hooks } = parts;
  const { provider } = turn.profile;
  const tools = (): ToolDefinition[] => turnTools(parts, turn);
  // Hooks see which subagent made a call, as Claude Code tells them.
  const nested = turn.nested;
  const hookBase = nested ? () => ({ ...hooks.base(), agent_id: nested.agentId, agent_type: nested.agentType }) : () => hooks.base();
  const authorize = createToolAuthorizer({
    permissions: () => parts.permissions.effective(),
    traitsOf: (name) => findTool(tools(), name) ?? { kind: "other" },
    askHost: parts.permissions.hostApproval(parts.approve, {
      notify: (message) => hooks.notify(message),
      interrupt: turn.interrupt,
      ...(turn.nested ? { agentId: turn.nested.agentId } : {}),
    }),
    hooks: hooks.current,
    hookBase,
    onHookStop: turn.hookStop.note,
    commandDirectory: () => shellStartDirectory(parts.state, parts.cwd),
    projectVouched: parts.settings.trustProject,
    agentwireHome: parts.home,
  });
  const budgetSpent = parts.budget.spent();
  const contextFit = parts.contextFit;
  return {
    provider,
    retryPolicy: exponentialBackoff(parts.settings.maxRetries),
    streamIdleTimeoutMs: parts.settings.streamIdleTimeoutMs,
    ...(budgetSpent ? { budgetSpent } : {}),
    // A subagent's conversation is short-lived and its own: it is neither compacted nor stopped by Stop hooks.
    ...(turn.nested
      ? {}
      : {
          maintainContext: (history: Message[], cause: "threshold" | "overflow", signal: AbortSignal) =>
            parts.contextKeeper.maintain(history, cause, signal, turn.emit),
        }),
    ...(turn.outputTool ? { structuredOutput: { toolName: STRUCTURED_OUTPUT_TOOL, maxRetries: MAX_STRUCTURED_OUTPUT_RETRIES } } : {}),
    ...(contextFit
      ? {
          beforeRequest: (request: ProviderRequest) => {
            const warning = contextFit(request);
            if (warning) turn.emit({ type: "warning", code: "context_window_exceeded", message: warning });
          },
        }
      : {}),
    emit: (event) => {
      // The model has begun a call: the tool may get ready while the rest of the response arrives.
      if (event.type === "model_stream" && event.event.type === "tool_call_start") prepareTool(findTool(tools(), event.event.name));
      turn.emit(event);
    },
    // An interrupt ends the wait early; the loop then sees the aborted signal.
    sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined),
    now: Date.now,
    onUsage: (usage, model) => {
      if (turn.nested) {
        accounting.addSideUsage(usage, model);
        turn.nested.onUsage(usage);
      } else accounting.addUsage(usage, model);
      if (provider.capabilities?.meteredBilling && !hasKnownPrice(model)) parts.budget.noteUnpriced(model, turn.emit);
    },
    onApiTime: (ms) => accounting.addApiTime(ms),
    runTool: async (call, signal, approval) => {
      const startedAt = Date.now();
      log.debug({ tool: call.name, toolUseId: call.id, judgedReadOnly: approval.judgedReadOnly }, "tool start");
      const ran =
        call.name === AGENT_TOOL_NAME && turn.runAgent
          ? await turn.runAgent(call, signal)
          : await runToolCall(call, tools(), toolContext(parts, turn, call, signal, approval));
      const after = await runPostToolUseHooks(hooks.current, hookBase(), call, ran, signal);
      turn.hookStop.note(after.stop);
      const result = after.result;
      log.debug(
        { tool: call.name, toolUseId: call.id, ms: Date.now() - startedAt, isError: result.isError, code: result.code },
        "tool end",
      );
      return result;
    },
    ...(turn.nested
      ? {}
      : {
          beforeStop: async (resultText: string, alreadyContinued: boolean) => {
            const answer = await runStopHooks(hooks.current, hooks.base(), resultText, alreadyContinued, turn.signal);
            turn.hookStop.note(answer.stop);
            return answer.feedback;
          },
        }),
    hookStopped: turn.hookStop.stopped,
    // Background tasks report to the main conversation, which started them; a subagent's loop leaves their news to it.
    ...(turn.nested ? {} : { takeNotifications: () => parts.tasks.takeNotifications() }),
    // A deferred tool not loaded yet runs when its input fits its schema; otherwise the error says how to load it.
    rejectMalformedCall: (call) => withLoadHint(rejectMalformedToolCall(call, tools()), call.name, tools(), parts.history),
    authorizeToolCall: async (call, signal) => {
      const decision = await authorize(call, signal);
      log.debug(
        { tool: call.name, toolUseId: call.id, allow: decision.allow, ...(decision.allow ? {} : { reason: decision.message }) },
        "permission decision",
      );
      return decision;
    },
    log,
    isReadOnlyTool: (name) => findTool(tools(), name)?.kind === "read",
    ...(turn.runAgent ? { isSubagentTool: (name: string) => name === AGENT_TOOL_NAME } : {}),
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
function toolContext(parts: SessionParts, turn: TurnScope, call: ToolUseBlock, signal: AbortSignal, approval: ToolApproval): ToolContext {
  const { mode, roots, rules } = parts.permissions.effective();
  const traits: ToolTraits = findTool(turnTools(parts, turn), call.name) ?? { kind: "other" };
  const target = targetPath({ toolName: call.name, input: call.input, cwd: parts.cwd, traits });
  const namesOutsidePath = target !== undefined && !roots.some((root) => isSameOrInside(target, root));
  return {
    cwd: parts.cwd,
    signal,
    sessionState: parts.state,
    workspace: {
      roots,
      allowOutside: mode === "bypassPermissions" || namesOutsidePath,
      allowLinkedFiles: mode === "bypassPermissions" || approval.approvedExplicitly,
    },
    outputDirectory: parts.outputDirectory,
    toolUseId: call.id,
    backgroundTasks: parts.tasks,
    ...(parts.sandbox ? { sandbox: parts.sandbox } : {}),
    passEnv: parts.settings.passEnv,
    ...(Object.keys(parts.settingsEnv).length > 0 ? { settingsEnv: parts.settingsEnv } : {}),
    ...(approval.judgedReadOnly ? { confinement: parts.confinement } : {}),
    imageInput: turn.profile.provider.capabilities?.imagesInToolResults === true,
    ...(traits.urlField === undefined
      ? {}
      : {
          ruleNamesHost: (host: string) => rulesNameHost(rules.allow, { toolName: call.name, traits }, host),
          // The small fast model when the user named one (ANTHROPIC_DEFAULT_HAIKU_MODEL, as in Claude Code), else the turn's.
          sideRequest: sideRequester(parts, parts.smallFastModel ? parts.profileOf(parts.smallFastModel) : turn.profile),
        }),
    // A redaction is news for the user, told the way every other notice is (a system/warning
    // line, or stderr in text mode), never as a log record of its own beside them.
    log: { warn: (message) => parts.notices.warn({ type: "warning", code: "secrets_redacted", message }) },
    onProgress: (progress) => turn.emit({ type: "tool_progress", toolUseId: call.id, toolName: call.name, ...progress }),
    webSearch: webSearchService({
      provider: turn.profile.provider,
      model: turn.profile.model,
      maxOutputTokens: turn.profile.maxOutputTokens,
      searxngUrl: parts.searxngUrl,
      accounting: parts.accounting,
    }),
  };
}

/** Lets a tool get ready for a call the model has begun; a failure there is the call's to report, not the stream's. */
function prepareTool(tool: ToolDefinition | undefined): void {
  try {
    tool?.prepare?.();
  } catch {
    // The call itself runs the same work again and says what went wrong.
  }
}
