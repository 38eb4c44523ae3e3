import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent } from "../../protocol/events.js";
import { scenarioSchema, type Scenario } from "../../src/mock-server/scenario.js";
import { startMockServer } from "../../src/mock-server/server.js";
import {
  createWorkspace,
  expectWellFormedRun,
  results,
  runAgentwire,
  spawnAgentwire,
  toolOutcomes,
  waitForEvent,
  waitForExit,
  type Workspace,
} from "../helpers/agentwire.js";
import { pidsRunning, until } from "../helpers/processes.js";

/**
 * Background work as a host and the model see it: Bash with run_in_background, Monitor and
 * TaskStop, the task_* lines, the model told at its next request, and no task outliving agentwire.
 */
const STREAM_IO = ["--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"];
const PRINT = ["-p", "go", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"];
const userLine = (content: string): string => `${JSON.stringify({ type: "user", message: { role: "user", content } })}\n`;
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
