import type { ToolResult } from "../../conversation/tool-result.js";
import type { BashInvocation } from "../bash-invocation.js";
import { toolError, type ToolContext } from "../define-tool.js";
import { startBackgroundProcess, taskOutputFile, type BackgroundEnd } from "./background-process.js";
import { BackgroundTasks, labelOf, type TaskEnd } from "./task-registry.js";

/** What the call asked for, beside its planned invocation. */
export interface BackgroundCommandRequest {
  command: string;
  description: string | undefined;
  timeoutMs: number;
}

/**
 * Bash with `run_in_background`: the command starts as a background task and the call returns at
 * once with its id and output file, in Claude Code's words; its end reaches the model at its next
 * request and the host as `task_*` lines.
 */
export async function startBackgroundCommand(
  invocation: BashInvocation,
  context: ToolContext,
  request: BackgroundCommandRequest,
): Promise<ToolResult> {
  const tasks = context.backgroundTasks;
  if (!tasks) return toolError("invalid_input", "This session cannot run commands in the background; run it without run_in_background.");
  const id = BackgroundTasks.newId();
  const outputFile = await taskOutputFile(context, id);
  const description = request.description ?? request.command;
  const started = startBackgroundProcess(invocation, context, {
    outputFile,
    timeoutMs: request.timeoutMs,
    onEnd: (end) => tasks.end(id, commandEnd(description, end, request.timeoutMs)),
  });
  if ("startError" in started) return toolError("io_error", `Could not start ${invocation.file}: ${started.startError}`);
  tasks.register({
    id,
    taskType: "local_bash",
    description,
    toolUseId: context.toolUseId,
    outputFile,
    command: request.command,
    stop: started.stop,
  });
  return {
    content: `Command running in background with ID: ${id}. Output is being written to: ${outputFile}. You will be notified when it completes. To check interim output, use Read on that file path.`,
    isError: false,
    // Claude Code's Bash output shape, with the task's id.
    details: { stdout: "", stderr: "", interrupted: false, isImage: false, noOutputExpected: false, backgroundTaskId: id },
  };
}

/** A background command's end as its notification says it. Pure. */
export function commandEnd(description: string, end: BackgroundEnd, timeoutMs: number): TaskEnd {
  const label = labelOf({ taskType: "local_bash", description });
  if (end.stopReason === "timeout") return { status: "failed", summary: `${label} was stopped after ${timeoutMs} ms (its timeout)` };
  if (end.stopReason === "aborted") return { status: "stopped", summary: `${label} was stopped` };
  if (end.exitCode === 0) return { status: "completed", summary: `${label} completed (exit code 0)` };
  return { status: "failed", summary: `${label} failed with exit code ${end.exitCode}` };
}
