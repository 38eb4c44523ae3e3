import type { ToolResult } from "../../conversation/tool-result.js";
import { labelOf } from "../../tools/background/task-registry.js";
import { taskPromptLine, wireTaskUsage } from "../wire/subagent-lines.js";
import { writeReport } from "./subagent-ending.js";
import {
  runSubagentLoop,
  usageSoFar,
  type AgentCallOrigin,
  type RunAgentCall,
  type Subagent,
  type SubagentOwner,
} from "./subagent-loop.js";

/**
 * An Agent call with `run_in_background`: the subagent becomes one of the session's background
 * tasks (`local_agent`) and the call returns at once, in Claude Code's form. The subagent runs on
 * under a signal of its own, which only TaskStop, a host's interrupting denial or the session's
 * end fires (a turn's interrupt does not: background work exists to outlive the turn). Its report
 * goes to its output file and reaches the model as a task notification at its next request.
 */
export function launchInBackground(origin: AgentCallOrigin, sub: Subagent, description: string, runAgentCall: RunAgentCall): ToolResult {
  const { parts, subagents } = origin;
  const { task } = sub;
  const controller = new AbortController();
  // There from the start, so a Read of it while the agent works finds the file.
  writeReport(sub.outputFile, "");
  parts.tasks.register({
    id: task.taskId,
    runId: task.runId,
    taskType: "local_agent",
    description,
    toolUseId: task.toolUseId,
    outputFile: sub.outputFile,
    command: sub.prompt,
    stop: () => controller.abort(),
    started: { subagent_type: task.subagentType, spawn_depth: sub.depth, prompt: sub.prompt },
  });
  subagents.counters.startedInBackground();
  parts.onEvent(taskPromptLine(task, sub.prompt, sub.context));
  void runToEnd(origin, sub, description, controller, runAgentCall);
  return launchedResult(sub, description);
}

async function runToEnd(
  origin: AgentCallOrigin,
  sub: Subagent,
  description: string,
  controller: AbortController,
  runAgentCall: RunAgentCall,
): Promise<void> {
  const { parts, subagents } = origin;
  const { signal } = controller;
  const label = labelOf({ taskType: "local_agent", description });
  const owner: SubagentOwner = {
    // Once stopped, the registry has written its end: nothing of its unwinding goes out after that.
    line: (event) => {
      if (!signal.aborted) parts.onEvent(event);
    },
    // The turn that started it may be long over: warnings go out as the session's own notices.
    emit: (event) => {
      if (event.type === "warning") parts.notices.warn(event);
    },
    // A hook's `continue: false` stops this subagent's loop (its hookStopped) and nothing else.
    noteHookStop: () => {},
    interrupt: () => parts.tasks.stop(sub.task.taskId, { status: "stopped", summary: `${label} was stopped` }),
  };
  const release = await subagents.slots.take(signal);
  // Stopped while it waited for a place: the registry has reported it.
  if (!release) return;
  try {
    const { outcome, ending } = await runSubagentLoop(origin, sub, owner, signal, runAgentCall);
    if (signal.aborted) return;
    subagents.counters.ended(ending.counted);
    const report = ending.status === "completed" ? (outcome?.resultText ?? "") : ending.reason;
    writeReport(sub.outputFile, report);
    parts.tasks.end(sub.task.taskId, {
      status: ending.status,
      summary: ending.status === "completed" ? `${label} finished` : `${label} failed: ${ending.reason}`,
      ...(ending.status === "completed" ? { result: report } : {}),
      usage: wireTaskUsage(usageSoFar(sub)),
    });
  } finally {
    release();
  }
}

/** The call's result at launch: Claude Code's first line and field names, agentwire's words between them. */
function launchedResult(sub: Subagent, description: string): ToolResult {
  const { run } = sub;
  return {
    content: [
      "Async agent launched successfully.",
      `agentId: ${run.agentId}`,
      "The agent works in the background: go on with other work. You will be told when it has finished, with its report, at your next request; do not start it again or wait for it with sleep.",
      `output_file: ${sub.outputFile} (its report is written there when it ends)`,
    ].join("\n"),
    isError: false,
    details: {
      isAsync: true,
      status: "async_launched",
      agentId: run.agentId,
      description,
      resolvedModel: run.resolvedModel,
      prompt: run.prompt,
      outputFile: sub.outputFile,
      canReadOutputFile: true,
      canContinueAgent: false,
    },
  };
}
