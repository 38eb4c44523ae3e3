import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent } from "../../protocol/events.js";
import { scenarioSchema, type Scenario } from "../../src/mock-server/scenario.js";
import { startMockServer } from "../../src/mock-server/server.js";
import {
  createWorkspace,
  expectWellFormedRun,
  PROVIDERS_UNDER_TEST,
  type ProviderUnderTest,
  results,
  runAgentwire,
  spawnAgentwire,
  toolOutcomes,
  waitForEvent,
  waitForExit,
  type Workspace,
  userLine,
} from "../helpers/agentwire.js";
import { bwrapProblem, needsBwrap } from "../helpers/bwrap.js";
import { pidsRunning, until } from "../helpers/processes.js";
import { needsUnprivilegedUser, unprivilegedUserForSuite } from "../helpers/unprivileged.js";

/**
 * Background work as a host and the model see it: Bash with run_in_background, Monitor and
 * TaskStop, the task_* lines, the model told at its next request, and no task outliving agentwire.
 */
const STREAM_IO = ["--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"];
const PRINT = ["-p", "go", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"];
// How long a process may take to die once agentwire is gone (the watcher's SIGTERM, 1 s, SIGKILL).
const DEATH_WAIT_MS = 10_000;
const TASK_ID =
  /Command running in background with ID: (b[0-9a-z]{8})\. Output is being written to: (\S+)\. You will be notified when it completes\./;

let workspace: Workspace | undefined;
const markers: string[] = [];

afterEach(async () => {
  for (const marker of markers.splice(0)) for (const pid of pidsRunning(marker)) process.kill(pid, "SIGKILL");
  await workspace?.cleanup();
  workspace = undefined;
});

/** A `sleep` whose command line no other process has, so it can be found (and must be gone). */
function uniqueSleep(): string {
  const marker = `sleep 32${Math.floor(Math.random() * 1e6)}.5`;
  markers.push(marker);
  return marker;
}

/** A workspace whose replay server serves `scenario` itself, so a test can fill in a later turn (an id only known at run time). */
async function workspaceServing(scenario: Scenario): Promise<Workspace> {
  const created = await createWorkspace("text");
  await created.server.close();
  created.server = await startMockServer({ scenario, log: () => {} });
  return created;
}

function systemLines(events: OutputEvent[], subtype: string): Array<Record<string, unknown>> {
  return events.filter((event) => event.type === "system" && event.subtype === subtype) as unknown as Array<Record<string, unknown>>;
}

/** The text the model got in request `index`, all messages joined. */
function requestText(index: number): string {
  return JSON.stringify((workspace!.server.requests[index]!.body as { messages: unknown[] }).messages);
}

/** The text of a tool_result line. */
function resultText(event: OutputEvent): string {
  if (event.type !== "user") return "";
  const block = event.message.content[0];
  return block.type === "tool_result" && typeof block.content === "string" ? block.content : "";
}

const isToolResult = (event: OutputEvent): boolean => event.type === "user" && event.message.content[0].type === "tool_result";

describe("Bash run_in_background", () => {
  it("returns at once with an id and an output file Read can read; the end reaches hosts and the model's next request", async () => {
    const scenario = scenarioSchema.parse({
      turns: [
        {
          tool_calls: [
            {
              name: "Bash",
              input: { command: "echo BG-OUT-1; echo BG-ERR >&2", run_in_background: true, description: "Print a greeting" },
            },
          ],
        },
        { text: "started" },
        { tool_calls: [{ name: "Read", input: { file_path: "filled in below" } }] },
        { text: "read it" },
      ],
    });
    workspace = await workspaceServing(scenario);
    const child = spawnAgentwire(STREAM_IO, { workspace });
    const exited = waitForExit(child);
    const firstResult = waitForEvent(child, isToolResult);
    const notified = waitForEvent(child, (event) => event.type === "system" && event.subtype === "task_notification");
    child.stdin.write(userLine("start it"));
    const [, taskId, outputFile] = TASK_ID.exec(resultText(await firstResult)) ?? [];
    expect(taskId, "the call answered with Claude Code's text").toBeDefined();
    await notified;
    // The model reads the output file by the path it was given.
    (scenario.turns[2] as { tool_calls: Array<{ input: Record<string, unknown> }> }).tool_calls[0]!.input.file_path = outputFile;
    child.stdin.write(userLine("what did it print?"));
    await waitForEvent(child, (event) => event.type === "result" && event.result === "read it");
    const fileText = readFileSync(outputFile!, "utf8");
    child.stdin.end();
    const run = await exited;
    expectWellFormedRun(run, 2);

    const started = systemLines(run.events, "task_started");
    expect(started).toEqual([
      expect.objectContaining({
        task_id: taskId,
        task_type: "local_bash",
        is_backgrounded: true,
        description: "Print a greeting",
        tool_use_id: expect.any(String),
      }),
    ]);
    expect(systemLines(run.events, "task_updated")).toEqual([
      expect.objectContaining({
        task_id: taskId,
        run_id: started[0]!.run_id,
        patch: { status: "completed", end_time: expect.any(Number) },
      }),
    ]);
    expect(systemLines(run.events, "task_notification")).toEqual([
      expect.objectContaining({
        task_id: taskId,
        status: "completed",
        output_file: outputFile,
        summary: 'Background command "Print a greeting" completed (exit code 0)',
      }),
    ]);
    expect(systemLines(run.events, "background_tasks_changed").map((line) => (line.tasks as unknown[]).length)).toEqual([1, 0]);
    // Both streams were in the file (removed with the session now), and Read showed it.
    expect(fileText.split("\n").sort()).toEqual(["", "BG-ERR", "BG-OUT-1"]);
    expect(toolOutcomes(run.events)[1]!.content).toContain("BG-OUT-1");
    // The second prompt's request told the model, in Claude Code's form, before the user's words.
    expect(requestText(1)).not.toContain("<task-notification>");
    expect(requestText(2)).toContain(
      `<task-notification>\\n<task-id>${taskId}</task-id>\\n<tool-use-id>${started[0]!.tool_use_id as string}</tool-use-id>\\n<output-file>${outputFile}</output-file>\\n<status>completed</status>`,
    );
  });

  it("a task that ends mid-turn is told at the next request, beside the tool results", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "Bash", input: { command: "echo quick", run_in_background: true } }] },
        { tool_calls: [{ name: "Bash", input: { command: "sleep 1" } }] },
        { text: "done" },
      ],
    });
    const run = await runAgentwire(PRINT, { workspace });
    expectWellFormedRun(run, 1);
    const lastRequest = (
      workspace.server.requests[2]!.body as { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> }
    ).messages.at(-1)!;
    expect(lastRequest.role).toBe("user");
    expect(lastRequest.content.map((block) => block.type)).toEqual(["tool_result", "text"]);
    expect(lastRequest.content[1]!.text).toMatch(
      /^<system-reminder>\n<task-notification>[\s\S]*<summary>Background command "echo quick" completed \(exit code 0\)<\/summary>/,
    );
  });

  it.each(Object.keys(PROVIDERS_UNDER_TEST) as ProviderUnderTest[])(
    "%s: the notification reaches the next request as the user's side of the conversation",
    async (provider) => {
      workspace = await createWorkspace("text");
      await workspace.useScenario({
        turns: [
          { tool_calls: [{ name: "Bash", input: { command: "echo quick", run_in_background: true, description: "Say quick" } }] },
          { tool_calls: [{ name: "Bash", input: { command: "sleep 1" } }] },
          { text: "done" },
        ],
      });
      const run = await runAgentwire(PRINT, { workspace, provider });
      expectWellFormedRun(run, 1);
      const body = JSON.stringify(workspace.server.requests[2]!.body);
      expect(body).toContain('<summary>Background command \\"Say quick\\" completed (exit code 0)</summary>');
      // One notification, told once.
      expect(body.split("<task-notification>")).toHaveLength(2);
    },
  );

  it("-p waits for a task still running after the answer, then runs one more turn with its notification", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        {
          tool_calls: [
            { name: "Bash", input: { command: "sleep 1; echo late; exit 3", run_in_background: true, description: "Wait a little" } },
          ],
        },
        { text: "started" },
        { text: "noticed" },
      ],
    });
    const run = await runAgentwire(PRINT, { workspace });
    expectWellFormedRun(run, 2);
    expect(results(run.events).map((result) => result.result)).toEqual(["started", "noticed"]);
    expect(systemLines(run.events, "init")).toHaveLength(2);
    expect(systemLines(run.events, "task_notification")[0]).toMatchObject({
      status: "failed",
      summary: 'Background command "Wait a little" failed with exit code 3',
    });
    expect(requestText(2)).toContain("<status>failed</status>");
  });
});

