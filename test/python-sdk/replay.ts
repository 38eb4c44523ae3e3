import { spawn } from "node:child_process";
import { BIN, type Workspace } from "../helpers/agentwire.js";
import { lineLabel, replaceStrings, requestKey, type Fixture, type FixtureRun } from "./fixture.js";
import { sdkOptionsEnv } from "./python-sdk.js";
import { isControlLine, observeLine, PythonParseError, raisedOnExit, type Observation } from "./python-sdk-messages.js";
import type { SdkProvider, UseReport } from "./uses.js";

/**
 * Plays a recorded Python SDK session against the built agentwire, without Python: each process
 * the SDK started is started again with its arguments and environment, the SDK's lines are
 * written when agentwire's output reaches the point where the SDK wrote them, and agentwire's
 * requests are answered with the SDK's recorded answers. What the SDK would have seen comes back
 * as a UseReport; what it would have choked on comes back as `problems`.
 */

export interface Replay {
  report: UseReport;
  /** Everything that would have broken the SDK or the user's program, in words. */
  problems: string[];
  /** The `-v` answers, with how long each took (the SDK gives up after 2 s). */
  versionProbes: Array<{ output: string; ms: number }>;
}

type Json = Record<string, unknown>;

export async function replayFixture(fixture: Fixture, options: { workspace: Workspace; provider: SdkProvider }): Promise<Replay> {
  const { workspace, provider } = options;
  const replay: Replay = {
    report: { messages: [], facts: { can_use_tool: [], hooks: [], mcp_tool_calls: [] }, raised: null },
    problems: [],
    versionProbes: [],
  };
  const values: Array<[string, string]> = [
    ["${ROOT}", workspace.root],
    ["${SERVER}", workspace.server.url],
    ["${MODEL}", provider.model],
    ["${OTHER_MODEL}", provider.otherModel.alias],
  ];
  const sessionIds: string[] = [];
  const concrete = <T>(value: T): T =>
    replaceStrings(value, [...values, ...sessionIds.map((id, index): [string, string] => [`\${SESSION_${index}}`, id])]);
  for (const [index, run] of fixture.runs.entries()) {
    if (run.argv.length === 1 && run.argv[0] === "-v") {
      replay.versionProbes.push(await versionProbe(workspace));
      continue;
    }
    const argv = [
      ...concrete(run.argv),
      ...Object.entries(provider.extraArgs(workspace.server.url)).flatMap(([flag, value]) =>
        value === null ? [`--${flag}`] : [`--${flag}`, value],
      ),
    ];
    const env = { PATH: process.env.PATH ?? "", ...sdkOptionsEnv(workspace, provider), ...concrete(run.env) };
    const outcome = await replayRun(run, { argv, env, cwd: workspace.cwd, concrete, replay, runIndex: index });
    for (const id of outcome.sessionIds) if (!sessionIds.includes(id)) sessionIds.push(id);
  }
  return replay;
}

async function versionProbe(workspace: Workspace): Promise<{ output: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, "-v"], {
    cwd: workspace.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: workspace.home },
    stdio: ["ignore", "pipe", "ignore"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  await new Promise((resolve) => child.on("close", resolve));
  return { output, ms: Date.now() - started };
}

interface RunSetup {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  concrete: <T>(value: T) => T;
  replay: Replay;
  runIndex: number;
}

const RUN_TIMEOUT_MS = 30_000;

