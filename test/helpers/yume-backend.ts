import { spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import { createRequire } from "node:module";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { tmpdir } from "node:os";
import type { z } from "zod";
import { scenarioSchema } from "../../src/mock-server/scenario.js";
import { startMockServer, type MockServer } from "../../src/mock-server/server.js";
import { BIN } from "./agentwire.js";
import type { YumeInvocation } from "./yume.js";

/**
 * Yume's real backend (its socket.io server, unmodified from aofp/yume) run against agentwire:
 * a recording `claude` shim on CLAUDE_PATH execs the built binary, and a loopback router sends
 * the model requests of the title generator to one replay server and everything else to the
 * current step's. Used by test/e2e/yume-live.test.ts only where such a backend is installed.
 */

/** The backend file and the folder holding it with its npm dependencies (socket.io, express, cors, socket.io-client). */
export const YUME_DIR = process.env.AGENTWIRE_YUME_DIR ?? "/tmp/yume";
export const YUME_SERVER = join(YUME_DIR, "server-claude-linux.cjs");

/**
 * The CLI under test: the built agentwire, or the real Claude Code for comparison when
 * AGENTWIRE_YUME_CLI names its binary (IS_SANDBOX lets it take --dangerously-skip-permissions as root).
 */
export const YUME_CLI: { name: string; command: string[]; env: Record<string, string> } = process.env.AGENTWIRE_YUME_CLI
  ? { name: "Claude Code", command: [process.env.AGENTWIRE_YUME_CLI], env: { IS_SANDBOX: "1" } }
  : { name: "agentwire", command: [process.execPath, BIN], env: {} };
const PROJECT_PARENT = "/dev/shm";

/** Why the live test cannot run here, or undefined when it can. */
export async function yumeBackendMissing(): Promise<string | undefined> {
  const exists = (path: string): Promise<boolean> =>
    stat(path).then(
      () => true,
      () => false,
    );
  if (!(await exists(YUME_SERVER))) return `no Yume backend at ${YUME_SERVER} (set AGENTWIRE_YUME_DIR; see fixtures/yume/README.md)`;
  // Yume replaces a working directory whose path contains "/tmp/" by the home folder.
  if (!(await isDirectory(PROJECT_PARENT))) return `no ${PROJECT_PARENT} to hold a project folder outside /tmp (Yume refuses those)`;
  for (const name of ["socket.io", "socket.io-client", "express", "cors"]) {
    if (!(await exists(join(YUME_DIR, "node_modules", name)))) return `${YUME_DIR}/node_modules/${name} is missing (npm install it there)`;
  }
  return undefined;
}

/** One event as the UI receives it on `message:<id>` (batches flattened) or `title:<id>`. */
export interface UiEvent {
  channel: "message" | "title";
  payload: Record<string, unknown>;
}

/** What the shim saw of one CLI process: the invocation plus what came back. */
export interface ShimRecord extends YumeInvocation {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface SocketClient {
  on(event: string, listener: (...args: unknown[]) => void): void;
  emit(event: string, ...args: unknown[]): void;
  disconnect(): void;
}

export interface YumeBackend {
  home: string;
  /** The project folder the UI opens (under /dev/shm: Yume refuses any path containing /tmp/). */
  project: string;
  /** Every CLI process so far, in the order they ended. */
  records(): Promise<ShimRecord[]>;
  /** Serves `scenario` to the next turns (the title generator keeps its own server). */
  useScenario(scenario: z.input<typeof scenarioSchema>): Promise<MockServer>;
  /** A new UI window: a fresh socket.io connection. */
  connect(): Promise<YumeUi>;
  /** Everything Yume itself wrote to stderr (it relays each byte of the CLI's stderr there too). */
  serverStderr(): string;
  close(): Promise<void>;
}

export interface YumeUi {
  /** Events of one Yume session, in arrival order. */
  events(sessionId: string): UiEvent[];
  /** Events of every session this window listened to. */
  allEvents(): UiEvent[];
  /** Emits and resolves with the acknowledgement, as the UI's client does. */
  call<T>(event: string, payload: unknown): Promise<T>;
  waitFor(sessionId: string, predicate: (event: UiEvent) => boolean, timeoutMs?: number): Promise<UiEvent>;
  close(): void;
}

/** Words of Yume's title prompt, which its title generator sends as the model's user message. */
const TITLE_MARKER = "task: reply with ONLY 1-3 words";

export async function startYumeBackend(titleScenario: z.input<typeof scenarioSchema>): Promise<YumeBackend> {
  const root = await mkdtemp(join(tmpdir(), "agentwire-yume-"));
  const home = join(root, "home");
  const shimDir = join(root, "shim");
  const recordFile = join(root, "invocations.jsonl");
  const project = await mkdtemp(join(PROJECT_PARENT, "agentwire-yume-project-"));
  // No skills folder: a first run, as a new Yume user has it.
  await mkdir(home, { recursive: true });
  await mkdir(shimDir);

  const quiet = { log: () => {} };
  const titleServer = await startMockServer({ scenario: scenarioSchema.parse(titleScenario), ...quiet });
  let current: MockServer | undefined;
  const router = await startRouter((body) => (body.includes(TITLE_MARKER) ? titleServer : current));

  const port = await freePort();
  const serverEnv: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    PORT: String(port),
    ANTHROPIC_BASE_URL: router.url,
    ANTHROPIC_API_KEY: "test-key",
    CLAUDE_PATH: join(shimDir, "claude"),
    ...YUME_CLI.env,
  };
  await writeFile(
    serverEnv.CLAUDE_PATH!,
    shimSource({ recordFile, command: YUME_CLI.command, node: process.execPath, baseEnv: serverEnv }),
  );
  await chmod(serverEnv.CLAUDE_PATH!, 0o755);

  const server = spawn(process.execPath, [YUME_SERVER], { cwd: YUME_DIR, env: serverEnv, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  server.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  await waitForHealth(port, server, () => stderr);

  const requireFromYume = createRequire(join(YUME_DIR, "package.json"));
  const { io } = requireFromYume("socket.io-client") as { io(url: string, options: Record<string, unknown>): SocketClient };
  const sockets: SocketClient[] = [];

  return {
    home,
    project,
    async records() {
      const text = await readFile(recordFile, "utf8").catch(() => "");
      return text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ShimRecord);
    },
    async useScenario(scenario) {
      await current?.close();
      current = await startMockServer({ scenario: scenarioSchema.parse(scenario), ...quiet });
      return current;
    },
    async connect() {
      // The UI's own options (claudeCodeClient.ts), without reconnection: a test fails instead.
      const socket = io(`http://localhost:${port}`, { reconnection: false, transports: ["websocket", "polling"], forceNew: true });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.on("connect", () => resolve());
        socket.on("connect_error", (error) => reject(error as Error));
      });
      return uiOver(socket);
    },
    serverStderr: () => stderr,
    async close() {
      for (const socket of sockets) socket.disconnect();
      await stopProcess(server);
      await Promise.all([router.close(), titleServer.close(), current?.close()]);
      await rm(root, { recursive: true, force: true });
      await rm(project, { recursive: true, force: true });
    },
  };
}

