// agentwire's benchmark (`npm run bench`, which builds first): spawns the built binary against the
// replay server and prints ONE JSON document. Every figure sits next to `node -e 0` measured in
// the same run, so the ratios survive a noisy machine; targets are ratios, never timed unit tests.
//   startup     --version, --help, a single text answer: first stdout line, result, exit; peak RSS
//   toolTurns   ten Read/Bash tool turns against an instant model: exit, agentwire's time per turn
//   bigOutput   a Bash command printing 5 MB: exit and peak RSS
//   confinement a command judged read-only, confined (default mode) vs the same command unconfined
//               (allowed by a rule): ten calls per run through the binary, and 30 bare spawns of
//               the shell with and without bwrap around it (BENCH_CONFINEMENT=0 skips; needs bwrap)
//   longSession one stream-json process answering N turns (BENCH_TURNS, default 1000): RSS curve
//   resumeLarge --resume of a 100 MB session file (BENCH_SESSION_MB) with a compaction near its end vs a tiny one
//   compaction  300 turns (BENCH_COMPACTION_TURNS) with a 32k context window: compactions, tokens, time each
//   skills      1,000 installed skills: first-line delta, BM25 ranking p95, first-request bytes per tool profile
//   grep        scripts/bench-tools.mjs on a generated 100k-file tree: rg, built-in, grep -r (BENCH_GREP=0 skips)
//   slowMachine the single answer, ten tool turns and (with BENCH_CODEX) Codex again, interleaved, on
//               an emulated slow machine where `node -e 0` takes 45-55 ms (scripts/slow-machine.mjs;
//               BENCH_SLOW=0 skips); `machines` puts both machines' ratios side by side
//   cpu_ms      CPU time (user + system) of a child, median of runs of its own beside the timed ones,
//               as bash's `times` reports it (1 ms steps); node's is a bare `node -e 0` (the other
//               node figures are of one that prints a line)
//   codex       with BENCH_CODEX=/path/to/codex (the Codex CLI's native binary, e.g. from npm's
//               @openai/codex-linux-x64): the single answer by `codex exec` and by agentwire, interleaved
//               against the same replay server (Codex over the Responses API), and their ratio
// NODE_EXTRA_CA_CERTS is removed from the children: it adds ~70 ms to every Node start.
import { spawn, execFileSync } from "node:child_process";
import { startSlowMachine } from "./slow-machine.mjs";
import { readFileSync } from "node:fs";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin/agentwire");
const runs = Number(process.env.BENCH_RUNS ?? 9);
const longTurns = Number(process.env.BENCH_TURNS ?? 1000);
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

const median = (values) => {
  const sorted = [...values].filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] * 10) / 10;
};
const mib = (kib) => Math.round((kib / 1024) * 10) / 10;

/**
 * CPU time (user + system) of one run of a process, in ms: bash runs it and reports what its
 * children used with `times`. Node tells a parent nothing of a child's CPU time, and
 * /proc/self/stat counts it in 1/100 s.
 */
function cpuTime(args, options = {}) {
  return new Promise((resolve, reject) => {
    const script = '"$@" >/dev/null 2>&1 </dev/null; times';
    const command = [options.command ?? process.execPath, ...args];
    const shell = spawn("bash", ["-c", script, "bash", ...command], { env: options.env ?? env, cwd: options.cwd });
    let output = "";
    shell.stdout.on("data", (chunk) => (output += chunk));
    shell.on("error", reject);
    shell.on("close", () => {
      // Two lines: the shell's own user and system time, then its children's.
      const times = [...output.matchAll(/(\d+)m([\d.]+)s/g)].map((match) => Number(match[1]) * 60_000 + Number(match[2]) * 1000);
      const [, , user, system] = times;
      resolve(user + system);
    });
  });
}

