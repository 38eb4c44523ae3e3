// `npm run demo`: one real agentwire session against the bundled replay server.
//
// No API key and no network beyond loopback: `agentwire mock-server` plays the model from
// fixtures/scenarios/demo.json, and agentwire runs real Write / Bash / Read tool calls in a fresh
// temporary directory.
//
// stdout: agentwire's stream-json output, line for line, unchanged (pipe it into jq).
// stderr: the same events as `agentwire render` shows them, then the files the agent created.
// Exit code: agentwire's.

import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { outputWidth, TranscriptRenderer, wantsColor } from "../dist/index.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "bin", "agentwire");
const SCENARIO = join(ROOT, "fixtures", "scenarios", "demo.json");
const PROMPT =
  "Give me a quick tour of your tools: write a small greeting file under demo/, look at it with the shell, read it back, and summarize what you did.";
const MOCK_START_TIMEOUT_MS = 15_000;
const CHILD_EXIT_GRACE_MS = 3_000;

/** Children still running; every one of them is stopped before this process exits. */
const children = new Set();
let agent;
let workDir;
let stopping = false;

const note = (line) => process.stderr.write(`${line}\n`);

// Children run in their own process group, so Ctrl-C reaches only this script, which then hands
// agentwire exactly one signal: agentwire ends the running turn with its `result` line and exits
// (130 / 143). A second Ctrl-C kills everything at once.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => void abort(signal));

try {
  process.exitCode = await main();
} catch (error) {
  // After Ctrl-C the children die under main(); that is not worth reporting.
  if (!stopping) note(`demo: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = stopping ? 130 : 1;
} finally {
  await cleanUp();
}
process.exit();

async function main() {
  const mock = await startMockServer();
  note(`replay server ${mock.url} (scenario fixtures/scenarios/demo.json)`);

  workDir = await mkdtemp(join(tmpdir(), "agentwire-demo-"));
  const home = join(workDir, ".agentwire-home");
  note(`working directory ${workDir}`);
  note(`prompt: ${PROMPT}`);
  note("");

  agent = track(
    spawn(
      process.execPath,
      // acceptEdits: the agent may write files in its (throwaway) working directory.
      [BIN, "-p", PROMPT, "--output-format", "stream-json", "--verbose", "--permission-mode", "acceptEdits", "--cwd", workDir],
      {
        cwd: ROOT,
        env: { ...process.env, ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: "demo-key", AGENTWIRE_HOME: home },
        stdio: ["ignore", "pipe", "inherit"],
        detached: true,
      },
    ),
  );
  const exited = exitOf(agent);

  const renderer = new TranscriptRenderer({
    width: outputWidth(process.stderr, process.env),
    color: wantsColor(process.stderr, process.env),
  });
  for await (const line of createInterface({ input: agent.stdout, crlfDelay: Infinity })) {
    process.stdout.write(`${line}\n`);
    let item;
    try {
      item = { kind: "event", event: JSON.parse(line) };
    } catch {
      item = { kind: "invalid", text: line };
    }
    for (const text of renderer.render(item)) note(text);
  }

  const { code, signal } = await exited;
  const exitCode = code ?? 128 + signalNumber(signal);
  if (stopping) return exitCode;
  note("");
  note(`agentwire exited with ${code ?? signal}`);
  if (exitCode !== 0) {
    const serverLog = mock.log().trim();
    if (serverLog) note(`replay server log:\n${serverLog}`);
  }
  await showFiles(workDir, home);
  return exitCode;
}

/** Starts `agentwire mock-server` and waits for its `{"type":"mock_server","url":…}` line. */
async function startMockServer() {
  const child = track(
    spawn(process.execPath, [BIN, "mock-server", "--port", "0", "--scenario", SCENARIO], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    }),
  );
  // The server's own log is kept quiet unless something goes wrong.
  let log = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    log += chunk;
  });
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  const announced = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the replay server did not start within ${MOCK_START_TIMEOUT_MS} ms\n${log}`)),
      MOCK_START_TIMEOUT_MS,
    );
    lines.once("line", (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`unexpected first line from the replay server: ${line}`));
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the replay server exited early (${code ?? signal})\n${log}`));
    });
  });
  const first = await announced;
  if (first.type !== "mock_server" || typeof first.url !== "string")
    throw new Error(`unexpected first line from the replay server: ${JSON.stringify(first)}`);
  return { url: first.url, log: () => log };
}

/** Lists what the agent left in its working directory, and where the session was saved. */
async function showFiles(dir, home) {
  const files = (await walk(dir)).filter((file) => !file.startsWith(home));
  note(files.length ? `files the agent created in ${dir}:` : `the agent created no files in ${dir}`);
  for (const file of files) {
    const content = await readFile(file, "utf8");
    note(`--- ${relative(dir, file)} (${Buffer.byteLength(content)} bytes)`);
    process.stderr.write(content.endsWith("\n") || content === "" ? content : `${content}\n`);
  }
  for (const file of (await walk(join(home, "projects"))).filter((path) => path.endsWith(".jsonl"))) {
    const lines = (await readFile(file, "utf8")).split("\n").filter(Boolean).length;
    note(`session saved to ${relative(dir, file)} (${lines} lines; removed with the temporary directory)`);
  }
}

async function walk(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await walk(path)));
    else if ((await stat(path)).isFile()) files.push(path);
  }
  return files;
}

function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal] ?? 1;
}

function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  child.once("error", (error) => {
    children.delete(child);
    note(`demo: cannot start ${BIN}: ${error.message}`);
  });
  return child;
}

function exitOf(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", () => resolve({ code: 1, signal: null }));
  });
}

/** Stops agentwire, then every other child (SIGTERM, SIGKILL after a grace period); removes the temp dir. */
async function cleanUp() {
  if (agent && children.has(agent)) await stop(agent, "SIGTERM");
  await Promise.all([...children].map((child) => stop(child, "SIGTERM")));
  if (workDir) {
    await rm(workDir, { recursive: true, force: true });
    workDir = undefined;
  }
}

async function stop(child, signal) {
  const exited = exitOf(child);
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), CHILD_EXIT_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * Ctrl-C / SIGTERM / SIGHUP: pass one SIGINT or SIGTERM to agentwire and let main() finish
 * (it prints agentwire's last lines, then cleans up). Before agentwire runs, or on a second
 * signal, stop everything now.
 */
async function abort(signal) {
  const code = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }[signal];
  if (stopping || !agent || !children.has(agent)) {
    const force = stopping;
    stopping = true;
    note(`\ndemo: ${signal} received, stopping now`);
    for (const child of children) child.kill(force ? "SIGKILL" : "SIGTERM");
    if (workDir) await rm(workDir, { recursive: true, force: true });
    process.exit(code);
  }
  stopping = true;
  note(`\ndemo: ${signal} received, interrupting agentwire`);
  void stop(agent, signal === "SIGINT" ? "SIGINT" : "SIGTERM");
}