describe("TaskStop and Monitor", () => {
  it("TaskStop stops a running background command (its process is gone) and answers an unknown id with Claude Code's error", async () => {
    const marker = uniqueSleep();
    const scenario = scenarioSchema.parse({
      turns: [
        { tool_calls: [{ name: "Bash", input: { command: marker, run_in_background: true } }] },
        { text: "started" },
        {
          tool_calls: [
            { name: "TaskStop", input: { task_id: "filled in below" } },
            { name: "TaskStop", input: { task_id: "nonexistent-1" } },
          ],
        },
        { text: "stopped" },
      ],
    });
    workspace = await workspaceServing(scenario);
    const child = spawnAgentwire(STREAM_IO, { workspace });
    const exited = waitForExit(child);
    const firstResult = waitForEvent(child, isToolResult);
    child.stdin.write(userLine("start it"));
    const [, taskId] = TASK_ID.exec(resultText(await firstResult)) ?? [];
    await waitForEvent(child, (event) => event.type === "result");
    expect(await until(() => pidsRunning(marker).length === 1, DEATH_WAIT_MS), "the command runs between turns").toBe(true);
    (scenario.turns[2] as { tool_calls: Array<{ input: Record<string, unknown> }> }).tool_calls[0]!.input.task_id = taskId;
    child.stdin.write(userLine("stop it"));
    await waitForEvent(child, (event) => event.type === "result" && event.result === "stopped");
    expect(await until(() => pidsRunning(marker).length === 0, DEATH_WAIT_MS), "its process group was killed").toBe(true);
    child.stdin.end();
    const run = await exited;
    expectWellFormedRun(run, 2);
    const [, stop, unknown] = toolOutcomes(run.events);
    expect(JSON.parse(stop!.content)).toEqual({
      message: `Successfully stopped task: ${taskId} (${marker})`,
      task_id: taskId,
      task_type: "local_bash",
      command: marker,
    });
    expect(unknown).toMatchObject({ isError: true, content: "<tool_use_error>No task found with ID: nonexistent-1</tool_use_error>" });
    expect(systemLines(run.events, "task_notification")).toEqual([expect.objectContaining({ task_id: taskId, status: "stopped" })]);
    expect(systemLines(run.events, "task_updated")[0]).toMatchObject({ patch: { status: "killed" } });
    // The model stopped it itself: its next request carries no notification about it.
    expect(requestText(3)).not.toContain("<task-notification>");
  });

  it("Monitor: each stdout line reaches the model at its next request as an event, then the end of the stream", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        {
          tool_calls: [
            {
              name: "Monitor",
              input: { description: "build steps", timeout_ms: 5000, command: "echo step-1; sleep 0.5; echo step-2 >&2; echo step-3" },
            },
          ],
        },
        { tool_calls: [{ name: "Bash", input: { command: "sleep 2" } }] },
        { text: "done" },
      ],
    });
    const run = await runAgentwire(PRINT, { workspace });
    expectWellFormedRun(run, 1);
    const [started] = toolOutcomes(run.events);
    const taskId = /^Monitor started \(task (b[0-9a-z]{8}), expires in 5s unless the source ends first/.exec(started!.content)?.[1];
    expect(taskId).toBeDefined();
    expect(systemLines(run.events, "task_started")).toEqual([
      expect.objectContaining({ task_id: taskId, task_type: "monitor", description: "build steps" }),
    ]);
    expect(systemLines(run.events, "task_notification")).toEqual([
      expect.objectContaining({ task_id: taskId, status: "completed", summary: 'Monitor "build steps" stream ended' }),
    ]);
    const told = requestText(2);
    expect(told).toContain(`<task-id>${taskId}</task-id>\\n<summary>Monitor event: \\"build steps\\"</summary>\\n<event>step-1</event>`);
    expect(told).toContain('<summary>Monitor \\"build steps\\" stream ended</summary>\\n<event>step-3</event>');
    // stderr is not an event.
    expect(told.slice(told.indexOf("<task-notification>"))).not.toContain("step-2");
  });
});

