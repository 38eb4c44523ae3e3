import { StringDecoder } from "node:string_decoder";
import * as z from "zod/mini";
import "../validation/english-issues.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { BackgroundTasks, labelOf, type TaskEnd } from "./background/task-registry.js";
import { startBackgroundProcess, taskOutputFile, type BackgroundEnd } from "./background/background-process.js";
import { monitorEventNotification } from "./background/task-notification.js";
import { planBashInvocation } from "./bash-invocation.js";
import { shellStartDirectory } from "./bash.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";
import { defineTool, toolError } from "./define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";

const DEFAULT_TIMEOUT_MS = 300_000;
/** Longer deadlines are cut to this, as Claude Code does. */
const MAX_TIMEOUT_MS = 600_000;
/** Lines printed this close together reach the model as one event. */
const BATCH_MS = 200;
/** Events (batches of lines) one monitor may send; past that it is too noisy and is stopped, and the model is told. */
const MAX_EVENTS = 200;
/** Longest event text; a longer batch is cut. */
const MAX_EVENT_CHARS = 4_000;

const description = `Watches a long-running shell command in the background: each line it prints on stdout reaches you as a notification at your next step, while you keep working (these notifications are not the user speaking). The watch ends when the command exits, at its deadline (timeout_ms), or with TaskStop.

- Waiting for one thing (a server up, a build over)? A background Bash call whose command ends once it has happened (\`until curl -sf localhost:3000; do sleep 1; done\`) tells you once. Monitor is for a notification each time something happens.
- Print only the lines you would act on, and every pipe stage must flush each line (\`grep --line-buffered\`, \`awk\` with \`fflush()\`); a stage that buffers delivers nothing.
- Match failures too, not only success: a filter that only looks for "ready" stays silent through a crash.
- Lines printed within ${BATCH_MS} ms arrive as one notification; a monitor that floods you is stopped. stderr is not an event: it goes to the output file with stdout (Read it), so merge it (\`2>&1\`) if it matters.
- It runs in the same shell and working directory as Bash, under the same permissions. After its deadline (default ${DEFAULT_TIMEOUT_MS} ms, at most ${MAX_TIMEOUT_MS}) it is stopped and you are told; start it again if you still need it.`;

const inputSchema = lazySchema(() =>
  z.strictObject({
    description: z.string().check(z.describe("A few words saying what is watched; every notification carries it")),
    timeout_ms: z
      ._default(z.number().check(z.minimum(1000), z.maximum(3_600_000)), DEFAULT_TIMEOUT_MS)
      .check(
        z.describe(
          `Stop watching after this many milliseconds (default ${DEFAULT_TIMEOUT_MS}; more than ${MAX_TIMEOUT_MS} counts as ${MAX_TIMEOUT_MS})`,
        ),
      ),
    command: z.optional(z.string()).check(z.describe("Shell command whose stdout lines are the events; its exit ends the watch")),
    ws: z
      .optional(z.strictObject({ url: z.string(), protocols: z.optional(z.array(z.string())) }))
      .check(z.describe("A WebSocket to watch instead of a command (not supported by agentwire: use command)")),
  }),
);

export const createMonitorTool = () =>
  defineTool({
    name: "Monitor",
    description,
    get inputSchema() {
      return inputSchema();
    },
    ...BUILTIN_TOOL_TRAITS.Monitor,
    async execute(input, context): Promise<ToolResult> {
      const tasks = context.backgroundTasks;
      if (input.ws !== undefined || input.command === undefined)
        return toolError(
          "invalid_input",
          "Give a command to watch: agentwire's Monitor does not open WebSockets (a command such as websocat can).",
        );
      if (!tasks) return toolError("invalid_input", "This session cannot run background tasks.");
      const invocation = await planBashInvocation(input.command, context, shellStartDirectory(context.sessionState, context.cwd));
      if (!("file" in invocation)) return invocation;
      const timeoutMs = Math.min(input.timeout_ms, MAX_TIMEOUT_MS);
      const id = BackgroundTasks.newId();
      const outputFile = await taskOutputFile(context, id);
      const events = new EventBatcher((text) => {
        tasks.notify(id, monitorEventNotification(id, input.description, text));
        if (++events.count >= MAX_EVENTS)
          tasks.stop(id, {
            status: "stopped",
            summary: `${labelOf({ taskType: "monitor", description: input.description })} was stopped: it printed too many events`,
          });
      });
      const started = startBackgroundProcess(invocation, context, {
        outputFile,
        timeoutMs,
        onStdout: (chunk) => events.add(chunk),
        onEnd: (end) => tasks.end(id, monitorEnd(input.description, end, events.drain(), events.count)),
      });
      if ("startError" in started) return toolError("io_error", `Could not start ${invocation.file}: ${started.startError}`);
      tasks.register({
        id,
        taskType: "monitor",
        description: input.description,
        toolUseId: context.toolUseId,
        outputFile,
        command: input.command,
        stop: started.stop,
      });
      return {
        content: `Monitor started (task ${id}, expires in ${Math.round(timeoutMs / 1000)}s unless the source ends first; each line it prints reaches you as a notification, and TaskStop with this id ends it early).`,
        isError: false,
        details: { taskId: id, timeoutMs, outputFile },
      };
    },
  });

/** A monitor's end as its notification says it, with the lines not yet delivered. Pure. */
export function monitorEnd(description: string, end: BackgroundEnd, lastLines: string | undefined, eventCount: number): TaskEnd {
  const label = labelOf({ taskType: "monitor", description });
  const event = lastLines === undefined ? {} : { event: lastLines };
  if (end.stopReason === "timeout")
    return { status: "completed", summary: `${label} expired after ${eventCount} event${eventCount === 1 ? "" : "s"}`, ...event };
  if (end.stopReason === "aborted") return { status: "stopped", summary: `${label} was stopped`, ...event };
  const exit = end.exitCode === 0 ? "" : ` (exit code ${end.exitCode})`;
  return { status: end.exitCode === 0 ? "completed" : "failed", summary: `${label} stream ended${exit}`, ...event };
}

/** Gathers stdout into whole lines and hands them on in batches of lines printed close together. */
class EventBatcher {
  count = 0;
  private readonly decoder = new StringDecoder("utf8");
  private partial = "";
  private lines: string[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deliver: (text: string) => void) {}

  add(chunk: Buffer): void {
    const parts = (this.partial + this.decoder.write(chunk)).split("\n");
    this.partial = parts.pop()!;
    this.lines.push(...parts.filter((line) => line.trim() !== ""));
    if (this.lines.length > 0 && this.timer === undefined) this.timer = setTimeout(() => this.flush(), BATCH_MS);
  }

  /** Whatever is held, the last unfinished line included; undefined when nothing is. */
  drain(): string | undefined {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rest = (this.partial + this.decoder.end()).trim();
    if (rest !== "") this.lines.push(rest);
    this.partial = "";
    return this.take();
  }

  private flush(): void {
    this.timer = undefined;
    const text = this.take();
    if (text !== undefined) this.deliver(text);
  }

  private take(): string | undefined {
    if (this.lines.length === 0) return undefined;
    const text = this.lines.splice(0).join("\n");
    return text.length > MAX_EVENT_CHARS ? `${text.slice(0, MAX_EVENT_CHARS)}…` : text;
  }
}
