import type { AgentDefinition } from "../../agents/agent-definition.js";
import type { ToolUseBlock } from "../../conversation/messages.js";
import type { ToolResult } from "../../conversation/tool-result.js";
import { taskNotificationLine, taskPromptLine, taskStartedLine, taskUpdatedLine } from "../wire/subagent-lines.js";
import { agentInputSchema, type AgentInput } from "./agent-tool.js";
import { writeReport } from "./subagent-ending.js";
import { GENERAL_PURPOSE } from "./subagent-limits.js";
import { prepareSubagent, runSubagentLoop, usageSoFar, type AgentCallOrigin, type Subagent } from "./subagent-loop.js";
import { completedResult, failedResult, interruptedResult, refusedResult } from "./subagent-report.js";

export type { AgentCallOrigin } from "./subagent-loop.js";

/**
 * Runs one Agent call to its tool result: checks what the call asks for, then runs the subagent
 * in the foreground (waits for a free place and for its report) or launches it in the
 * background (the result says so at once; its end reaches the model as a task notification).
 * Contract: never throws.
 */
export async function runAgentCall(origin: AgentCallOrigin, call: ToolUseBlock, signal: AbortSignal): Promise<ToolResult> {
  const { parts, subagents } = origin;
  const parsed = agentInputSchema().safeParse(call.input);
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
  const definition = chooseDefinition(subagents.definitions, input, origin.depth);
  if (typeof definition === "string") return refusedResult(definition);
  if (parts.budget.spent()?.()) {
    subagents.counters.refused("budget");
    return refusedResult("The session's budget (--max-budget-usd) is spent: no agent can start.");
  }
  const sub = prepareSubagent(origin, call, input, definition, depth);
  // A definition may ask to run in the background whatever the call says.
  if (input.run_in_background === true || definition.background === true)
    return (await import("./background-agent.js")).launchInBackground(origin, sub, input.description, runAgentCall);
  const release = await subagents.slots.take(signal);
  if (!release) return interruptedResult();
  try {
    return await runInForeground(origin, sub, signal);
  } finally {
    release();
  }
}

/** The agent type the call names, or why it cannot run. */
function chooseDefinition(definitions: readonly AgentDefinition[], input: AgentInput, callerDepth: number): AgentDefinition | string {
  if (input.isolation !== undefined)
    return `isolation "${input.isolation}" is not supported by agentwire; leave it out to run the agent in this workspace.`;
  const name = input.subagent_type ?? GENERAL_PURPOSE;
  const definition = definitions.find((candidate) => candidate.name === name);
  // A fork copies the main conversation; a subagent's own conversation is not kept where a fork could copy it.
  if (definition?.inheritsConversation && callerDepth > 0)
    return `A "${name}" agent can be started only from the main conversation; start a ${GENERAL_PURPOSE} agent with a prompt that says everything it needs.`;
  return definition ?? `There is no agent type "${name}". Available types: ${definitions.map((candidate) => candidate.name).join(", ")}.`;
}

/** The turn waits for the subagent: its lines go out between the turn's, its report is the call's result. */
async function runInForeground(origin: AgentCallOrigin, sub: Subagent, signal: AbortSignal): Promise<ToolResult> {
  const { parts, subagents, turn } = origin;
  const { task, context } = sub;
  parts.onEvent(taskStartedLine(task, sub.depth, sub.prompt, context));
  parts.onEvent(taskPromptLine(task, sub.prompt, context));
  const { outcome, ending } = await runSubagentLoop(
    origin,
    sub,
    { line: parts.onEvent, emit: turn.emit, noteHookStop: (stop) => turn.hookStop.note(stop), interrupt: turn.interrupt },
    signal,
    runAgentCall,
  );
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
      { status: ending.status, outputFile: writeReport(sub.outputFile, summary), summary, usage: usageSoFar(sub) },
      context,
    ),
  );
  if (ending.counted === "killed_by_user") return interruptedResult();
  if (ending.status === "failed") return failedResult(sub.run, ending.reason);
  return completedResult(sub.run, outcome?.resultText ?? "");
}