/** VmHWM / VmRSS of a live process, in KiB (0 once it is gone). */
function memoryOf(pid, field) {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Spawns and times a process: first stdout line, the `result` line, exit; peak RSS by polling VmHWM. */
function timeProcess(args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(options.command ?? process.execPath, args, {
      env: options.env ?? env,
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const marks = { firstLine: NaN, result: NaN, exit: NaN, peakRssMiB: 0 };
    let buffer = "";
    let peak = 0;
    const poll = setInterval(() => (peak = Math.max(peak, memoryOf(child.pid, "VmHWM"))), 5);
    child.stdout.on("data", (chunk) => {
      if (buffer.length < 1_000_000) buffer += chunk;
      if (Number.isNaN(marks.firstLine) && buffer.includes("\n")) marks.firstLine = performance.now() - started;
      if (Number.isNaN(marks.result) && buffer.includes('"type":"result"')) marks.result = performance.now() - started;
    });
    child.on("error", reject);
    child.on("close", () => {
      clearInterval(poll);
      marks.exit = performance.now() - started;
      marks.peakRssMiB = mib(peak);
      resolve(marks);
    });
  });
}

/** The first user message of the request that warms a replay server up (see startReplayServer). */
const WARM_UP = "bench: warm-up request";

/**
 * A replay server for `scenario`, warmed up by one request of its own before it is handed out: a
 * fresh server compiles its request path at its first request (~8 ms per run on the emulated
 * slow machine), and that belongs to the server, not to the CLI measured. The single answer's
 * server is reused run after run, so without this only the runs with a fresh server paid it.
 */
async function startReplayServer(workdir, name, scenario) {
  const file = join(workdir, `${name}.json`);
  await writeFile(file, JSON.stringify({ ...scenario, turns: [{ text: "ready", match: WARM_UP }, ...scenario.turns] }));
  const server = spawn(process.execPath, [bin, "mock-server", "--port", "0", "--scenario", file], {
    env,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const url = await new Promise((resolve) => server.stdout.once("data", (chunk) => resolve(JSON.parse(String(chunk).split("\n")[0]).url)));
  const warmUp = await fetch(`${url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "bench", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ model: "bench", max_tokens: 16, stream: true, messages: [{ role: "user", content: WARM_UP }] }),
  });
  await warmUp.text();
  // Awaited where CPU time is measured next: a server reaped during a run would count as its CPU.
  const close = () =>
    new Promise((resolve) => {
      if (server.exitCode !== null || server.signalCode !== null) return resolve();
      server.once("exit", resolve);
      server.kill();
    });
  return { url, close };
}

const workdir = await mkdtemp(join(tmpdir(), "agentwire-bench-"));
const project = join(workdir, "project");
await mkdir(project);
await writeFile(join(project, "notes.txt"), "one\ntwo\nthree\n");
const childEnv = (url) => ({ ...env, ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: "bench", AGENTWIRE_HOME: join(workdir, "home") });
const report = { runs };

// --- start-up and a single answer ------------------------------------------------------------
const words = Array.from({ length: 200 }, (_, index) => `word${index}`).join(" ");
const single = await startReplayServer(workdir, "single", { turns: [{ text: words, repeat: true }] });
const baseline = [];
// CPU time is compared with a bare `node -e 0`: writing the line to a pipe costs a few ms more.
const cpu = { node: [], answer: [] };
const version = [];
const help = [];
const answer = [];
for (let run = 0; run < runs; run++) {
  baseline.push(await timeProcess(["-e", "process.stdout.write('x\\n')"]));
  cpu.node.push(await cpuTime(["-e", "0"]));
  version.push(await timeProcess([bin, "--version"]));
  help.push(await timeProcess([bin, "--help"]));
  answer.push(await timeProcess([bin, "-p", "hi", "--output-format", "stream-json", "--cwd", project], { env: childEnv(single.url) }));
  cpu.answer.push(await cpuTime([bin, "-p", "hi", "--output-format", "stream-json", "--cwd", project], { env: childEnv(single.url) }));
}
await single.close();
const nodeExit = median(baseline.map((mark) => mark.exit));
const ratio = (value) => Math.round((value / nodeExit) * 100) / 100;
report.node = {
  exit_ms: nodeExit,
  first_line_ms: median(baseline.map((mark) => mark.firstLine)),
  cpu_ms: median(cpu.node),
  peak_rss_mib: median(baseline.map((mark) => mark.peakRssMiB)),
};
report.startup = {
  version_exit_ms: median(version.map((mark) => mark.exit)),
  help_exit_ms: median(help.map((mark) => mark.exit)),
  first_line_ms: median(answer.map((mark) => mark.firstLine)),
  result_ms: median(answer.map((mark) => mark.result)),
  exit_ms: median(answer.map((mark) => mark.exit)),
  cpu_ms: median(cpu.answer),
  peak_rss_mib: median(answer.map((mark) => mark.peakRssMiB)),
};
report.startup.ratios_to_node = {
  version: ratio(report.startup.version_exit_ms),
  help: ratio(report.startup.help_exit_ms),
  first_line: ratio(report.startup.first_line_ms),
  exit: ratio(report.startup.exit_ms),
  cpu: Math.round((report.startup.cpu_ms / report.node.cpu_ms) * 100) / 100,
};

// --- ten tool turns ---------------------------------------------------------------------------
const toolTurns = Array.from({ length: 10 }, (_, index) =>
  index % 2 === 0
    ? { tool_calls: [{ name: "Read", input: { file_path: "notes.txt" } }] }
    : { tool_calls: [{ name: "Bash", input: { command: "echo hi" } }] },
);
// The run ends with the single answer's text: per turn is the difference between the two runs, which
// would otherwise also hold what streaming 200 words costs over one word (~3.4 ms of CPU).
const toolTurnsScenario = { turns: [...toolTurns, { text: words }] };
const tenTools = await startReplayServer(workdir, "ten-tools", toolTurnsScenario);
const toolRuns = [];
for (let run = 0; run < Math.max(3, Math.ceil(runs / 2)); run++) {
  // The scenario is consumed per run: a fresh server each time.
  const server = run === 0 ? tenTools : await startReplayServer(workdir, `ten-tools-${run}`, toolTurnsScenario);
  toolRuns.push(
    await timeProcess([bin, "-p", "go", "--output-format", "stream-json", "--cwd", project, "--dangerously-skip-permissions"], {
      env: childEnv(server.url),
    }),
  );
  await server.close();
}
const tenToolExit = median(toolRuns.map((mark) => mark.exit));
report.toolTurns = {
  exit_ms: tenToolExit,
  peak_rss_mib: median(toolRuns.map((mark) => mark.peakRssMiB)),
  // What ten turns add to a single answer, per turn: request, tool, session writes, the tools' own work.
  per_turn_ms: Math.round(((tenToolExit - report.startup.exit_ms) / 10) * 10) / 10,
};

// --- 5 MB of output ---------------------------------------------------------------------------
const bigRuns = [];
for (let run = 0; run < 3; run++) {
  const server = await startReplayServer(workdir, `big-${run}`, {
    turns: [
      { tool_calls: [{ name: "Bash", input: { command: "head -c 5000000 /dev/zero | tr '\\\\0' a | fold -w 100" } }] },
      { text: "done" },
    ],
  });
  bigRuns.push(
    await timeProcess([bin, "-p", "go", "--output-format", "stream-json", "--cwd", project, "--dangerously-skip-permissions"], {
      env: childEnv(server.url),
    }),
  );
  await server.close();
}
report.bigOutput = { exit_ms: median(bigRuns.map((mark) => mark.exit)), peak_rss_mib: median(bigRuns.map((mark) => mark.peakRssMiB)) };

// --- confinement of commands judged read-only ----------------------------------------------------
if (process.env.BENCH_CONFINEMENT !== "0") report.confinement = await benchConfinement();

async function benchConfinement() {
  const probe = spawnSyncQuiet("bwrap", ["--ro-bind", "/", "/", "true"]);
  if (probe !== 0) return { skipped: "bwrap cannot run here" };
  const calls = 10;
  const turns = [
    ...Array.from({ length: calls }, () => ({ tool_calls: [{ name: "Bash", input: { command: "cat notes.txt" } }] })),
    { text: "done" },
  ];
  const marks = { confined: [], unconfined: [] };
  for (let run = 0; run < Math.max(3, Math.ceil(runs / 2)); run++) {
    for (const [name, extra] of [
      ["confined", []],
      ["unconfined", ["--allowedTools", "Bash(cat:*)"]],
    ]) {
      const server = await startReplayServer(workdir, `confinement-${name}-${run}`, { turns });
      marks[name].push(
        await timeProcess([bin, "-p", "go", "--output-format", "stream-json", "--cwd", project, ...extra], { env: childEnv(server.url) }),
      );
      await server.close();
    }
  }
  const exitOf = (name) => median(marks[name].map((mark) => mark.exit));
  // The same shell command spawned bare and inside the confinement agentwire builds, without the agent around it.
  const { confinementArguments } = await bundled("src/tools/sandbox/confinement-arguments.ts");
  const { LOCAL_PATH_FACTS } = await bundled("src/tools/sandbox/confinement.ts");
  const temp = join(workdir, "confined-tmp");
  await mkdir(temp);
  const shell = ["/bin/bash", "-c", "cat notes.txt"];
  const confinedArgs = confinementArguments(
    { roots: [project], home: process.env.HOME, hidden: [], tempDirectory: temp, cwd: project, command: shell },
    LOCAL_PATH_FACTS,
  );
  const spawnTimes = { bare: [], confined: [] };
  for (let round = 0; round < 30; round++) {
    spawnTimes.bare.push((await timeProcess(shell.slice(1), { command: shell[0], cwd: project })).exit);
    spawnTimes.confined.push((await timeProcess(confinedArgs, { command: "bwrap", cwd: project })).exit);
  }
  return {
    calls_per_run: calls,
    confined_exit_ms: exitOf("confined"),
    unconfined_exit_ms: exitOf("unconfined"),
    per_command_ms: Math.round(((exitOf("confined") - exitOf("unconfined")) / calls) * 10) / 10,
    bare_spawn_ms: median(spawnTimes.bare),
    confined_spawn_ms: median(spawnTimes.confined),
    spawn_overhead_ms: Math.round((median(spawnTimes.confined) - median(spawnTimes.bare)) * 10) / 10,
  };
}

function spawnSyncQuiet(command, args) {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return 0;
  } catch {
    return 1;
  }
}

/** One source module bundled on its own, to measure it in this process. */
async function bundled(entry) {
  const { build } = await import("esbuild");
  const outfile = join(workdir, `${entry.replaceAll("/", "-")}.mjs`);
  await build({ entryPoints: [join(root, entry)], bundle: true, platform: "node", format: "esm", outfile, logLevel: "warning" });
  return import(outfile);
}

// --- one long stream-json session: RSS per turn -----------------------------------------------
const long = await startReplayServer(workdir, "long", { turns: [{ text: "A short answer.", repeat: true }] });
report.longSession = await new Promise((resolve) => {
  const child = spawn(
    process.execPath,
    [bin, "--input-format", "stream-json", "--output-format", "stream-json", "--cwd", project, "--no-session-persistence"],
    {
      env: childEnv(long.url),
      stdio: ["pipe", "pipe", "ignore"],
    },
  );
  const checkpoints = new Set([1, 10, 100, 250, 500, 750, longTurns]);
  const curve = {};
  let done = 0;
  let buffer = "";
  const started = performance.now();
  const send = () => child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: `turn ${done + 1}` } })}\n`);
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (!line.includes('"type":"result"')) continue;
      done++;
      if (checkpoints.has(done)) curve[done] = mib(memoryOf(child.pid, "VmRSS"));
      if (done < longTurns) send();
      else child.stdin.end();
    }
  });
  child.on("close", () => {
    const first = curve[10] ?? curve[1];
    resolve({
      turns: done,
      seconds: Math.round(performance.now() - started) / 1000,
      rss_mib_by_turn: curve,
      growth_after_turn_10_mib: Math.round((curve[longTurns] - first) * 10) / 10,
    });
  });
  send();
});
await long.close();