function replayRun(run: FixtureRun, setup: RunSetup): Promise<{ sessionIds: string[] }> {
  const { replay, concrete } = setup;
  const problem = (text: string) => replay.problems.push(`run ${setup.runIndex}: ${text}`);
  const child = spawn(process.execPath, [BIN, ...setup.argv], { cwd: setup.cwd, env: setup.env, stdio: ["pipe", "pipe", "pipe"] });
  const labelCounts = new Map<string, number>();
  const seenLabels: string[] = [];
  const ourRequests = new Map<string, string>();
  const answeredCounts = new Map<string, number>();
  const sessionIds: string[] = [];
  let nextWrite = 0;
  let lastMessage: Json | undefined;
  let stderr = "";
  child.stdin.on("error", () => {});
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));

  /** Writes every recorded SDK line whose moment has come, in order. */
  const pump = (): void => {
    while (nextWrite < run.writes.length) {
      const write = run.writes[nextWrite]!;
      if (write.after && (labelCounts.get(write.after.label) ?? 0) < write.after.nth) return;
      nextWrite++;
      if ("end" in write) {
        child.stdin.end();
        continue;
      }
      const line = concrete(write.line);
      if (line.type === "control_request") ourRequests.set(String(line.request_id), String((line.request as Json).subtype));
      child.stdin.write(`${JSON.stringify(line)}\n`);
    }
  };

  const answer = (line: Json): void => {
    const request = line.request as Json;
    const key = { subtype: String(request.subtype), key: requestKey(request) };
    const id = `${key.subtype} ${key.key}`;
    const nth = (answeredCounts.get(id) ?? 0) + 1;
    answeredCounts.set(id, nth);
    noteFact(replay.report.facts, request);
    const recorded = run.answers.find(
      (entry) => entry.request.subtype === key.subtype && concrete(entry.request.key) === key.key && entry.nth === nth,
    );
    let response: Json;
    if (recorded) {
      response = { ...concrete(recorded.response), request_id: line.request_id };
      const mcpResponse = (response.response as Json | undefined)?.mcp_response as Json | undefined;
      const message = request.message as Json | undefined;
      // The JSON-RPC answer carries the id of agentwire's message, as the SDK's MCP server does.
      if (mcpResponse && "id" in mcpResponse && message && "id" in message)
        response.response = { mcp_response: { ...mcpResponse, id: message.id } };
    } else {
      problem(`agentwire asked ${id} (#${nth}), which the SDK was never asked when recorded`);
      response = { subtype: "error", request_id: line.request_id, error: "not in the recording" };
    }
    child.stdin.write(`${JSON.stringify({ type: "control_response", response })}\n`);
  };

  const onLine = (text: string): void => {
    let line: Json;
    try {
      line = JSON.parse(text) as Json;
    } catch {
      problem(`a stdout line is not JSON: ${text.slice(0, 200)}`);
      return;
    }
    const label = lineLabel(line, ourRequests);
    labelCounts.set(label, (labelCounts.get(label) ?? 0) + 1);
    seenLabels.push(label);
    if (typeof line.session_id === "string" && line.session_id !== "" && !sessionIds.includes(line.session_id))
      sessionIds.push(line.session_id);
    if (line.type === "control_response") {
      const response = line.response as Json;
      const subtype = ourRequests.get(String(response.request_id));
      if (!subtype) problem(`a control_response answers no request of the SDK: ${text.slice(0, 200)}`);
      else if (response.subtype !== "success") problem(`${subtype} was answered with an error: ${String(response.error)}`);
    } else if (line.type === "control_request") {
      answer(line);
    } else if (!isControlLine(line)) {
      observe(line);
    }
    pump();
  };

  const observe = (line: Json): void => {
    let observation: Observation | null;
    try {
      observation = observeLine(line);
    } catch (error) {
      if (!(error instanceof PythonParseError)) throw error;
      problem(`the SDK cannot parse a ${label(line)} line: ${error.message}`);
      return;
    }
    if (observation) replay.report.messages.push(observation);
    // What the SDK remembers to explain a non-zero exit: the last line, unless it is the state marker.
    if (!(line.type === "system" && line.subtype === "session_state_changed")) lastMessage = line;
  };
  const label = (line: Json) => lineLabel(line, ourRequests);

  let pending = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) if (line !== "") onLine(line);
  });
  pump();

  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      const waiting = run.writes[nextWrite];
      problem(
        `agentwire was still running after ${RUN_TIMEOUT_MS} ms; the SDK's next line waits for ${JSON.stringify(waiting?.after)}; seen: ${seenLabels.join(", ")}\nstderr: ${stderr}`,
      );
      child.kill("SIGKILL");
    }, RUN_TIMEOUT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (pending !== "") onLine(pending);
      if (nextWrite < run.writes.length)
        problem(
          `agentwire exited (${code}) before the SDK wrote ${JSON.stringify(run.writes[nextWrite])}; seen: ${seenLabels.join(", ")}\nstderr: ${stderr}`,
        );
      const raised = raisedOnExit(code, lastMessage);
      if (raised) replay.report.raised = raised;
      resolve({ sessionIds });
    });
  });
}

/** What the user's callback would have been called with: uses.py notes the same in its facts. */
function noteFact(facts: UseReport["facts"], request: Json): void {
  if (request.subtype === "can_use_tool") facts.can_use_tool.push(String(request.tool_name));
  if (request.subtype === "hook_callback") {
    const input = request.input as Json;
    facts.hooks.push({
      event: String(input.hook_event_name),
      tool: (input.tool_name as string | undefined) ?? null,
      input: input.tool_input ?? null,
    });
  }
  const message = request.message as Json | undefined;
  if (request.subtype === "mcp_message" && message?.method === "tools/call") facts.mcp_tool_calls.push((message.params as Json).arguments);
}
