import { wireStopReason, type Provider, type ProviderRequest } from "../providers/types.js";
import type { ToolResult } from "../conversation/tool-result.js";
import type { AgentEvent } from "./events.js";
import type { AssistantContentBlock, Message, ToolUseBlock, UserContentBlock, UserMessage } from "../conversation/messages.js";
import { callModel, type ModelCallDependencies } from "./model-call.js";
import { messagesForProvider } from "./messages-for-provider.js";
import { withToolOffer, type ToolOffer } from "./tool-offer.js";
import { executeToolCalls, interruptedToolResult, TOOL_INTERRUPT_MARKER, type ToolCallDependencies } from "./tool-calls.js";

export { TOOL_INTERRUPT_MARKER };
export type { PermissionDecision, ToolApproval } from "./tool-calls.js";

export const INTERRUPT_MARKER = "[Request interrupted by user]";
/** Claude Code's wording for the automatic continuation after `stop_reason: max_tokens`. */
export const OUTPUT_LIMIT_NUDGE =
  "Output token limit hit. Resume directly — no apology, no recap of what you were doing. Pick up mid-thought if that is where the cut happened. Break remaining work into smaller pieces.";
/** Continuations per turn before a truncated answer is accepted as the result. */
const MAX_OUTPUT_CONTINUATIONS = 3;

export interface TurnSettings {
  model: string;
  system: string;
  /** Most model requests this turn may make; undefined = no limit. */
  maxTurns: number | undefined;
  maxOutputTokens: number;
  thinkingBudgetTokens: number | undefined;
  sessionId: string;
  /**
   * Read for each request: tools can join mid-turn (an MCP server that finished starting), and
   * a ToolSearch result (or a call that ran) in `history` loads deferred ones.
   */
  toolOffer: (history: readonly Message[]) => ToolOffer;
}

export interface LoopDependencies extends ModelCallDependencies, ToolCallDependencies {
  /** `--max-budget-usd`: true once the session has spent its budget; absent = no budget. */
  budgetSpent?: () => boolean;
  /**
   * Keeps the conversation within the model's context window: before each request ("threshold")
   * and after the server said it did not fit ("overflow"), it may compact `history` in place.
   * Absent: no compaction. Contract: never throws.
   */
  maintainContext?: (
    history: Message[],
    cause: "threshold" | "overflow",
    signal: AbortSignal,
  ) => Promise<"unchanged" | "compacted" | "failed">;
  /**
   * Asked when the model wants to stop; a returned text is fed back as a user message and the
   * turn goes on (Stop hooks). `alreadyContinued` is true after such a continuation.
   * Contract: never throws.
   */
  beforeStop?: (resultText: string, alreadyContinued: boolean) => Promise<string | undefined>;
  /**
   * `--json-schema`: the turn is answered by calling this tool (a successful call ends it, see
   * `ToolResult.endTurn`). Stopping without it, or calling it with input the schema rejects,
   * costs one of `maxRetries` more attempts; then the turn ends as `structured_output_retry_exhausted`.
   */
  structuredOutput?: { toolName: string; maxRetries: number };
  /**
   * What background tasks have to tell the model, taken once (undefined: nothing): it goes out
   * with the next request, beside the tool results. Absent: no background tasks.
   */
  takeNotifications?: () => string | undefined;
}

export type TerminalReason =
  | "completed"
  | "max_turns"
  | "budget_exhausted"
  | "aborted_streaming"
  | "aborted_tools"
  | "api_error"
  | "structured_output_retry_exhausted"
  | "hook_stopped"
  | "stop_hook_prevented";

export interface TurnOutcome {
  terminalReason: TerminalReason;
  /** Stop reason of the last model response, in the wire vocabulary (see `wireStopReason`). */
  stopReason: string | null;
  /** Claude Code's count: 1 + the user lines (tool results, markers) emitted this turn. */
  numTurns: number;
  /** Text of the last text block of the last assistant message. */
  resultText: string;
  error?: { kind: string; status: number | null; message: string };
  /** The input of the successful end-turn call (`--json-schema`'s answer). */
  structuredOutput?: unknown;
}

/**
 * One user turn of Think → Act → Observe: ask the model, run the tools it calls, feed the
 * results back, until it stops, a limit is hit, the API fails, or `signal` aborts.
 * `history` is extended in place; every message added is also emitted as `message_committed`.
 * No I/O happens here: provider, tools, permissions, clock and output are injected.
 */
