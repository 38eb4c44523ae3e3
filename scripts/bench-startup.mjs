// Start-up benchmark: spawns the built agentwire against the replay server and measures the
// time to the first stdout line (system/init), to the result line and to exit, plus peak RSS,
// over several runs; prints medians as JSON. Run with `npm run bench` (builds first).
// NODE_EXTRA_CA_CERTS is removed from the child environment: it adds ~70 ms to every Node
// start on machines that set it and would hide agentwire's own cost.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 15);
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] * 10) / 10;
};

function timeProcess(command, args, options) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "inherit"] });
    const marks = { firstLine: NaN, result: NaN, exit: NaN };
    let buffer = "";
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      if (Number.isNaN(marks.firstLine) && buffer.includes("\n")) marks.firstLine = performance.now() - started;
      if (Number.isNaN(marks.result) && buffer.includes('"type":"result"')) marks.result = performance.now() - started;
    });
    child.on("error", reject);
    child.on("close", () => {
      marks.exit = performance.now() - started;
      resolve(marks);
    });
  });
}

const workdir = await mkdtemp(join(tmpdir(), "agentwire-bench-"));
// One scripted answer, repeated, so every run gets a reply.
const scenario = join(workdir, "text-repeat.json");
await writeFile(scenario, JSON.stringify({ turns: [{ text: "Hello from the bench.", repeat: true }] }));
const replayServer = spawn(process.execPath, [join(root, "bin/agentwire"), "mock-server", "--port", "0", "--scenario", scenario], {
  env,
  stdio: ["ignore", "pipe", "ignore"],
});
const url = await new Promise((resolve) => replayServer.stdout.once("data", (chunk) => resolve(JSON.parse(String(chunk).split("\n")[0]).url)));

const childEnv = { ...env, ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: "bench", AGENTWIRE_HOME: join(workdir, "home") };
const baseline = [];
const agent = [];
const version = [];
const help = [];
for (let run = 0; run < runs; run++) {
  baseline.push(await timeProcess(process.execPath, ["-e", "process.stdout.write('x\\n')"], { env }));
  version.push(await timeProcess(process.execPath, [join(root, "bin/agentwire"), "--version"], { env }));
  help.push(await timeProcess(process.execPath, [join(root, "bin/agentwire"), "--help"], { env }));
  agent.push(
    await timeProcess(process.execPath, [join(root, "bin/agentwire"), "-p", "hi", "--output-format", "stream-json", "--verbose", "--cwd", workdir], {
      env: childEnv,
    }),
  );
}
replayServer.kill();
await rm(workdir, { recursive: true, force: true });

const nodeExit = median(baseline.map((mark) => mark.exit));
const ratio = (value) => Math.round((value / nodeExit) * 100) / 100;
const report = {
  runs,
  node_baseline_first_line_ms: median(baseline.map((mark) => mark.firstLine)),
  node_baseline_exit_ms: nodeExit,
  version_exit_ms: median(version.map((mark) => mark.exit)),
  version_exit_ratio: ratio(median(version.map((mark) => mark.exit))),
  help_exit_ms: median(help.map((mark) => mark.exit)),
  help_exit_ratio: ratio(median(help.map((mark) => mark.exit))),
  first_line_ms: median(agent.map((mark) => mark.firstLine)),
  result_ms: median(agent.map((mark) => mark.result)),
  exit_ms: median(agent.map((mark) => mark.exit)),
  first_line_ratio: ratio(median(agent.map((mark) => mark.firstLine))),
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