describe("Monitor's deadline", () => {
  it("a source that never ends is stopped at timeout_ms, and the model is told how many events it sent", async () => {
    const marker = uniqueSleep();
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "Monitor", input: { description: "ticks", timeout_ms: 1000, command: `echo tick; ${marker}` } }] },
        { tool_calls: [{ name: "Bash", input: { command: "sleep 2.5" } }] },
        { text: "done" },
      ],
    });
    const run = await runAgentwire(PRINT, { workspace });
    expectWellFormedRun(run, 1);
    expect(systemLines(run.events, "task_notification")).toEqual([
      expect.objectContaining({ status: "completed", summary: 'Monitor "ticks" expired after 1 event' }),
    ]);
    expect(requestText(2)).toContain("<event>tick</event>");
    expect(await until(() => pidsRunning(marker).length === 0, DEATH_WAIT_MS), "the source's group was killed").toBe(true);
  });
});

describe("no background task outlives agentwire", () => {
  /** A stream-json session whose first turn started `marker` in the background; resolves once it runs. */
  async function sessionWithBackgroundSleep(marker: string) {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: marker, run_in_background: true } }] }, { text: "started" }],
    });
    const child = spawnAgentwire(STREAM_IO, { workspace });
    const exited = waitForExit(child);
    child.stdin.write(userLine("start it"));
    await waitForEvent(child, (event) => event.type === "result");
    expect(await until(() => pidsRunning(marker).length === 1, DEATH_WAIT_MS), "the background command runs").toBe(true);
    return { child, exited };
  }

  it("SIGTERM: exit 143, the task's end reported to the host, its process group killed", async () => {
    const marker = uniqueSleep();
    const { child, exited } = await sessionWithBackgroundSleep(marker);
    child.kill("SIGTERM");
    const run = await exited;
    expect(run.code).toBe(143);
    expect(systemLines(run.events, "task_notification")).toEqual([expect.objectContaining({ status: "stopped" })]);
    expect(systemLines(run.events, "background_tasks_changed").at(-1)).toMatchObject({ tasks: [] });
    expect(await until(() => pidsRunning(marker).length === 0, DEATH_WAIT_MS), "no survivor").toBe(true);
  });

  it("stdin's end does not end the session at once: it waits for the task, at most AGENTWIRE_BACKGROUND_WAIT_MS, then stops it", async () => {
    const marker = uniqueSleep();
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: marker, run_in_background: true } }] }, { text: "started" }],
    });
    const child = spawnAgentwire(STREAM_IO, { workspace, env: { AGENTWIRE_BACKGROUND_WAIT_MS: "1500" } });
    const exited = waitForExit(child);
    child.stdin.write(userLine("start it"));
    await waitForEvent(child, (event) => event.type === "result");
    child.stdin.end();
    const endedAt = Date.now();
    // Still there a moment after stdin ended: the session waits for its task.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(pidsRunning(marker)).toHaveLength(1);
    const run = await exited;
    expect(Date.now() - endedAt).toBeGreaterThanOrEqual(1400);
    expect(run.code).toBe(0);
    expect(systemLines(run.events, "task_notification")).toEqual([expect.objectContaining({ status: "stopped" })]);
    expect(await until(() => pidsRunning(marker).length === 0, DEATH_WAIT_MS), "no survivor").toBe(true);
  });

  it("SIGKILL: agentwire cannot clean up, and the process watcher still kills the task's group", async () => {
    const marker = uniqueSleep();
    const { child, exited } = await sessionWithBackgroundSleep(marker);
    child.kill("SIGKILL");
    expect((await exited).signal).toBe("SIGKILL");
    expect(await until(() => pidsRunning(marker).length === 0, DEATH_WAIT_MS), "no survivor").toBe(true);
  });

  it("an interrupt (SIGINT) of a -p run waiting for its task ends the run and the task", async () => {
    const marker = uniqueSleep();
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: marker, run_in_background: true } }] }, { text: "started" }],
    });
    const child = spawnAgentwire(PRINT, { workspace });
    child.stdin.end();
    const exited = waitForExit(child);
    await waitForEvent(child, (event) => event.type === "result");
    expect(await until(() => pidsRunning(marker).length === 1, DEATH_WAIT_MS)).toBe(true);
    child.kill("SIGINT");
    const run = await exited;
    expect(run.code).toBe(130);
    expect(results(run.events)).toHaveLength(1);
    expect(await until(() => pidsRunning(marker).length === 0, DEATH_WAIT_MS), "no survivor").toBe(true);
  });

  it("-p stops what still runs once AGENTWIRE_BACKGROUND_WAIT_MS has passed after the answer", async () => {
    const marker = uniqueSleep();
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: marker, run_in_background: true } }] }, { text: "started" }],
    });
    const startedAt = Date.now();
    const run = await runAgentwire(PRINT, { workspace, env: { AGENTWIRE_BACKGROUND_WAIT_MS: "1000" } });
    expect(run.code).toBe(0);
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    expect(results(run.events)).toHaveLength(1);
    expect(systemLines(run.events, "task_notification")).toEqual([expect.objectContaining({ status: "stopped" })]);
    expect(await until(() => pidsRunning(marker).length === 0, DEATH_WAIT_MS), "no survivor").toBe(true);
  });
});

