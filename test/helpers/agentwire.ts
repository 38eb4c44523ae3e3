import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { z } from "zod";
import { OutputEventSchema, type OutputEvent, type ResultEvent } from "../../protocol/events.js";
import { loadScenario, scenarioSchema, type Scenario } from "../../src/mock-server/scenario.js";
import { startMockServer, type MockServer } from "../../src/mock-server/server.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BIN = join(ROOT, "bin", "agentwire");
/** One prompt in print mode with the protocol on stdout: with no host, nobody can approve anything. */
export const PRINT_ARGS = ["-p", "go", "--output-format", "stream-json", "--verbose"];

/** One stream-json input line carrying a user message (a string or content blocks). */
export const userLine = (content: unknown): string => `${JSON.stringify({ type: "user", message: { role: "user", content } })}\n`;

export interface Workspace {
  /** The temp folder holding cwd and home (and anything a test puts "outside" the workspace). */
  root: string;
  /** Working directory given to agentwire (--cwd). */
  cwd: string;
  /** AGENTWIRE_HOME and HOME of the child. */
  home: string;
  server: MockServer;
  /** Replaces the replay server with one serving `scenario` (the cwd and home stay). */
  useScenario(scenario: z.input<typeof scenarioSchema>): Promise<void>;
  cleanup(): Promise<void>;
}