function uiOver(socket: SocketClient): YumeUi {
  const bySession = new Map<string, UiEvent[]>();
  const waiters: Array<{ sessionId: string; predicate: (event: UiEvent) => boolean; resolve(event: UiEvent): void }> = [];
  const listening = new Set<string>();
  function push(sessionId: string, event: UiEvent): void {
    const list = bySession.get(sessionId) ?? [];
    list.push(event);
    bySession.set(sessionId, list);
    for (const waiter of [...waiters]) {
      if (waiter.sessionId === sessionId && waiter.predicate(event)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  }
  function listen(sessionId: string): void {
    if (listening.has(sessionId)) return;
    listening.add(sessionId);
    socket.on(`message:${sessionId}`, (payload) => push(sessionId, { channel: "message", payload: payload as Record<string, unknown> }));
    socket.on(`messageBatch:${sessionId}`, (batch) => {
      for (const payload of batch as Array<Record<string, unknown>>) push(sessionId, { channel: "message", payload });
    });
    socket.on(`title:${sessionId}`, (payload) => push(sessionId, { channel: "title", payload: payload as Record<string, unknown> }));
  }
  return {
    events: (sessionId) => bySession.get(sessionId) ?? [],
    allEvents: () => [...bySession.values()].flat(),
    call<T>(event: string, payload: unknown): Promise<T> {
      const sessionId =
        (payload as { sessionId?: string; existingSessionId?: string }).existingSessionId ?? (payload as { sessionId?: string }).sessionId;
      if (sessionId) listen(sessionId);
      return new Promise<T>((resolve) =>
        socket.emit(event, payload, (answer: T) => {
          const created = (answer as { sessionId?: string }).sessionId;
          if (created) listen(created);
          resolve(answer);
        }),
      );
    },
    waitFor(sessionId, predicate, timeoutMs = 20_000) {
      listen(sessionId);
      const seen = bySession.get(sessionId)?.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `no matching UI event within ${timeoutMs} ms; saw:\n${(bySession.get(sessionId) ?? []).map((event) => JSON.stringify(event).slice(0, 300)).join("\n")}`,
              ),
            ),
          timeoutMs,
        );
        waiters.push({
          sessionId,
          predicate,
          resolve: (event) => {
            clearTimeout(timer);
            resolve(event);
          },
        });
      });
    },
    close: () => socket.disconnect(),
  };
}