describe("permissions apply to a background command as to any other", () => {
  it("default mode with a host: the command is asked about (with run_in_background in its input) before it starts", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "Bash", input: { command: "touch made-in-background.txt", run_in_background: true } }] },
        { text: "started" },
        { text: "noticed" },
      ],
    });
    const child = spawnAgentwire(
      ["--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--permission-prompt-tool", "stdio"],
      {
        workspace,
      },
    );
    const exited = waitForExit(child);
    const asked = waitForEvent(child, (event) => event.type === "control_request");
    child.stdin.write(userLine("make a file"));
    const request = await asked;
    expect(request).toMatchObject({
      request: { subtype: "can_use_tool", tool_name: "Bash", input: { command: "touch made-in-background.txt", run_in_background: true } },
    });
    // Nothing runs before the answer.
    expect(existsSync(join(workspace.cwd, "made-in-background.txt"))).toBe(false);
    const requestId = (request as { request_id: string }).request_id;
    child.stdin.write(
      `${JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: requestId, response: { behavior: "allow" } } })}\n`,
    );
    await waitForEvent(child, (event) => event.type === "system" && event.subtype === "task_notification");
    expect(existsSync(join(workspace.cwd, "made-in-background.txt"))).toBe(true);
    child.stdin.end();
    const run = await exited;
    // stdin ended with the task's notice not yet told: one more turn tells the model.
    expectWellFormedRun(run, 2);
  });
});

