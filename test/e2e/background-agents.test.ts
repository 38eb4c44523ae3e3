import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent } from "../../protocol/events.js";
import { scenarioSchema } from "../../src/mock-server/scenario.js";
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
  userLine,
} from "../helpers/agentwire.js";
import { pidsRunning, until } from "../helpers/processes.js";

/**
 * Agent calls with run_in_background: the call returns at once, the subagent runs on as a
 * `local_agent` background task, its report reaches the model as a task notification, TaskStop
 * stops it, and nothing it started outlives agentwire.
 */
const STREAM_IO = ["--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"];
const DEATH_WAIT_MS = 10_000;

let workspace: Workspace | undefined;
const markers: string[] = [];

afterEach(async () => {
  for (const marker of markers.splice(0)) for (const pid of pidsRunning(marker)) process.kill(pid, "SIGKILL");
  await workspace?.cleanup();
  workspace = undefined;
});

function uniqueSleep(): string {
  const marker = `sleep 33${Math.floor(Math.random() * 1e6)}.5`;
  markers.push(marker);
  return marker;
}

function systemLines(events: OutputEvent[], subtype: string): Array<Record<string, unknown>> {
  return events.filter((event) => event.type === "system" && event.subtype === subtype) as unknown as Array<Record<string, unknown>>;
}

const backgroundAgent = (word: string) => ({
  name: "Agent",
  id: `toolu_bg_${word}`,
  input: { description: `Task ${word}`, prompt: `${word}: work on it`, run_in_background: true },
});