// --- resuming a very large session file -------------------------------------------------------
// Written as agentwire writes it: a header, message lines (~20 KB each), turn ends, and one
// compaction 20 messages before the end. Resume reads from the end back to that compaction.
const sessionMb = Number(process.env.BENCH_SESSION_MB ?? 100);
const resumeHome = join(workdir, "home-resume");
const sessionDirectory = join(resumeHome, "projects", project.replace(/[^a-zA-Z0-9]/g, "-"));
await mkdir(sessionDirectory, { recursive: true });
const writeSession = async (id, megabytes) => {
  const now = new Date().toISOString();
  const lines = [
    JSON.stringify({ type: "session", version: 2, session_id: id, cwd: project, created_at: now, agentwire_version: "bench" }),
  ];
  const filler = "lorem ipsum dolor sit amet ".repeat(740);
  const message = (role, index) =>
    JSON.stringify({
      type: "message",
      message: { role, content: [{ type: "text", text: `${role} ${index}: ${filler}` }] },
      timestamp: now,
    });
  const turnEnd = JSON.stringify({ type: "turn_end", total_cost_usd: 1.5, model_usage: {}, timestamp: now });
  const target = megabytes * 1024 * 1024;
  let bytes = lines[0].length;
  for (let index = 0; bytes < target; index++) {
    const pair = [message("user", index), message("assistant", index), turnEnd];
    lines.push(...pair);
    bytes += pair.reduce((sum, line) => sum + line.length + 1, 0);
  }
  const compaction = JSON.stringify({
    type: "compaction",
    trigger: "auto",
    pre_tokens: 150000,
    post_tokens: 9000,
    messages: [{ role: "user", content: [{ type: "text", text: "Summary of the session so far." }] }],
    timestamp: now,
  });
  lines.splice(lines.length - 30, 0, compaction);
  await writeFile(join(sessionDirectory, `${id}.jsonl`), `${lines.join("\n")}\n`);
  return bytes;
};
const largeId = "00000000-0000-4000-8000-00000000b1c0";
const smallId = "00000000-0000-4000-8000-00000000b1c1";
const largeBytes = await writeSession(largeId, sessionMb);
await writeSession(smallId, 0.5);
const resumeServer = await startReplayServer(workdir, "resume", { turns: [{ text: "resumed", repeat: true }] });
const resumeRuns = { large: [], small: [] };
for (let run = 0; run < Math.min(runs, 5); run++) {
  for (const [name, id] of [
    ["large", largeId],
    ["small", smallId],
  ]) {
    const args = [bin, "-p", "go on", "--resume", id, "--output-format", "stream-json", "--cwd", project, "--no-session-persistence"];
    resumeRuns[name].push(await timeProcess(args, { env: { ...childEnv(resumeServer.url), AGENTWIRE_HOME: resumeHome } }));
  }
}
await resumeServer.close();
const summarize = (marks) => ({
  first_line_ms: median(marks.map((mark) => mark.firstLine)),
  exit_ms: median(marks.map((mark) => mark.exit)),
  peak_rss_mib: median(marks.map((mark) => mark.peakRssMiB)),
});
report.resumeLarge = {
  file_mib: Math.round(largeBytes / 1024 / 1024),
  large: summarize(resumeRuns.large),
  small_half_mib: summarize(resumeRuns.small),
};