const user = unprivilegedUserForSuite();

describe.skipIf("problem" in user || bwrapProblem !== undefined)(
  `a background command approved only as read-only still runs confined${needsUnprivilegedUser(user)}${needsBwrap}`,
  () => {
    it("the hostile shell start-up of a backgrounded cat cannot write; approved by a rule, the same command can", async () => {
      workspace = await createWorkspace("text");
      const planted = join(workspace.cwd, "planted.txt");
      await writeFile(join(workspace.cwd, "notes.txt"), "notes\n");
      await writeFile(join(workspace.cwd, "hostile.sh"), `echo planted > ${planted}\n`);
      if (!("problem" in user)) user.own(workspace.root);
      const runAs = "problem" in user ? undefined : user;
      const env = { BASH_ENV: join(workspace.cwd, "hostile.sh") };
      const turns = {
        turns: [
          { tool_calls: [{ name: "Bash", input: { command: "cat notes.txt", run_in_background: true } }] },
          { text: "started" },
          { text: "noticed" },
        ],
      };
      await workspace.useScenario(turns);
      const confined = await runAgentwire(["-p", "go", "--output-format", "stream-json", "--verbose"], { workspace, user: runAs, env });
      expectWellFormedRun(confined, 2);
      expect(systemLines(confined.events, "task_notification")).toEqual([expect.objectContaining({ status: "completed" })]);
      expect(existsSync(planted), "the confined command could not write").toBe(false);

      await workspace.useScenario(turns);
      const approved = await runAgentwire(
        ["-p", "go", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash(cat notes.txt)"],
        {
          workspace,
          user: runAs,
          env,
        },
      );
      expectWellFormedRun(approved, 2);
      expect(existsSync(planted), "approved by a rule, it runs unconfined (the test can fail)").toBe(true);
    });
  },
);