export async function runTurn(
  history: Message[],
  prompt: UserMessage,
  settings: TurnSettings,
  dependencies: LoopDependencies,
  signal: AbortSignal,
): Promise<TurnOutcome> {
  const commit = (message: Message): void => {
    history.push(message);
    dependencies.emit({ type: "message_committed", message });
  };
  commit(prompt);
  let modelRequests = 0;
  let userLines = 0;
  let resultText = "";
  let stopReason: string | null = null;
  let continuedByStopHook = false;
  let continuations = 0;
  // Compactions that did not make the conversation fit, in a row; at MAX_COMPACTION_FAILURES the turn ends.
  let compactionFailures = 0;
  // Responses that should have answered with the structured-output tool and did not.
  let structuredOutputMisses = 0;
  const structured = dependencies.structuredOutput;
  const outcome = (terminalReason: TerminalReason, extra: Partial<TurnOutcome> = {}): TurnOutcome => ({
    terminalReason,
    stopReason,
    numTurns: 1 + userLines,
    resultText,
    ...extra,
  });

  for (;;) {
    if (settings.maxTurns !== undefined && modelRequests >= settings.maxTurns) return outcome("max_turns");
    // No request starts over budget.
    if (dependencies.budgetSpent?.()) return outcome("budget_exhausted");
    if ((await dependencies.maintainContext?.(history, "threshold", signal)) === "failed") compactionFailures++;
    if (compactionFailures >= MAX_COMPACTION_FAILURES) return outcome("api_error", { error: CONTEXT_EXHAUSTED });
    modelRequests++;
    const response = await callModel(toRequest(history, settings, dependencies.provider), dependencies, signal);

    if (response.kind === "failed") {
      // Too long for the model after all: compact and ask again, until compacting stops helping.
      if (response.errorKind === "context_length" && dependencies.maintainContext && !signal.aborted) {
        compactionFailures++;
        if (compactionFailures >= MAX_COMPACTION_FAILURES) return outcome("api_error", { error: CONTEXT_EXHAUSTED });
        if ((await dependencies.maintainContext(history, "overflow", signal)) === "compacted") {
          modelRequests--;
          continue;
        }
      }
      return outcome("api_error", { error: { kind: response.errorKind, status: response.status, message: response.message } });
    }
    if (response.kind === "completed") compactionFailures = 0;
    if (response.kind === "aborted") {
      stopReason = null;
      if (response.blocks.length > 0) commit({ role: "assistant", content: response.blocks, provider: dependencies.provider.id });
      const pendingCalls = response.blocks.filter(isToolUse);
      const aborted = pendingCalls.map((call) => abortedResult(call, dependencies.emit));
      userLines += pendingCalls.length + 1;
      dependencies.emit({ type: "user_notice", text: INTERRUPT_MARKER });
      commit({ role: "user", content: [...aborted, { type: "text", text: INTERRUPT_MARKER }] });
      return outcome("aborted_streaming");
    }

    stopReason = wireStopReason(response.stopReason);
    if (response.blocks.length > 0) commit({ role: "assistant", content: response.blocks, provider: dependencies.provider.id });
    const lastText = response.blocks.filter((block) => block.type === "text").at(-1);
    resultText = lastText?.type === "text" ? lastText.text : "";
    const calls = response.blocks.filter(isToolUse);
    // Cut off by the output limit mid-answer: ask for the rest, as Claude Code does, a few times.
    if (
      calls.length === 0 &&
      response.stopReason.normalized === "max_tokens" &&
      continuations < MAX_OUTPUT_CONTINUATIONS &&
      !signal.aborted
    ) {
      continuations++;
      userLines++;
      dependencies.emit({ type: "user_notice", text: OUTPUT_LIMIT_NUDGE, synthetic: true });
      commit({ role: "user", content: [{ type: "text", text: OUTPUT_LIMIT_NUDGE }] });
      continue;
    }
    if (calls.length === 0 && structured && !signal.aborted) {
      // The answer must come through the tool: remind the model, a few times.
      if (++structuredOutputMisses > structured.maxRetries) return outcome("structured_output_retry_exhausted");
      const reminder = structuredOutputReminder(structured.toolName);
      userLines++;
      dependencies.emit({ type: "user_notice", text: reminder, synthetic: true });
      commit({ role: "user", content: [{ type: "text", text: reminder }] });
      continue;
    }
    if (calls.length === 0) {
      const feedback = await dependencies.beforeStop?.(resultText, continuedByStopHook);
      if (dependencies.hookStopped?.() && !signal.aborted) return outcome("stop_hook_prevented");
      if (feedback === undefined || signal.aborted) return outcome("completed");
      continuedByStopHook = true;
      userLines++;
      dependencies.emit({ type: "user_notice", text: feedback });
      commit({ role: "user", content: [{ type: "text", text: feedback }] });
      continue;
    }

    if (dependencies.budgetSpent?.()) {
      // This response crossed the budget: its calls are answered without running, and the turn ends.
      const unrun = calls.map((call) => budgetResult(call, dependencies.emit));
      userLines += calls.length;
      commit({ role: "user", content: unrun });
      return outcome("budget_exhausted");
    }
    const settled = await executeToolCalls(calls, dependencies, signal);
    userLines += calls.length;
    const notifications = dependencies.takeNotifications?.();
    commit({
      role: "user",
      content: [
        ...settled.map(
          ({ call, result }): UserContentBlock => ({
            type: "tool_result",
            toolUseId: call.id,
            content: result.content,
            isError: result.isError,
          }),
        ),
        // After every result: the API wants a response's tool results first in the message.
        ...settled.flatMap(({ result }): UserContentBlock[] => (result.appendedText ? [{ type: "text", text: result.appendedText }] : [])),
        ...(notifications === undefined ? [] : [{ type: "text" as const, text: notifications, reminder: "tasks" as const }]),
      ],
    });
    const ending = settled.find(({ result }) => result.endTurn !== undefined);
    if (ending && !signal.aborted) return outcome("completed", { structuredOutput: ending.result.endTurn!.output });
    if (structured && settled.some(({ call, result }) => call.name === structured.toolName && result.isError)) {
      if (++structuredOutputMisses > structured.maxRetries) return outcome("structured_output_retry_exhausted");
    }
    if (signal.aborted) {
      userLines++;
      dependencies.emit({ type: "user_notice", text: INTERRUPT_MARKER });
      commit({ role: "user", content: [{ type: "text", text: INTERRUPT_MARKER }] });
      return outcome("aborted_tools");
    }
    // Claude Code's result text is the last block of the last assistant message: here a tool call.
    if (dependencies.hookStopped?.()) return outcome("hook_stopped", { resultText: "" });
  }
}

