import * as z from "zod";

/**
 * The lines that tell a host about background work (a Bash command run with
 * `run_in_background`, a Monitor, later a background subagent), in Claude Code 2.1.330's shapes.
 * `task_started` and `task_notification` mark one task's start and end; `background_tasks_changed`
 * is the whole set of live tasks after each change, so a host that missed an edge still ends right.
 */

const Uuid = z.string().min(1);
const SessionId = z.string().min(1);

/** What kind of work a task is: a shell command, a subagent, a Monitor. Hosts must accept others. */
export const TaskTypeSchema = z.enum(["local_bash", "local_agent", "monitor"]);

export const BackgroundTasksChangedEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("background_tasks_changed"),
  /** Every live task after the change: replace the set, do not merge. */
  tasks: z.array(
    z.strictObject({
      task_id: z.string().min(1),
      run_id: z.string().min(1),
      task_type: TaskTypeSchema,
      description: z.string(),
      subagent_type: z.string().optional(),
    }),
  ),
  session_id: SessionId,
  uuid: Uuid,
});

const TaskUsageSchema = z.strictObject({
  total_tokens: z.number().int().nonnegative(),
  tool_uses: z.number().int().nonnegative(),
  duration_ms: z.number().int().nonnegative(),
});

export const TaskStartedEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("task_started"),
  task_id: z.string().min(1),
  run_id: z.string().min(1),
  /** The tool call that started it. */
  tool_use_id: z.string().optional(),
  description: z.string(),
  task_type: TaskTypeSchema,
  /** True: the call that started it returned at once. */
  is_backgrounded: z.boolean(),
  subagent_type: z.string().optional(),
  /** 1 for an agent the main conversation started, N+1 for one a depth-N agent started. */
  spawn_depth: z.number().int().positive().optional(),
  prompt: z.string().optional(),
  session_id: SessionId,
  uuid: Uuid,
});

/** A running task did something: for a subagent, one line per tool call it makes. */
export const TaskProgressEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("task_progress"),
  task_id: z.string().min(1),
  run_id: z.string().min(1),
  tool_use_id: z.string().optional(),
  description: z.string(),
  subagent_type: z.string().optional(),
  usage: TaskUsageSchema,
  last_tool_name: z.string().optional(),
  session_id: SessionId,
  uuid: Uuid,
});

export const TaskUpdatedEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("task_updated"),
  task_id: z.string().min(1),
  run_id: z.string().min(1),
  /** The fields that changed; merge into what the host keeps. */
  patch: z.strictObject({
    status: z.enum(["pending", "running", "completed", "failed", "killed", "paused"]).optional(),
    description: z.string().optional(),
    /** Milliseconds since the epoch. */
    end_time: z.number().int().nonnegative().optional(),
    error: z.string().optional(),
    is_backgrounded: z.boolean().optional(),
  }),
  session_id: SessionId,
  uuid: Uuid,
});

export const TaskNotificationEventSchema = z.strictObject({
  type: z.literal("system"),
  subtype: z.literal("task_notification"),
  task_id: z.string().min(1),
  run_id: z.string().min(1),
  tool_use_id: z.string().optional(),
  status: z.enum(["completed", "failed", "stopped"]),
  /** Where the task's output is (Read reads it). */
  output_file: z.string(),
  summary: z.string(),
  usage: TaskUsageSchema.optional(),
  session_id: SessionId,
  uuid: Uuid,
});

export type TaskType = z.infer<typeof TaskTypeSchema>;
export type BackgroundTasksChangedEvent = z.infer<typeof BackgroundTasksChangedEventSchema>;
export type TaskStartedEvent = z.infer<typeof TaskStartedEventSchema>;
export type TaskProgressEvent = z.infer<typeof TaskProgressEventSchema>;
export type TaskUpdatedEvent = z.infer<typeof TaskUpdatedEventSchema>;
export type TaskNotificationEvent = z.infer<typeof TaskNotificationEventSchema>;
