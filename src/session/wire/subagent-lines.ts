import type {
  OutputEvent,
  SubagentStats,
  TaskNotificationEvent,
  TaskProgressEvent,
  TaskStartedEvent,
  TaskUpdatedEvent,
  UserEvent,
} from "../../../protocol/events.js";
import type { AgentEvent } from "../../agent/events.js";
import { blockFromEndEvent } from "../../providers/response-accumulator.js";
import { assistantLine, toolResultLine, userLine, type TranslationContext } from "./stream-lines.js";

/** One subagent run as its lines name it. */
export interface TaskRef {
  /** Claude Code's task id, also the subagent's `agent_id`. */
  taskId: string;
  runId: string;
  /** The Agent call that started it: every line of its conversation carries it as `parent_tool_use_id`. */
  toolUseId: string;
  description: string;
  subagentType: string;
}

/** What a task has used so far, as its progress and notification lines report it. */
export interface TaskUsage {
  totalTokens: number;
  toolUses: number;
  durationMs: number;
}

/** Claude Code's counters with nothing counted: on every result of a turn that ran no subagent. */
export function emptySubagentStats(): SubagentStats {
  return {
    spawned: 0,
    requested: { background: 0, foreground: 0, unset: 0 },
    started_in_background: 0,
    max_depth: 0,
    spawned_by_subagents: 0,
    completed: 0,
    failed: 0,
    killed: { parent: 0, user: 0, system: 0 },
    refused: { depth_limit: 0, concurrency_limit: 0, budget: 0 },
    by_type: {},
  };
}

export function taskStartedLine(task: TaskRef, spawnDepth: number, prompt: string, context: TranslationContext): TaskStartedEvent {
  return {
    type: "system",
    subtype: "task_started",
    task_id: task.taskId,
    run_id: task.runId,
    tool_use_id: task.toolUseId,
    description: task.description,
    subagent_type: task.subagentType,
    is_backgrounded: false,
    spawn_depth: spawnDepth,
    task_type: "local_agent",
    prompt,
    session_id: context.sessionId,
    uuid: context.newUuid(),
  };
}

/** The subagent's first line of conversation: the Agent call's prompt, as its user message. */
export function taskPromptLine(task: TaskRef, prompt: string, context: TranslationContext): UserEvent {
  return {
    ...userLine([{ type: "text", text: prompt }], context),
    parent_tool_use_id: task.toolUseId,
    agent_id: task.taskId,
    subagent_type: task.subagentType,
    task_description: task.description,
  };
}

export function taskProgressLine(
  task: TaskRef,
  activity: string,
  lastToolName: string,
  usage: TaskUsage,
  context: TranslationContext,
): TaskProgressEvent {
  return {
    type: "system",
    subtype: "task_progress",
    task_id: task.taskId,
    run_id: task.runId,
    tool_use_id: task.toolUseId,
    description: activity,
    usage: wireTaskUsage(usage),
    last_tool_name: lastToolName,
    session_id: context.sessionId,
    uuid: context.newUuid(),
  };
}

export function taskUpdatedLine(task: TaskRef, patch: TaskUpdatedEvent["patch"], context: TranslationContext): TaskUpdatedEvent {
  return {
    type: "system",
    subtype: "task_updated",
    task_id: task.taskId,
    run_id: task.runId,
    patch,
    session_id: context.sessionId,
    uuid: context.newUuid(),
  };
}

export function taskNotificationLine(
  task: TaskRef,
  ending: { status: TaskNotificationEvent["status"]; outputFile: string; summary: string; usage: TaskUsage },
  context: TranslationContext,
): TaskNotificationEvent {
  return {
    type: "system",
    subtype: "task_notification",
    task_id: task.taskId,
    run_id: task.runId,
    tool_use_id: task.toolUseId,
    status: ending.status,
    output_file: ending.outputFile,
    summary: ending.summary,
    usage: wireTaskUsage(ending.usage),
    session_id: context.sessionId,
    uuid: context.newUuid(),
  };
}

/**
 * A subagent's loop events as the lines hosts see, nested under the Agent call: as Claude Code
 * forwards a foreground subagent, only its tool calls (not its text or thinking), their results
 * and their progress. Everything else of its loop stays inside it.
 */
export function nestedLines(event: AgentEvent, task: TaskRef, context: TranslationContext): OutputEvent[] {
  const parent = { parent_tool_use_id: task.toolUseId };
  switch (event.type) {
    case "model_stream":
      if (event.event.type !== "tool_call_end") return [];
      return [{ ...assistantLine(blockFromEndEvent(event.event), event.response, context), ...parent }];
    case "tool_result":
      return [{ ...toolResultLine(event, context), ...parent }];
    case "tool_progress":
      return [
        {
          type: "tool_progress",
          tool_use_id: event.toolUseId,
          tool_name: event.toolName,
          ...parent,
          elapsed_time_seconds: Math.round(event.elapsedMs / 100) / 10,
          progress: { message: event.message, ...(event.details ? { details: event.details } : {}) },
          session_id: context.sessionId,
          uuid: context.newUuid(),
        },
      ];
    default:
      return [];
  }
}

export function wireTaskUsage(usage: TaskUsage): TaskProgressEvent["usage"] {
  return { total_tokens: usage.totalTokens, tool_uses: usage.toolUses, duration_ms: Math.round(usage.durationMs) };
}