/**
 * The `claude` Yume spawns: runs the CLI under test and records argv, cwd, what Yume added to or changed in the environment,
 * stdin, stdout, stderr and the exit, and otherwise behaves as that CLI. It ignores
 * SIGINT and SIGTERM itself: Yume signals the whole process group, so agentwire gets them too.
 */
function shimSource(config: { recordFile: string; command: string[]; node: string; baseEnv: Record<string, string> }): string {
  return `#!${config.node}
const { spawn } = require("node:child_process");
const { appendFileSync } = require("node:fs");
const config = ${JSON.stringify(config)};
const argv = process.argv.slice(2);
const env = {};
for (const [name, value] of Object.entries(process.env)) if (config.baseEnv[name] !== value) env[name] = value;
const record = { argv, cwd: process.cwd(), env, stdin: "", stdout: "", stderr: "", code: null, signal: null };
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => {});
const child = spawn(config.command[0], [...config.command.slice(1), ...argv], { stdio: ["pipe", "pipe", "pipe"] });
process.stdin.on("data", (chunk) => { record.stdin += chunk; child.stdin.write(chunk); });
process.stdin.on("end", () => child.stdin.end());
process.stdin.on("error", () => {});
child.stdin.on("error", () => {});
child.stdout.on("data", (chunk) => { record.stdout += chunk; process.stdout.write(chunk); });
child.stderr.on("data", (chunk) => { record.stderr += chunk; process.stderr.write(chunk); });
child.on("close", (code, signal) => {
  record.code = code;
  record.signal = signal;
  appendFileSync(config.recordFile, JSON.stringify(record) + "\\n");
  if (signal) { process.removeAllListeners(signal); process.kill(process.pid, signal); }
  else process.exitCode = code;
});
`;
}

/** A loopback HTTP server forwarding each request, body unchanged, to the replay server `pick` names. */
async function startRouter(pick: (body: string) => MockServer | undefined): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const target = pick(body.toString("utf8"));
      if (!target) {
        response
          .writeHead(500, { "content-type": "application/json" })
          .end(JSON.stringify({ type: "error", error: { type: "api_error", message: "no scenario for this step" } }));
        return;
      }
      const upstream = httpRequest(
        new URL(request.url ?? "/", target.url),
        { method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on("error", () => response.destroy());
      response.on("close", () => upstream.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function waitForHealth(port: number, server: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the Yume backend exited with ${server.exitCode}:\n${stderr()}`);
    const healthy = await fetch(`http://127.0.0.1:${port}/health`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the Yume backend did not answer /health within 20 s:\n${stderr()}`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}