// --- compaction over a long conversation with a small window -----------------------------------
const compactionTurns = Number(process.env.BENCH_COMPACTION_TURNS ?? 300);
const compactionServer = await startReplayServer(workdir, "compaction", {
  turns: [{ text: `An answer of about a thousand characters. ${"detail ".repeat(120)}`, repeat: true }],
});
report.compaction = await new Promise((resolve) => {
  const child = spawn(
    process.execPath,
    [
      bin,
      "--input-format",
      "stream-json",
      "--output-format",
      "stream-json",
      "--cwd",
      project,
      "--no-session-persistence",
      "--context-window",
      "32000",
    ],
    {
      env: childEnv(compactionServer.url),
      stdio: ["pipe", "pipe", "ignore"],
    },
  );
  const boundaries = [];
  let errorResults = 0;
  let done = 0;
  let buffer = "";
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, memoryOf(child.pid, "VmHWM"))), 20);
  const started = performance.now();
  const send = () =>
    child.stdin.write(
      `${JSON.stringify({ type: "user", message: { role: "user", content: `Question ${done + 1}: ${"context ".repeat(250)}` } })}\n`,
    );
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.includes('"subtype":"compact_boundary"')) boundaries.push(JSON.parse(line).compact_metadata);
      if (!line.includes('"type":"result"')) continue;
      done++;
      if (line.includes('"is_error":true')) errorResults++;
      if (done < compactionTurns) send();
      else child.stdin.end();
    }
  });
  child.on("close", () => {
    clearInterval(poll);
    const durations = boundaries.map((boundary) => boundary.duration_ms).sort((a, b) => a - b);
    resolve({
      turns: done,
      error_results: errorResults,
      context_window: 32000,
      compactions: boundaries.length,
      pre_tokens_median: median(boundaries.map((boundary) => boundary.pre_tokens)),
      post_tokens_median: median(boundaries.map((boundary) => boundary.post_tokens)),
      ms_per_compaction_median: median(durations),
      ms_per_compaction_max: durations.at(-1) ?? 0,
      seconds: Math.round(performance.now() - started) / 1000,
      peak_rss_mib: mib(peak),
    });
  });
  send();
});
await compactionServer.close();