describe("background agents", () => {
  it("return at once; the subagent's report reaches its output file, the host and the model's next request", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { match: "PARENT", tool_calls: [backgroundAgent("BETA")] },
        // Slow enough that the parent's turn ends first.
        { match: "BETA", text: "beta report", chunk_chars: 2, chunk_delay_ms: 250 },
        { match: "PARENT", text: "launched" },
        { match: "PARENT", text: "got the report" },
      ],
    });
    const run = await runAgentwire(["-p", "PARENT: go", "--output-format", "stream-json", "--verbose"], { workspace });
    expectWellFormedRun(run, 2);
    expect(results(run.events).map((result) => result.result)).toEqual(["launched", "got the report"]);

    const [launch] = toolOutcomes(run.events);
    expect(launch!.content).toMatch(/^Async agent launched successfully\.\nagentId: a[0-9a-f]{16}\n/);
    const details = launch!.details as Record<string, unknown>;
    expect(details).toMatchObject({
      isAsync: true,
      status: "async_launched",
      description: "Task BETA",
      prompt: "BETA: work on it",
      resolvedModel: "claude-opus-5-5",
      canReadOutputFile: true,
    });
    const agentId = details.agentId as string;
    expect(launch!.content).toContain(`output_file: ${details.outputFile as string}`);

    expect(systemLines(run.events, "task_started")).toEqual([
      expect.objectContaining({
        task_id: agentId,
        tool_use_id: "toolu_bg_BETA",
        task_type: "local_agent",
        is_backgrounded: true,
        subagent_type: "general-purpose",
        spawn_depth: 1,
      }),
    ]);
    expect(systemLines(run.events, "background_tasks_changed")[0]).toMatchObject({
      tasks: [{ task_id: agentId, task_type: "local_agent", subagent_type: "general-purpose" }],
    });
    expect(systemLines(run.events, "task_notification")).toEqual([
      expect.objectContaining({ task_id: agentId, status: "completed", summary: 'Agent "Task BETA" finished' }),
    ]);
    // The file went with the session's private temp folder; the host and the model were told where it was.
    expect(systemLines(run.events, "task_notification")[0]!.output_file).toBe(details.outputFile);
    expect(results(run.events)[0]!.subagent_stats).toMatchObject({
      spawned: 1,
      started_in_background: 1,
      requested: { background: 1, foreground: 0, unset: 0 },
    });
    // The model heard of the end, with the report, at its next request.
    const last = JSON.stringify(workspace.server.requests.at(-1)!.body);
    expect(last).toContain(`<task-id>${agentId}</task-id>`);
    expect(last).toContain(`<output-file>${details.outputFile as string}</output-file>`);
    expect(last).toContain("<result>beta report</result>");
  });

  it("TaskStop stops a background agent and the command it runs; SIGKILL of agentwire leaves no survivor either", async () => {
    const first = uniqueSleep();
    const second = uniqueSleep();
    const scenario = scenarioSchema.parse({
      turns: [
        { match: "PARENT", tool_calls: [backgroundAgent("GAMMA")] },
        { match: "GAMMA", tool_calls: [{ name: "Bash", input: { command: first } }] },
        { match: "PARENT", text: "started" },
        // TaskStop is deferred: loaded by name first, as Claude Code's models do.
        { match: "PARENT", tool_calls: [{ name: "ToolSearch", input: { query: "select:TaskStop" } }] },
        { match: "PARENT", tool_calls: [{ name: "TaskStop", input: { task_id: "filled in below" } }] },
        { match: "PARENT", text: "stopped" },
        { match: "PARENT", tool_calls: [backgroundAgent("DELTA")] },
        { match: "DELTA", tool_calls: [{ name: "Bash", input: { command: second } }] },
        { match: "PARENT", text: "started again" },
      ],
    });
    workspace = await createWorkspace("text");
    await workspace.server.close();
    workspace.server = await startMockServer({ scenario, log: () => {} });
    const child = spawnAgentwire(STREAM_IO, { workspace });
    const exited = waitForExit(child);
    const launched = waitForEvent(child, (event) => event.type === "user" && event.message.content[0].type === "tool_result");
    child.stdin.write(userLine("PARENT: start"));
    const agentId = launched.then((event) => (event as { tool_use_result: { agentId: string } }).tool_use_result.agentId);
    await waitForEvent(child, (event) => event.type === "result");
    expect(await until(() => pidsRunning(first).length === 1, DEATH_WAIT_MS), "the subagent's command runs between turns").toBe(true);
    (scenario.turns[4] as { tool_calls: Array<{ input: Record<string, unknown> }> }).tool_calls[0]!.input.task_id = await agentId;
    child.stdin.write(userLine("stop it"));
    await waitForEvent(child, (event) => event.type === "result" && event.result === "stopped");
    expect(await until(() => pidsRunning(first).length === 0, DEATH_WAIT_MS), "its command was killed").toBe(true);

    child.stdin.write(userLine("again"));
    await waitForEvent(child, (event) => event.type === "result" && event.result === "started again");
    expect(await until(() => pidsRunning(second).length === 1, DEATH_WAIT_MS)).toBe(true);
    child.kill("SIGKILL");
    const run = await exited;
    expect(run.signal).toBe("SIGKILL");
    expect(await until(() => pidsRunning(second).length === 0, DEATH_WAIT_MS), "no survivor").toBe(true);

    const stop = toolOutcomes(run.events).find((outcome) => outcome.content.includes("Successfully stopped"))!;
    expect(JSON.parse(stop.content)).toMatchObject({ task_id: await agentId, task_type: "local_agent" });
    expect(systemLines(run.events, "task_notification")[0]).toMatchObject({ task_id: await agentId, status: "stopped" });
    // The model stopped it itself: it is not told again.
    expect(JSON.stringify(workspace.server.requests.at(-1)!.body)).not.toContain("<task-notification>");
  });

  it("SIGTERM stops a running background agent: its end is reported, its command killed, exit 143", async () => {
    const marker = uniqueSleep();
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { match: "PARENT", tool_calls: [backgroundAgent("EPSILON")] },
        { match: "EPSILON", tool_calls: [{ name: "Bash", input: { command: marker } }] },
        { match: "PARENT", text: "started" },
      ],
    });
    const child = spawnAgentwire(STREAM_IO, { workspace });
    const exited = waitForExit(child);
    child.stdin.write(userLine("PARENT: start"));
    await waitForEvent(child, (event) => event.type === "result");
    expect(await until(() => pidsRunning(marker).length === 1, DEATH_WAIT_MS)).toBe(true);
    child.kill("SIGTERM");
    const run = await exited;
    expect(run.code).toBe(143);
    expect(systemLines(run.events, "task_notification")).toEqual([expect.objectContaining({ status: "stopped" })]);
    expect(await until(() => pidsRunning(marker).length === 0, DEATH_WAIT_MS), "no survivor").toBe(true);
  });
});
