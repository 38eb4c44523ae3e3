import { describe, expect, it } from "vitest";
import { OutputEventSchema, type OutputEvent } from "../../protocol/events.js";
import { commandEnd } from "../../src/tools/background/background-command.js";
import { BackgroundTasks } from "../../src/tools/background/task-registry.js";
import { monitorEnd } from "../../src/tools/monitor.js";

function registry() {
  const lines: OutputEvent[] = [];
  const tasks = new BackgroundTasks("session-1", (line) => lines.push(OutputEventSchema.parse(line)));
  const stopped: string[] = [];
  const start = (description: string) =>
    tasks.register({
      taskType: "local_bash",
      description,
      toolUseId: "toolu_1",
      outputFile: `/out/${description}.output`,
      command: `run ${description}`,
      stop: () => stopped.push(description),
    });
  const subtypes = () => lines.map((line) => (line.type === "system" ? line.subtype : line.type));
  return { tasks, lines, stopped, start, subtypes };
}

describe("the background task registry", () => {
  it("hands out Claude Code's shell-task ids", () => {
    const ids = Array.from({ length: 50 }, () => BackgroundTasks.newId());
    for (const id of ids) expect(id).toMatch(/^b[0-9a-z]{8}$/);
    expect(new Set(ids).size).toBe(50);
  });

  it("writes valid start and end lines, keeps the set of live tasks, and tells the model once", () => {
    const { tasks, lines, start, subtypes } = registry();
    const id = start("build");
    expect(subtypes()).toEqual(["background_tasks_changed", "task_started"]);
    expect(tasks.running().map((task) => task.id)).toEqual([id]);
    expect(tasks.takeNotifications()).toBeUndefined();
    tasks.end(id, { status: "completed", summary: 'Background command "build" completed (exit code 0)' });
    expect(subtypes()).toEqual([
      "background_tasks_changed",
      "task_started",
      "task_updated",
      "task_notification",
      "background_tasks_changed",
    ]);
    expect(lines.at(-1)).toMatchObject({ tasks: [] });
    expect(tasks.takeNotifications()).toBe(
      `<system-reminder>\n<task-notification>\n<task-id>${id}</task-id>\n<tool-use-id>toolu_1</tool-use-id>\n<output-file>/out/build.output</output-file>\n<status>completed</status>\n<summary>Background command "build" completed (exit code 0)</summary>\n</task-notification>\n</system-reminder>`,
    );
    expect(tasks.takeNotifications(), "taken once").toBeUndefined();
    // A second end (the process's own report after a stop) changes nothing.
    tasks.end(id, { status: "failed", summary: "late" });
    expect(lines).toHaveLength(5);
  });

  it("stop: the task's stop function runs, hosts hear `stopped`/`killed`, the model is not told; unknown ids give undefined", () => {
    const { tasks, stopped, start, lines } = registry();
    const id = start("server");
    expect(tasks.stop("nope")).toBeUndefined();
    expect(tasks.stop(id)).toMatchObject({ id, taskType: "local_bash", command: "run server" });
    expect(stopped).toEqual(["server"]);
    expect(lines.find((line) => line.type === "system" && line.subtype === "task_updated")).toMatchObject({ patch: { status: "killed" } });
    expect(lines.find((line) => line.type === "system" && line.subtype === "task_notification")).toMatchObject({ status: "stopped" });
    expect(tasks.hasNotifications()).toBe(false);
  });

  it("a subagent's task: its own id and fields on task_started, its usage on task_notification", () => {
    const lines: OutputEvent[] = [];
    const tasks = new BackgroundTasks("session-1", (line) => lines.push(OutputEventSchema.parse(line)));
    const id = tasks.register({
      id: "a8199cb6c89732a5e",
      taskType: "local_agent",
      description: "Survey the tests",
      toolUseId: "toolu_9",
      outputFile: "/out/a.output",
      command: "Survey the tests",
      stop: () => undefined,
      started: { subagent_type: "general-purpose", spawn_depth: 1, prompt: "Survey the tests" },
    });
    expect(id).toBe("a8199cb6c89732a5e");
    expect(lines[0]).toMatchObject({ tasks: [{ task_id: id, subagent_type: "general-purpose" }] });
    expect(lines[1]).toMatchObject({
      subtype: "task_started",
      subagent_type: "general-purpose",
      spawn_depth: 1,
      prompt: "Survey the tests",
    });
    const usage = { total_tokens: 2667, tool_uses: 1, duration_ms: 334 };
    tasks.end(id, { status: "completed", summary: 'Agent "Survey the tests" finished', usage });
    expect(lines.find((line) => line.type === "system" && line.subtype === "task_notification")).toMatchObject({ usage });
  });

  it("stopAll ends every task; after mute nothing is written", async () => {
    const { tasks, stopped, start, lines } = registry();
    start("a");
    start("b");
    const woken = tasks.nextChange(60_000);
    tasks.stopAll();
    await woken;
    expect(stopped).toEqual(["a", "b"]);
    expect(tasks.running()).toEqual([]);
    tasks.mute();
    const count = lines.length;
    start("c");
    expect(lines).toHaveLength(count);
  });
});

describe("how a background command and a Monitor end", () => {
  it("a command: completed, failed with its code, stopped at its timeout or on request", () => {
    expect(commandEnd("build", { exitCode: 0, stopReason: undefined }, 1000)).toEqual({
      status: "completed",
      summary: 'Background command "build" completed (exit code 0)',
    });
    expect(commandEnd("build", { exitCode: 2, stopReason: undefined }, 1000)).toEqual({
      status: "failed",
      summary: 'Background command "build" failed with exit code 2',
    });
    expect(commandEnd("build", { exitCode: 143, stopReason: "timeout" }, 1000)).toMatchObject({
      status: "failed",
      summary: expect.stringContaining("1000 ms"),
    });
    expect(commandEnd("build", { exitCode: 143, stopReason: "aborted" }, 1000)).toMatchObject({ status: "stopped" });
  });

  it("a Monitor: its stream ended (with the lines not yet told), expired, or failed", () => {
    expect(monitorEnd("errors", { exitCode: 0, stopReason: undefined }, "last", 3)).toEqual({
      status: "completed",
      summary: 'Monitor "errors" stream ended',
      event: "last",
    });
    expect(monitorEnd("errors", { exitCode: 143, stopReason: "timeout" }, undefined, 3)).toEqual({
      status: "completed",
      summary: 'Monitor "errors" expired after 3 events',
    });
    expect(monitorEnd("errors", { exitCode: 1, stopReason: undefined }, undefined, 0)).toMatchObject({ status: "failed" });
  });
});