/** A temp cwd + home and a replay server serving `fixtures/scenarios/<name>.json`. */
export async function createWorkspace(scenarioName: string): Promise<Workspace> {
  const root = await mkdtemp(join(tmpdir(), "agentwire-e2e-"));
  const cwd = join(root, "repo");
  const home = join(root, "home");
  // An existing (empty) skills folder: runs do not install the bundled skills, so every test sees
  // only the skills it creates itself (the install has its own tests).
  await import("node:fs/promises").then((fs) =>
    Promise.all([fs.mkdir(cwd), fs.mkdir(join(home, ".agentwire", "skills"), { recursive: true })]),
  );
  const serve = (scenario: Scenario, name?: string): Promise<MockServer> =>
    startMockServer({ scenario, ...(name ? { scenarioName: name } : {}), log: () => {} });
  const fixture = join("fixtures", "scenarios", `${scenarioName}.json`);
  const workspace: Workspace = {
    root,
    cwd,
    home,
    server: await serve(await loadScenario(join(ROOT, fixture)), fixture),
    async useScenario(scenario) {
      await workspace.server.close();
      workspace.server = await serve(scenarioSchema.parse(scenario));
    },
    async cleanup() {
      await workspace.server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
  return workspace;
}

/**
 * The wire formats the replay server speaks, as agentwire providers pointed at it. `anthropic`
 * is the default and adds nothing: ANTHROPIC_BASE_URL is always set.
 */
export const PROVIDERS_UNDER_TEST = {
  anthropic: { provider: "anthropic", model: "claude-opus-5-5", args: () => [], env: {} },
  "openai-chat": {
    provider: "openai",
    model: "gpt-4.1",
    args: (url: string) => ["--provider", "openai", "--model", "gpt-4.1", "--base-url", `${url}/v1`],
    env: { OPENAI_API_KEY: "test-key" },
  },
  "openai-responses": {
    provider: "openai",
    model: "gpt-5.4",
    args: (url: string) => ["--provider", "openai", "--model", "gpt-5.4", "--openai-api", "responses", "--base-url", `${url}/v1`],
    env: { OPENAI_API_KEY: "test-key" },
  },
  // A local server through the compatible Chat flavour; llama3.1 is a known tool-capable family.
  ollama: {
    provider: "ollama",
    model: "llama3.1:8b",
    args: (url: string) => ["--provider", "ollama", "--model", "llama3.1:8b", "--base-url", `${url}/v1`],
    env: {},
  },
  // The `gemini` alias, with no --provider: the model names its provider.
  gemini: {
    provider: "gemini",
    model: "gemini-3.8-flash",
    args: (url: string) => ["--model", "gemini", "--base-url", url],
    env: { GEMINI_API_KEY: "test-key" },
  },
} satisfies Record<string, { provider: string; model: string; args: (serverUrl: string) => string[]; env: Record<string, string> }>;

export type ProviderUnderTest = keyof typeof PROVIDERS_UNDER_TEST;

export function agentwireEnv(
  workspace: Workspace,
  extra: Record<string, string> = {},
  provider: ProviderUnderTest = "anthropic",
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: workspace.home,
    AGENTWIRE_HOME: join(workspace.home, ".agentwire"),
    ANTHROPIC_BASE_URL: workspace.server.url,
    ANTHROPIC_API_KEY: "test-key",
    ...PROVIDERS_UNDER_TEST[provider].env,
    ...extra,
  };
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Every stdout line, parsed and validated against the protocol schema. */
  events: OutputEvent[];
}

/** Spawns agentwire, feeds `stdin` (or closes it at once), and waits for exit. `provider` adds its flags and env. */
export async function runAgentwire(args: string[], options: AgentwireSpawnOptions & { stdin?: string }): Promise<RunResult> {
  const child = spawnAgentwire(args, options);
  if (options.stdin !== undefined) child.stdin.write(options.stdin);
  child.stdin.end();
  return waitForExit(child);
}

export interface AgentwireSpawnOptions {
  workspace: Workspace;
  env?: Record<string, string>;
  provider?: ProviderUnderTest;
  /** Run as this user (see helpers/unprivileged.ts); the workspace must be theirs first. */
  user?: { uid: number; gid: number };
}

export function spawnAgentwire(args: string[], options: AgentwireSpawnOptions): ChildProcessWithoutNullStreams {
  const provider = options.provider ?? "anthropic";
  return spawn(process.execPath, [BIN, ...args, ...PROVIDERS_UNDER_TEST[provider].args(options.workspace.server.url)], {
    cwd: options.workspace.cwd,
    env: agentwireEnv(options.workspace, options.env, provider),
    stdio: ["pipe", "pipe", "pipe"],
    ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
  });
}

export function waitForExit(child: ChildProcessWithoutNullStreams, timeoutMs = 20_000): Promise<RunResult> {
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`agentwire did not exit within ${timeoutMs} ms.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      let events: OutputEvent[] | undefined;
      resolve({
        code,
        signal,
        stdout,
        stderr,
        // Parsed on first use, so text-format runs can be inspected without it.
        get events() {
          return (events ??= parseStdout(stdout));
        },
      });
    });
  });
}

/** Parses stdout strictly: every line must be one protocol event. */
export function parseStdout(stdout: string): OutputEvent[] {
  if (stdout === "") return [];
  expect(stdout.endsWith("\n"), "stdout ends with a newline").toBe(true);
  return stdout
    .slice(0, -1)
    .split("\n")
    .map((line, index) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new Error(`stdout line ${index + 1} is not JSON: ${line}`);
      }
      const parsed = OutputEventSchema.safeParse(value);
      if (!parsed.success) throw new Error(`stdout line ${index + 1} does not match the protocol: ${parsed.error.message}\n${line}`);
      return value as OutputEvent;
    });
}

/** Compact event labels for sequence assertions: "system/init", "assistant:text", "user:tool_result", "result/success". */
export function sequence(events: OutputEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case "system":
        return `system/${event.subtype}`;
      case "assistant":
        return `assistant:${event.message.content[0].type}`;
      case "user":
        return `user:${event.message.content[0].type}`;
      case "result":
        return `result/${event.subtype}`;
      case "stream_event":
        return `stream:${event.event.type}`;
      case "control_response":
        return `control_response/${event.response.subtype}`;
      case "control_request":
        return `control_request/${event.request.subtype}`;
      case "control_cancel_request":
        return "control_cancel_request";
      case "tool_progress":
        return `tool_progress:${event.tool_name}`;
    }
  });
}

/** A scenario that runs each command as one Bash call of its own turn, then says "done". */
export function bashTurns(commands: readonly string[]): z.input<typeof scenarioSchema> {
  return { turns: [...commands.map((command) => ({ tool_calls: [{ name: "Bash", input: { command } }] })), { text: "done" }] };
}

/** One tool call's outcome as the protocol reports it. */
export interface ToolOutcome {
  /** The result's content: its text, or the JSON of its blocks. */
  content: string;
  isError: boolean;
  /** agentwire's tool_error_code (`permission_denied`, `outside_workspace`, …), when there is one. */
  code: string | undefined;
  /** The tool's structured output (tool_use_result): Bash's stdout and stderr, for instance. */
  details: unknown;
}

/** Every tool_result of a run, in order. */
export function toolOutcomes(events: OutputEvent[]): ToolOutcome[] {
  return events.flatMap((event) => {
    if (event.type !== "user") return [];
    const block = event.message.content[0];
    if (block.type !== "tool_result") return [];
    const content = typeof block.content === "string" ? block.content : JSON.stringify(block.content);
    return [{ content, isError: block.is_error === true, code: event.tool_error_code, details: event.tool_use_result }];
  });
}

export function results(events: OutputEvent[]): ResultEvent[] {
  return events.filter((event): event is ResultEvent => event.type === "result");
}

/**
 * The invariants every run must satisfy: each turn (started by system/init) ends with exactly
 * one result, nothing but control responses follows the last result, every tool_use has exactly
 * one tool_result, one session id throughout, and the exit code agrees with the last is_error.
 */
export function expectWellFormedRun(run: RunResult, expectedTurns: number): void {
  const turnResults = results(run.events);
  expect(turnResults, "one result per turn").toHaveLength(expectedTurns);
  const significant = run.events.filter((event) => event.type !== "control_response");
  const trailing = significant.filter((event) => !(event.type === "system" && event.subtype === "session_state_changed"));
  expect(trailing.at(-1)?.type, "the last line is a result").toBe("result");
  let open = false;
  for (const event of significant) {
    if (event.type === "system" && event.subtype === "init") {
      expect(open, "a new turn starts only after the previous result").toBe(false);
      open = true;
    } else if (event.type === "result") {
      open = false;
    }
  }
  // Per conversation: the main one, and each subagent's (its lines carry the Agent call's id).
  for (const parent of new Set(run.events.map((event) => ("parent_tool_use_id" in event ? event.parent_tool_use_id : null)))) {
    const mine = run.events.filter((event) => ("parent_tool_use_id" in event ? event.parent_tool_use_id : null) === parent);
    const toolUses = mine.flatMap((event) =>
      event.type === "assistant" && event.message.content[0].type === "tool_use" ? [event.message.content[0]] : [],
    );
    const toolResults = mine.flatMap((event) =>
      event.type === "user" && event.message.content[0].type === "tool_result" ? [event.message.content[0].tool_use_id] : [],
    );
    const ids = toolUses.map((block) => ("id" in block ? block.id : ""));
    // In the order the model asked: results of parallel calls come in request order too, except
    // Agent calls', which come as each subagent finishes (as in Claude Code).
    if (toolUses.some((block) => "name" in block && block.name === "Agent"))
      expect([...toolResults].sort(), "exactly one tool_result per tool_use").toEqual([...ids].sort());
    else expect(toolResults, "exactly one tool_result per tool_use, in order").toEqual(ids);
  }
  const sessionIds = new Set(run.events.flatMap((event) => ("session_id" in event ? [event.session_id] : [])));
  if (run.events.some((event) => "session_id" in event)) expect([...sessionIds], "one session id").toHaveLength(1);
  expect(run.code, `exit code agrees with is_error (stderr: ${run.stderr})`).toBe(turnResults.at(-1)?.is_error ? 1 : 0);
}

/** Calls `handle` with each stdout line of `child`, parsed, as it arrives. */
export function onStdoutEvents<Event = OutputEvent>(child: ChildProcessWithoutNullStreams, handle: (event: Event) => void): void {
  let buffer = "";
  child.stdout.on("data", (chunk: Buffer | string) => {
    buffer += chunk.toString();
    const lines = buffer.split("\n");
    buffer = lines.pop()!;
    for (const line of lines) handle(JSON.parse(line) as Event);
  });
}

/** Resolves when stdout has produced a line matching `predicate`. */
export function waitForEvent(
  child: ChildProcessWithoutNullStreams,
  predicate: (event: OutputEvent) => boolean,
  timeoutMs = 10_000,
): Promise<OutputEvent> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => {
      child.stdout.off("data", onData);
      reject(new Error(`no matching event within ${timeoutMs} ms; saw:\n${buffer}`));
    }, timeoutMs);
    const onData = (chunk: Buffer | string): void => {
      buffer += chunk.toString();
      for (const line of buffer.split("\n").slice(0, -1)) {
        const event = JSON.parse(line) as OutputEvent;
        if (predicate(event)) {
          clearTimeout(timer);
          child.stdout.off("data", onData);
          resolve(event);
          return;
        }
      }
    };
    child.stdout.on("data", onData);
  });
}
