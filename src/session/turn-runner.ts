import { randomUUID } from "../text/random-uuid.js";
import type { ResultEvent } from "../../protocol/events.js";
import type { AgentEvent } from "../agent/events.js";
import { runTurn, type TurnOutcome } from "../agent/loop.js";
import type { UserMessage } from "../conversation/messages.js";
import { describeHookStop, runUserPromptSubmitHooks, type HookStop } from "./hook-runners.js";
import { loopDependencies, maxTurnsOf, turnSettings, type TurnScope } from "./loop-wiring.js";
import { runSessionCommand, sessionCommand } from "./session-commands.js";
import type { SessionControls, SessionParts } from "./session-parts.js";
import { buildApiErrorAssistantEvent, buildFailureResult, buildResultEvent } from "./wire/result.js";
import { createTranslationState, toStreamJson } from "./wire/stream-json.js";

/** How a turn ended: the loop's (or a session command's) outcome, or a failure before the model answered. */
type TurnEnd =
  | { outcome: TurnOutcome; noModelTurn?: true }
  | { failure: "hook_blocked" | "internal_error" | "invalid_arguments"; message: string };

/**
 * Takes one user turn to its result: hooks around the prompt, a session command or the loop, and
 * the end of the turn (the session file's turn end, then the one `result`). Emits every event of
 * the turn through `parts.onEvent`, translated to stream-json. Never rejects.
 */
export async function runUserTurn(
  parts: SessionParts,
  controls: SessionControls,
  prompt: UserMessage,
  controller: AbortController,
): Promise<ResultEvent> {
  const { accounting, onEvent, persistence, hooks } = parts;
  const startedAt = Date.now();
  accounting.startTurn();
  parts.subagents.counters.startTurn();
  const translation = createTranslationState();
  const translationContext = {
    sessionId: parts.sessionId,
    includePartialMessages: parts.settings.includePartialMessages,
    newUuid: randomUUID,
    now: Date.now,
  };
  const permissionDenials: ResultEvent["permission_denials"] = [];
  const emit = (event: AgentEvent): void => {
    persistence.record(event, emit);
    if (event.type === "tool_permission_denied")
      permissionDenials.push({ tool_name: event.toolName, tool_use_id: event.toolUseId, tool_input: event.input });
    for (const line of toStreamJson(event, translation, translationContext)) onEvent(line);
  };
  // A hook's `continue: false` (any event of this turn): the user is told its stopReason, and the turn ends.
  let hookStop: HookStop | undefined;
  const noteHookStop = (stop: HookStop | undefined): void => {
    if (!stop || hookStop) return;
    hookStop = stop;
    emit({ type: "warning", code: "hook_stopped", message: describeHookStop(stop) });
  };

  /** The end of every turn, written once. */
  const end = (how: TurnEnd): ResultEvent => {
    const durationMs = Date.now() - startedAt;
    let result: ResultEvent;
    if ("failure" in how) {
      result = buildFailureResult({
        sessionId: parts.sessionId,
        terminalReason: how.failure,
        message: how.message,
        durationMs,
        newUuid: randomUUID,
      });
    } else {
      persistence.turnEnd(accounting, emit);
      // No model turn ran: as Claude Code, the result reports no usage, and the summary's tokens and
      // cost show in modelUsage and total_cost_usd only. Hosts rely on it: Yume's backend takes a
      // result with zero usage for a finished compaction and resets its context meter.
      if (how.noModelTurn) accounting.startTurn();
      result = buildResultEvent(how.outcome, {
        sessionId: parts.sessionId,
        durationMs,
        accounting,
        maxTurns: maxTurnsOf(parts.settings),
        maxBudgetUsd: parts.settings.maxBudgetUsd,
        permissionDenials,
        subagentStats: parts.subagents.counters.snapshot(),
        newUuid: randomUUID,
      });
    }
    result = persistence.stamp(result);
    onEvent(result);
    return result;
  };
  const stoppedBeforeModel = (stop: HookStop): ResultEvent => {
    noteHookStop(stop);
    return end({ outcome: { terminalReason: "hook_stopped", stopReason: null, numTurns: 0, resultText: "" } });
  };

  parts.notices.attach(emit);
  try {
    if (controls.closed) return end({ failure: "internal_error", message: "The session is closed; no further turns run." });
    const started = await hooks.startOnce(parts.origin, controls.model, controller.signal);
    if (started) return stoppedBeforeModel(started);
    const command = sessionCommand(prompt);
    if (command)
      return end({ outcome: await runSessionCommand(command, parts, controls.model, emit, controller.signal), noModelTurn: true });
    const submitted = await runUserPromptSubmitHooks(hooks.current, hooks.base(), prompt, controller.signal);
    if ("stop" in submitted) return stoppedBeforeModel(submitted.stop);
    if (!submitted.allow) return end({ failure: "hook_blocked", message: submitted.message });
    const outputTool = await controls.outputTool;
    if (outputTool instanceof Error)
      return end({ failure: "invalid_arguments", message: `The output schema is not valid JSON Schema: ${outputTool.message}` });
    const profile = parts.profileOf(controls.model);
    const agentTool = await parts.subagents.refresh();
    if (agentTool) parts.tools.replaceTool(agentTool);
    parts.notices.flush(emit);
    // The context goes in after the skills have read the prompt: a `/skill` command is the prompt's own text.
    const withSkills = withTaskNotifications(
      withStartContext(await parts.skills.prepare(submitted.prompt, profile, emit, controller.signal), hooks.takeContext()),
      parts.tasks.takeNotifications(),
    );
    const turn: TurnScope = {
      profile,
      maxThinkingTokens: controls.maxThinkingTokens,
      outputTool,
      emit,
      signal: controller.signal,
      hookStop: { note: noteHookStop, stopped: () => hookStop !== undefined },
      interrupt: () => controller.abort(),
    };
    // Loaded with the first Agent call: a run that starts no subagent does not pay for the code.
    turn.runAgent = async (call, signal) =>
      (await import("./subagent/subagent-run.js")).runAgentCall({ parts, subagents: parts.subagents, turn, depth: 0 }, call, signal);
    const outcome = await runTurn(
      parts.history,
      withSkills,
      turnSettings(parts, turn),
      loopDependencies(parts, turn),
      controller.signal,
    ).catch((error: unknown) => {
      // A bug must still end the turn with a result, never a silent hang.
      parts.log.error({ err: error }, "turn failed");
      return undefined;
    });
    if (!outcome) return end({ failure: "internal_error", message: "agentwire hit an internal error during this turn; see stderr." });
    if (outcome.terminalReason === "api_error")
      onEvent(buildApiErrorAssistantEvent(outcome, { sessionId: parts.sessionId, newUuid: randomUUID, now: Date.now }));
    return end({ outcome });
  } finally {
    parts.permissions.endTurn();
    parts.notices.detach();
  }
}

/** The prompt with what background tasks have to tell the model (ended since its last request) before it. */
function withTaskNotifications(prompt: UserMessage, notifications: string | undefined): UserMessage {
  if (notifications === undefined) return prompt;
  return { ...prompt, content: [{ type: "text", text: notifications, reminder: "tasks" }, ...prompt.content] };
}

/** The prompt with the SessionStart hooks' context before it. */
function withStartContext(prompt: UserMessage, context: readonly string[]): UserMessage {
  if (context.length === 0) return prompt;
  return { ...prompt, content: [{ type: "text", text: context.join("\n\n") }, ...prompt.content] };
}