// --- skills: 1,000 installed, ranking, request size per tool profile --------------------------
const fixture = JSON.parse(readFileSync(join(root, "test/fixtures/skills/ranking.json"), "utf8"));
const manyHome = join(workdir, "home-1000-skills");
const noneHome = join(workdir, "home-no-skills");
await mkdir(join(noneHome, "skills"), { recursive: true });
for (let index = 0; index < 1000; index++) {
  const base = fixture.skills[index % fixture.skills.length];
  const name = `${base.name}-${index}`;
  await mkdir(join(manyHome, "skills", name), { recursive: true });
  await writeFile(
    join(manyHome, "skills", name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${JSON.stringify(base.description)}\nwhen_to_use: ${JSON.stringify(base.when_to_use)}\n---\n\nSteps.\n`,
  );
}
const skillServer = await startReplayServer(workdir, "skills", { turns: [{ text: "ok", repeat: true }] });
const withSkills = [];
const withoutSkills = [];
for (let run = 0; run < runs; run++) {
  withoutSkills.push(
    await timeProcess([bin, "-p", "hi", "--output-format", "stream-json", "--cwd", project], {
      env: { ...childEnv(skillServer.url), AGENTWIRE_HOME: noneHome },
    }),
  );
  withSkills.push(
    await timeProcess([bin, "-p", "hi", "--output-format", "stream-json", "--cwd", project], {
      env: { ...childEnv(skillServer.url), AGENTWIRE_HOME: manyHome },
    }),
  );
}
await skillServer.close();
// The ranking itself, in process: the catalog module bundled on its own.
const { build } = await import("esbuild");
const catalogModule = join(workdir, "catalog.mjs");
await build({
  entryPoints: [join(root, "src/skills/catalog.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: catalogModule,
  // The YAML parser is CommonJS: give the ESM bundle a require().
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: "warning",
});
const { SkillCatalog } = await import(catalogModule);
const catalog = SkillCatalog.discover([{ directory: join(manyHome, "skills"), source: "user" }]);
await catalog.rank("warm up");
const rankTimes = [];
for (let round = 0; round < 5; round++) {
  for (const { query } of fixture.queries) {
    const started = performance.now();
    await catalog.rank(query);
    rankTimes.push(performance.now() - started);
  }
}
rankTimes.sort((a, b) => a - b);
const requestBytes = async (extraArgs) => {
  const recordFile = join(workdir, `record-${extraArgs.join("")}.jsonl`);
  const scenario = join(workdir, "profile.json");
  await writeFile(scenario, JSON.stringify({ turns: [{ text: "ok" }] }));
  const server = spawn(process.execPath, [bin, "mock-server", "--port", "0", "--scenario", scenario, "--record", recordFile], {
    env,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const url = await new Promise((resolve) => server.stdout.once("data", (chunk) => resolve(JSON.parse(String(chunk).split("\n")[0]).url)));
  await timeProcess([bin, "-p", "hi", "--cwd", project, ...extraArgs], { env: { ...childEnv(url), AGENTWIRE_HOME: noneHome } });
  server.kill();
  const body = JSON.parse(readFileSync(recordFile, "utf8").split("\n")[0]).body;
  return { request_bytes: JSON.stringify(body).length, tool_definition_bytes: JSON.stringify(body.tools ?? []).length };
};
report.skills = {
  installed: 1000,
  first_line_ms_without: median(withoutSkills.map((mark) => mark.firstLine)),
  first_line_ms_with_1000: median(withSkills.map((mark) => mark.firstLine)),
  first_line_delta_ms:
    Math.round((median(withSkills.map((mark) => mark.firstLine)) - median(withoutSkills.map((mark) => mark.firstLine))) * 10) / 10,
  exit_ms_with_1000: median(withSkills.map((mark) => mark.exit)),
  rank_p50_ms: Math.round(rankTimes[Math.floor(rankTimes.length * 0.5)] * 100) / 100,
  rank_p95_ms: Math.round(rankTimes[Math.floor(rankTimes.length * 0.95)] * 100) / 100,
  first_request: { default_profile: await requestBytes([]), compact_profile: await requestBytes(["--tool-profile", "compact"]) },
};

// --- Grep on a generated tree (~20 s; BENCH_GREP=0 skips it) -----------------------------------
if (process.env.BENCH_GREP !== "0") {
  const output = execFileSync(process.execPath, [join(root, "scripts/bench-tools.mjs")], { env, encoding: "utf8", maxBuffer: 1 << 24 });
  report.grep = JSON.parse(output.trimEnd().split("\n").at(-1));
}

// --- the same single answer, agentwire vs Codex (BENCH_CODEX=/path/to/codex) -------------------
const codexHome = join(workdir, "codex-home");
await mkdir(codexHome);
/** `codex exec` answering "hi" from the replay server at `url`, over the Responses API. */
const timeCodex = (url) => {
  const provider = [
    "-c",
    "model_provider=replay",
    "-c",
    "model_providers.replay.name=replay",
    "-c",
    `model_providers.replay.base_url=${url}/v1`,
    "-c",
    "model_providers.replay.wire_api=responses",
    "-c",
    "model_providers.replay.env_key=OPENAI_API_KEY",
  ];
  return timeProcess(["exec", "--skip-git-repo-check", "--json", ...provider, "-m", "gpt-5", "hi"], {
    command: process.env.BENCH_CODEX,
    cwd: project,
    env: { ...env, CODEX_HOME: codexHome, OPENAI_API_KEY: "bench" },
  });
};
if (process.env.BENCH_CODEX) {
  const server = await startReplayServer(workdir, "codex", { turns: [{ text: words, repeat: true }] });
  const marks = { codex: [], anthropic: [], responses: [] };
  for (let run = 0; run < runs; run++) {
    marks.codex.push(await timeCodex(server.url));
    marks.anthropic.push(
      await timeProcess([bin, "-p", "hi", "--output-format", "stream-json", "--cwd", project], { env: childEnv(server.url) }),
    );
    marks.responses.push(
      await timeProcess(
        [
          bin,
          "-p",
          "hi",
          "--output-format",
          "stream-json",
          "--cwd",
          project,
          "--provider",
          "openai",
          "--model",
          "gpt-5",
          "--openai-api",
          "responses",
        ],
        { env: { ...childEnv(server.url), OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: "bench" } },
      ),
    );
  }
  await server.close();
  const exitOf = (name) => median(marks[name].map((mark) => mark.exit));
  report.codex = {
    codex_exit_ms: exitOf("codex"),
    agentwire_exit_ms: exitOf("anthropic"),
    agentwire_responses_exit_ms: exitOf("responses"),
    ratio_to_codex: Math.round((exitOf("anthropic") / exitOf("codex")) * 100) / 100,
    ratio_to_codex_responses: Math.round((exitOf("responses") / exitOf("codex")) * 100) / 100,
  };
}

// --- the same on an emulated slow machine (BENCH_SLOW=0 skips) ----------------------------------
// One batch, interleaved run by run: a bare Node start, the single answer, ten tool turns and,
// with BENCH_CODEX, Codex's single answer, while scripts/slow-machine.mjs keeps the machine slow.
if (process.env.BENCH_SLOW !== "0") report.slowMachine = await benchSlowMachine();

async function benchSlowMachine() {
  const bareNode = () => timeProcess(["-e", "process.stdout.write('x\\n')"]);
  const machine = await startSlowMachine(async () => {
    const exits = [];
    for (let run = 0; run < 7; run++) exits.push((await bareNode()).exit);
    return median(exits);
  });
  const single = await startReplayServer(workdir, "slow-single", { turns: [{ text: words, repeat: true }] });
  const marks = { node: [], answer: [], tools: [], codex: [] };
  const cpu = { node: [], answer: [] };
  try {
    for (let run = 0; run < runs; run++) {
      marks.node.push(await bareNode());
      cpu.node.push(await cpuTime(["-e", "0"]));
      const answerArgs = [bin, "-p", "hi", "--output-format", "stream-json", "--cwd", project];
      marks.answer.push(await timeProcess(answerArgs, { env: childEnv(single.url) }));
      cpu.answer.push(await cpuTime(answerArgs, { env: childEnv(single.url) }));
      const tools = await startReplayServer(workdir, `slow-tools-${run}`, toolTurnsScenario);
      const toolArgs = [bin, "-p", "go", "--output-format", "stream-json", "--cwd", project, "--dangerously-skip-permissions"];
      marks.tools.push(await timeProcess(toolArgs, { env: childEnv(tools.url) }));
      await tools.close();
      if (process.env.BENCH_CODEX) marks.codex.push(await timeCodex(single.url));
    }
  } finally {
    await single.close();
    await machine.stop();
  }
  const of = (name, field) => median(marks[name].map((mark) => mark[field]));
  const perTurn = marks.tools.map((mark, run) => (mark.exit - marks.answer[run].exit) / 10).sort((a, b) => a - b);
  const round2 = (value) => Math.round(value * 100) / 100;
  const node = { exit_ms: of("node", "exit"), cpu_ms: median(cpu.node) };
  const answer = {
    first_line_ms: of("answer", "firstLine"),
    exit_ms: of("answer", "exit"),
    cpu_ms: median(cpu.answer),
    peak_rss_mib: of("answer", "peakRssMiB"),
  };
  return {
    emulation: machine.settings,
    node,
    single_answer: answer,
    tool_turns: {
      exit_ms: of("tools", "exit"),
      per_turn_ms: median(perTurn),
      per_turn_min_ms: Math.round(perTurn[0] * 10) / 10,
      per_turn_max_ms: Math.round(perTurn.at(-1) * 10) / 10,
    },
    ...(marks.codex.length > 0
      ? { codex: { exit_ms: of("codex", "exit"), first_line_ms: of("codex", "firstLine"), peak_rss_mib: of("codex", "peakRssMiB") } }
      : {}),
    ratios: {
      first_line_to_node: round2(answer.first_line_ms / node.exit_ms),
      exit_to_node: round2(answer.exit_ms / node.exit_ms),
      cpu_to_node_cpu: round2(answer.cpu_ms / node.cpu_ms),
      ...(marks.codex.length > 0 ? { exit_to_codex: round2(answer.exit_ms / of("codex", "exit")) } : {}),
    },
  };
}

// Both machines' ratios side by side: what issue 29's targets are stated in.
report.machines = {
  normal: {
    node_exit_ms: report.node.exit_ms,
    first_line_to_node: report.startup.ratios_to_node.first_line,
    exit_to_node: report.startup.ratios_to_node.exit,
    cpu_to_node_cpu: report.startup.ratios_to_node.cpu,
    per_turn_ms: report.toolTurns.per_turn_ms,
    peak_rss_mib: report.startup.peak_rss_mib,
    ...(report.codex ? { exit_to_codex: report.codex.ratio_to_codex } : {}),
  },
  ...(report.slowMachine
    ? {
        slow: {
          node_exit_ms: report.slowMachine.node.exit_ms,
          ...report.slowMachine.ratios,
          per_turn_ms: report.slowMachine.tool_turns.per_turn_ms,
          peak_rss_mib: report.slowMachine.single_answer.peak_rss_mib,
        },
      }
    : {}),
};

await rm(workdir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