/** Compactions in a row that may fail to make the conversation fit before the turn gives up. */
const MAX_COMPACTION_FAILURES = 3;
const CONTEXT_EXHAUSTED = {
  kind: "context_length" as const,
  status: null,
  message: `The conversation does not fit the model's context window, and compacting it did not help ${MAX_COMPACTION_FAILURES} times in a row. Start a new session, or /compact with instructions to keep less.`,
};

function toRequest(history: Message[], settings: TurnSettings, provider: Provider): ProviderRequest {
  const request = {
    model: settings.model,
    system: settings.system,
    messages: messagesForProvider(history, provider.id),
    maxOutputTokens: settings.maxOutputTokens,
    sessionId: settings.sessionId,
    ...(settings.thinkingBudgetTokens === undefined ? {} : { thinkingBudgetTokens: settings.thinkingBudgetTokens }),
  };
  return withToolOffer(request, settings.toolOffer(history), provider);
}

function isToolUse(block: AssistantContentBlock): block is ToolUseBlock {
  return block.type === "tool_use";
}

function structuredOutputReminder(toolName: string): string {
  return `You have not given your answer in the required format yet: call the ${toolName} tool with it now.`;
}

function budgetResult(call: ToolUseBlock, emit: (event: AgentEvent) => void): UserContentBlock {
  const result: ToolResult = {
    content: "Not run: the session's budget (--max-budget-usd) is spent.",
    isError: true,
    code: "aborted",
    details: "Error: budget spent",
  };
  emit({ type: "tool_result", toolUseId: call.id, toolName: call.name, result });
  return { type: "tool_result", toolUseId: call.id, content: result.content, isError: true };
}

function abortedResult(call: ToolUseBlock, emit: (event: AgentEvent) => void): UserContentBlock {
  const result = interruptedToolResult();
  emit({ type: "tool_result", toolUseId: call.id, toolName: call.name, result });
  return { type: "tool_result", toolUseId: call.id, content: result.content, isError: true };
}
