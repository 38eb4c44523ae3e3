import { randomBytes, randomUUID } from "../../text/random-uuid.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { platform } from "node:os";
import { join } from "node:path";
import type { AgentEvent } from "../../agent/events.js";
import { runTurn, type TurnOutcome } from "../../agent/loop.js";
import { subagentSystemPrompt } from "../../agent/system-prompt.js";
import type { ToolUseBlock } from "../../conversation/messages.js";
import type { ToolResult } from "../../conversation/tool-result.js";
import { resolveModelAlias } from "../../providers/models.js";
import { describeCall } from "../../render/present/tool-call.js";
import type { ToolDefinition } from "../../tools/define-tool.js";
import type { HookStop } from "../hook-runners.js";
import { loopDependencies, turnSettings, type TurnScope } from "../loop-wiring.js";
import type { SessionParts } from "../session-parts.js";
import { describeApiError } from "../wire/result.js";
import type { TranslationContext } from "../wire/stream-lines.js";
import {
  nestedLines,
  taskNotificationLine,
  taskProgressLine,
  taskPromptLine,
  taskStartedLine,
  taskUpdatedLine,
  type TaskRef,
} from "../wire/subagent-lines.js";
import { AGENT_TOOL_INIT_NAME, AGENT_TOOL_NAME, AgentInputSchema, type AgentInput } from "./agent-tool.js";
import { completedResult, failedResult, interruptedResult, refusedResult, totalTokens, type SubagentRun } from "./subagent-report.js";
import { GENERAL_PURPOSE, SUBAGENT_LIMITS, type SubagentSpec } from "./subagent-spec.js";
import type { Subagents } from "./subagents.js";

/** Who starts the subagent: the turn it nests in, and how deep that turn already is. */
export interface AgentCallOrigin {
  parts: SessionParts;
  subagents: Subagents;
  /** The loop that made the Agent call (the main conversation's, or a subagent's). */
  turn: TurnScope;
  /** 0 for the main conversation, N inside a depth-N subagent. */
  depth: number;
}

/**
 * Runs one Agent call to its tool result: checks what the call asks for, waits for a free place,
 * then runs the subagent's own Think → Act → Observe loop (the same loop and session parts as the
 * main conversation, with its own conversation, prompt, tools and limits) and hands its final
 * text back. Its tool calls reach stdout nested under the call; its requests count in the
 * session's modelUsage and cost. Contract: never throws.
 */
export async function runAgentCall(origin: AgentCallOrigin, call: ToolUseBlock, signal: AbortSignal): Promise<ToolResult> {
  const { parts, subagents } = origin;
  const parsed = AgentInputSchema.safeParse(call.input);
  if (!parsed.success) return refusedResult(`Agent input is not valid: ${parsed.error.issues[0]?.message ?? ""}`);
  const input = parsed.data;
  subagents.counters.requested(input.run_in_background);
  const depth = origin.depth + 1;
  if (depth > subagents.maxDepth) {
    subagents.counters.refused("depth_limit");
    return refusedResult(
      `Agents may nest only ${subagents.maxDepth} level${subagents.maxDepth === 1 ? "" : "s"} deep here: this agent cannot start agents of its own. Do the work yourself.`,
    );
  }
  const spec = chooseSpec(subagents.specs, input);
  if (typeof spec === "string") return refusedResult(spec);
  if (parts.budget.spent()?.()) {
    subagents.counters.refused("budget");
    return refusedResult("The session's budget (--max-budget-usd) is spent: no agent can start.");
  }
  const release = await subagents.slots.take(signal);
  if (!release) return interruptedResult();
  try {
    return await runSubagent(origin, call, input, spec, depth, signal);
  } finally {
    release();
  }
}

/** The agent type the call names, or why it cannot run. */
function chooseSpec(specs: readonly SubagentSpec[], input: AgentInput): SubagentSpec | string {
  if (input.isolation !== undefined)
    return `isolation "${input.isolation}" is not supported by agentwire; leave it out to run the agent in this workspace.`;
  const name = input.subagent_type ?? GENERAL_PURPOSE;
  if (name === "fork")
    return `The "fork" type (an agent that inherits this conversation) is not supported by agentwire yet; start a ${GENERAL_PURPOSE} agent with a prompt that says everything it needs.`;
  const spec = specs.find((candidate) => candidate.name === name);
  return spec ?? `There is no agent type "${name}". Available types: ${specs.map((candidate) => candidate.name).join(", ")}.`;
}

