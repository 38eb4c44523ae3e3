import { randomBytes, randomUUID } from "../../text/random-uuid.js";
import type { TaskNotificationEvent, TaskStartedEvent, TaskType } from "../../../protocol/task-events.js";
import type { OutputEvent } from "../../../protocol/events.js";
import { notificationsForModel, taskEndNotification, type TaskEndStatus } from "./task-notification.js";

/** A task as the registry is told about it when it starts. */
export interface TaskRegistration {
  taskType: TaskType;
  /** Shown to hosts and in the model's notices. */
  description: string;
  /** The tool call that started it. */
  toolUseId: string | undefined;
  /** Where its output goes; Read reads it. */
  outputFile: string;
  /** What it runs, for TaskStop's answer (a command line, an agent's prompt). */
  command: string;
  /** Stops its work (a process group, a subagent's loop). Its own end report is then ignored. */
  stop: () => void;
  /** The id, when the kind of task has its own form (subagents); else `b` and 8 base-36 characters. */
  id?: string;
  /** The run's id, when the task's own lines already named it (a subagent's progress lines). */
  runId?: string;
  /** Subagents' fields of `system/task_started`. */
  started?: Pick<TaskStartedEvent, "subagent_type" | "spawn_depth" | "prompt">;
}

/** A task that has not ended. */
export interface RunningTask {
  readonly id: string;
  readonly taskType: TaskType;
  readonly description: string;
  readonly command: string;
}

/** How a task ended, as it reports it. */
export interface TaskEnd {
  status: TaskEndStatus;
  summary: string;
  /** Text for the model beside the summary (a Monitor's last lines). */
  event?: string;
  /** What the task hands back to the model (a subagent's final report). */
  result?: string;
  /** What a subagent used, for hosts. */
  usage?: TaskNotificationEvent["usage"];
}

interface Task extends RunningTask {
  readonly runId: string;
  readonly registration: TaskRegistration;
}

/** `task_updated` says `killed` where the notification says `stopped`, as Claude Code's lines do. */
const UPDATED_STATUS = { completed: "completed", failed: "failed", stopped: "killed" } as const;

/**
 * The session's one list of background tasks, whatever runs them: it hands out their ids,
 * writes the lines that tell hosts about them, keeps what the model is to be told at its next
 * request, and stops them (one, or all when the session ends).
 */
export class BackgroundTasks {
  private readonly tasks = new Map<string, Task>();
  private readonly pending: string[] = [];
  private readonly waiters = new Set<() => void>();
  private muted = false;

  constructor(
    private readonly sessionId: string,
    private readonly emit: (event: OutputEvent) => void,
  ) {}

  /** A fresh id in Claude Code's shell-task form. */
  static newId(): string {
    return `b${[...randomBytes(8)].map((byte) => (byte % 36).toString(36)).join("")}`;
  }

  /** Starts tracking a task that runs from now on; returns its id. */
  register(registration: TaskRegistration): string {
    const id = registration.id ?? BackgroundTasks.newId();
    const task: Task = {
      id,
      runId: registration.runId ?? randomUUID(),
      taskType: registration.taskType,
      description: registration.description,
      command: registration.command,
      registration,
    };
    this.tasks.set(id, task);
    this.announceSet();
    this.line({
      type: "system",
      subtype: "task_started",
      task_id: id,
      run_id: task.runId,
      ...(registration.toolUseId === undefined ? {} : { tool_use_id: registration.toolUseId }),
      description: registration.description,
      task_type: registration.taskType,
      is_backgrounded: true,
      ...registration.started,
    });
    return id;
  }

  /** Something the model is to hear while the task goes on (a Monitor's event). */
  notify(id: string, text: string): void {
    if (!this.tasks.has(id)) return;
    this.pending.push(text);
    this.wake();
  }

  /** The task ended on its own (or after `stop`: then the first end counts). */
  end(id: string, end: TaskEnd, tellModel = true): void {
    const task = this.tasks.get(id);
    if (!task) return;
    this.tasks.delete(id);
    const { registration } = task;
    this.line({
      type: "system",
      subtype: "task_updated",
      task_id: id,
      run_id: task.runId,
      patch: { status: UPDATED_STATUS[end.status], end_time: Date.now() },
    });
    this.line({
      type: "system",
      subtype: "task_notification",
      task_id: id,
      run_id: task.runId,
      ...(registration.toolUseId === undefined ? {} : { tool_use_id: registration.toolUseId }),
      status: end.status,
      output_file: registration.outputFile,
      summary: end.summary,
      ...(end.usage === undefined ? {} : { usage: end.usage }),
    });
    this.announceSet();
    if (tellModel)
      this.pending.push(
        taskEndNotification({
          taskId: id,
          toolUseId: registration.toolUseId,
          outputFile: registration.outputFile,
          status: end.status,
          summary: end.summary,
          event: end.event,
          result: end.result,
        }),
      );
    this.wake();
  }

  /**
   * Stops a running task; undefined when no task has that id. Without `end` the model asked for
   * it (TaskStop) or the session ends, so the model is not told; with it, it is.
   */
  stop(id: string, end?: TaskEnd): RunningTask | undefined {
    const task = this.tasks.get(id);
    if (!task) return undefined;
    task.registration.stop();
    this.end(id, end ?? { status: "stopped", summary: `${labelOf(task)} was stopped` }, end !== undefined);
    return task;
  }

  /** Stops every task (the session ends); their end lines go out before this returns. */
  stopAll(): void {
    for (const id of [...this.tasks.keys()]) this.stop(id);
  }

  /** From now on nothing is written: whoever read the lines is gone. */
  mute(): void {
    this.muted = true;
  }

  running(): RunningTask[] {
    return [...this.tasks.values()];
  }

  /** What the model has not been told yet, as one text (taken: told once), or undefined. */
  takeNotifications(): string | undefined {
    if (this.pending.length === 0) return undefined;
    return notificationsForModel(this.pending.splice(0));
  }

  hasNotifications(): boolean {
    return this.pending.length > 0;
  }

  /** Resolves at the next task end or notice, or after `timeoutMs`. */
  nextChange(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  private announceSet(): void {
    this.line({
      type: "system",
      subtype: "background_tasks_changed",
      tasks: [...this.tasks.values()].map((task) => ({
        task_id: task.id,
        run_id: task.runId,
        task_type: task.taskType,
        description: task.description,
        ...(task.registration.started?.subagent_type === undefined ? {} : { subagent_type: task.registration.started.subagent_type }),
      })),
    });
  }

  private line(event: DistributiveOmit<OutputEvent, "session_id" | "uuid">): void {
    if (this.muted) return;
    this.emit({ ...event, session_id: this.sessionId, uuid: randomUUID() } as OutputEvent);
  }
}

/** How a task is named in its summary. */
export function labelOf(task: Pick<RunningTask, "taskType" | "description">): string {
  const kind = task.taskType === "local_bash" ? "Background command" : task.taskType === "monitor" ? "Monitor" : "Agent";
  return `${kind} "${task.description}"`;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