async function runSubagent(
  origin: AgentCallOrigin,
  call: ToolUseBlock,
  input: AgentInput,
  spec: SubagentSpec,
  depth: number,
  signal: AbortSignal,
): Promise<ToolResult> {
  const { parts, subagents } = origin;
  const startedAt = Date.now();
  const agentId = `a${randomBytes(8).toString("hex")}`;
  const task: TaskRef = {
    taskId: agentId,
    runId: randomUUID(),
    toolUseId: call.id,
    description: input.description,
    subagentType: spec.name,
  };
  const context: TranslationContext = { sessionId: parts.sessionId, includePartialMessages: false, newUuid: randomUUID, now: Date.now };
  const profile = parts.profileOf(modelFor(parts, spec, input, origin.turn.profile.model));
  const run: SubagentRun = {
    agentId,
    agentType: spec.name,
    prompt: input.prompt,
    resolvedModel: profile.model,
    toolsUsed: [],
    toolUseCount: 0,
    toolCounts: {},
    usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
    durationMs: 0,
  };
  // `inFlight`: tokens of the response still streaming, not yet counted in the run's usage.
  const usageSoFar = (inFlight = 0) => ({
    totalTokens: totalTokens(run) + inFlight,
    toolUses: run.toolUseCount,
    durationMs: Date.now() - startedAt,
  });
  subagents.counters.spawned(spec.name, depth);
  parts.onEvent(taskStartedLine(task, depth, input.prompt, context));
  parts.onEvent(taskPromptLine(task, input.prompt, context));

  const emit = (event: AgentEvent): void => {
    // What is news for the session as a whole goes out as the main conversation's own.
    if (event.type === "warning" || event.type === "tool_permission_denied") origin.turn.emit(event);
    if (event.type === "model_stream" && event.event.type === "tool_call_end") {
      const { name, input: callInput } = event.event;
      run.toolUseCount++;
      run.toolCounts[name] = (run.toolCounts[name] ?? 0) + 1;
      if (!run.toolsUsed.includes(name)) run.toolsUsed.push(name);
      const streaming = event.response.usage;
      const activity = describeCall(name, callInput, parts.cwd, 60).trim();
      parts.onEvent(taskProgressLine(task, activity, name, usageSoFar(streaming.inputTokens + streaming.outputTokens), context));
    }
    for (const line of nestedLines(event, task, context)) parts.onEvent(line);
  };
  let hookStop: HookStop | undefined;
  const scope: TurnScope = {
    profile,
    maxThinkingTokens: origin.turn.maxThinkingTokens,
    outputTool: undefined,
    emit,
    signal,
    // A hook's `continue: false` stops the whole run: this subagent, and the turn that started it.
    hookStop: {
      note: (stop) => {
        hookStop ??= stop;
        origin.turn.hookStop.note(stop);
      },
      stopped: () => hookStop !== undefined,
    },
    interrupt: origin.turn.interrupt,
    nested: {
      agentId,
      agentType: spec.name,
      system: subagentSystemPrompt(spec.prompt, {
        cwd: parts.cwd,
        platform: platform(),
        date: new Date().toISOString().slice(0, 10),
        model: profile.model,
      }),
      maxTurns: SUBAGENT_LIMITS.maxTurns,
      pickTools: (offered) => pickTools(offered, spec),
      onUsage: (usage) => {
        run.usage.inputTokens += usage.inputTokens;
        run.usage.outputTokens += usage.outputTokens;
        run.usage.cacheReadInputTokens += usage.cacheReadInputTokens;
        run.usage.cacheCreationInputTokens += usage.cacheCreationInputTokens;
      },
    },
  };
  scope.runAgent = (nestedCall, nestedSignal) => runAgentCall({ parts, subagents, turn: scope, depth }, nestedCall, nestedSignal);

  const outcome = await runTurn(
    [],
    { role: "user", content: [{ type: "text", text: input.prompt }] },
    turnSettings(parts, scope),
    loopDependencies(parts, scope),
    signal,
  ).catch((error: unknown): undefined => {
    parts.log.error({ err: error, agentId }, "subagent failed");
    return undefined;
  });
  run.durationMs = Date.now() - startedAt;
  const ending = endingOf(outcome, signal);
  subagents.counters.ended(ending.counted);
  const summary = ending.status === "completed" ? (outcome?.resultText ?? "") : ending.reason;
  parts.onEvent(
    taskUpdatedLine(
      task,
      { status: ending.patchStatus, end_time: Date.now(), ...(ending.status === "completed" ? {} : { error: ending.reason }) },
      context,
    ),
  );
  parts.onEvent(
    taskNotificationLine(
      task,
      { status: ending.status, outputFile: writeReport(parts.outputDirectory, agentId, summary), summary, usage: usageSoFar() },
      context,
    ),
  );
  if (ending.counted === "killed_by_user") return interruptedResult();
  if (ending.status === "failed") return failedResult(run, ending.reason);
  return completedResult(run, outcome?.resultText ?? "");
}

/** The call's model alias (Anthropic's names, so only where the session's own model is Claude), else the type's, else the caller's. */
function modelFor(parts: SessionParts, spec: SubagentSpec, input: AgentInput, callerModel: string): string {
  const claude = parts.profileOf(callerModel).provider.id === "anthropic";
  if (input.model !== undefined && claude) return resolveModelAlias(input.model);
  // "inherit" is how Claude Code's definitions say "the caller's model".
  return spec.model === undefined || spec.model === "inherit" ? callerModel : resolveModelAlias(spec.model);
}

/** The type's tools out of the session's; a type without a list gets them all. */
function pickTools(offered: ToolDefinition[], spec: SubagentSpec): ToolDefinition[] {
  // Definitions written for Claude Code name the Agent tool by its older name.
  const allowed = spec.tools?.map((name) => (name === AGENT_TOOL_INIT_NAME ? AGENT_TOOL_NAME : name));
  return allowed ? offered.filter((tool) => allowed.includes(tool.name)) : offered;
}

type Ending =
  | { status: "completed"; patchStatus: "completed"; counted: "completed" }
  | { status: "failed" | "stopped"; patchStatus: "failed" | "killed"; counted: "failed" | "killed_by_user"; reason: string };

function endingOf(outcome: TurnOutcome | undefined, signal: AbortSignal): Ending {
  if (signal.aborted) return { status: "stopped", patchStatus: "killed", counted: "killed_by_user", reason: "stopped by the user" };
  if (!outcome)
    return { status: "failed", patchStatus: "failed", counted: "failed", reason: "an internal error in agentwire (see stderr)" };
  switch (outcome.terminalReason) {
    case "completed":
    case "hook_stopped":
    case "stop_hook_prevented":
      return { status: "completed", patchStatus: "completed", counted: "completed" };
    case "max_turns":
      return {
        status: "failed",
        patchStatus: "failed",
        counted: "failed",
        reason: `it reached its limit of ${SUBAGENT_LIMITS.maxTurns} model requests`,
      };
    case "budget_exhausted":
      return { status: "failed", patchStatus: "failed", counted: "failed", reason: "the session's budget (--max-budget-usd) is spent" };
    case "api_error":
      return { status: "failed", patchStatus: "failed", counted: "failed", reason: describeApiError(outcome.error) };
    default:
      return { status: "failed", patchStatus: "failed", counted: "failed", reason: `it ended as ${outcome.terminalReason}` };
  }
}

/** The final report (or why there is none) in the session's output directory, where hosts and Read can open it. */
function writeReport(outputDirectory: string, agentId: string, text: string): string {
  const directory = join(outputDirectory, "tasks");
  const file = join(directory, `${agentId}.output`);
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    writeFileSync(file, text, { mode: 0o600 });
  } catch {
    // The report is also in the tool result; a file that cannot be written only loses the copy.
  }
  return file;
}
