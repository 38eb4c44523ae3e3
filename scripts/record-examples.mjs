// Regenerates protocol/examples/*.jsonl: real agentwire runs against the replay server, with
// random ids, times and paths replaced by stable placeholders so the files stay readable and
// diffable. `node scripts/record-examples.mjs` after `npm run build`.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin", "agentwire");
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

const cases = [
  { name: "text", scenario: "text", args: ["-p", "Say hello."] },
  { name: "read-tool", scenario: "read", args: ["-p", "What is in hello.txt?"] },
  { name: "partial-messages", scenario: "read", args: ["-p", "What is in hello.txt?", "--include-partial-messages"] },
  { name: "thinking", scenario: "thinking", args: ["-p", "What is 17*3?"] },
  { name: "retry-429", scenario: "api-429", args: ["-p", "Say hello."] },
  { name: "error-401", scenario: "api-401", args: ["-p", "Say hello."] },
  { name: "max-turns", scenario: "max-turns", args: ["-p", "Read every file.", "--max-turns", "1"] },
  // Default mode with nobody to ask: the Write is denied at once and the model is told why.
  { name: "permission-denied", scenario: "write", args: ["-p", "Write a file."] },
  {
    name: "stream-input-two-messages",
    scenario: "multi-turn",
    args: ["--input-format", "stream-json"],
    stdin: ['{"type":"user","message":{"role":"user","content":"First?"}}', '{"type":"user","content":"Second?"}', "not json"],
  },
];

function run(command, args, options, stdin) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ["pipe", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stdin.end(stdin ? `${stdin.join("\n")}\n` : "");
    child.on("close", () => resolve(stdout));
  });
}

function normalize(text, cwd) {
  const ids = new Map();
  const placeholder = (prefix) => (match) => {
    if (!ids.has(match)) ids.set(match, `${prefix}-${[...ids.keys()].filter((key) => ids.get(key).startsWith(prefix)).length + 1}`);
    return ids.get(match);
  };
  return text
    .replaceAll(cwd, "/repo")
    .replace(/"session_id":"[0-9a-f-]{36}"/g, '"session_id":"SESSION"')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, placeholder("uuid"))
    .replace(/"timestamp":"[^"]+"/g, '"timestamp":"2026-01-01T00:00:00.000Z"')
    .replace(/"(duration_ms|duration_api_ms|ttft_ms)":\d+/g, '"$1":0');
}

for (const example of cases) {
  const workdir = await mkdtemp(join(tmpdir(), "agentwire-example-"));
  await writeFile(join(workdir, "hello.txt"), "Hello, world!\nThis is line two.\nThird line here.\n");
  const server = spawn(
    process.execPath,
    [bin, "mock-server", "--port", "0", "--scenario", join(root, "fixtures", "scenarios", `${example.scenario}.json`)],
    {
      env,
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  const url = await new Promise((resolve) => server.stdout.once("data", (chunk) => resolve(JSON.parse(String(chunk).split("\n")[0]).url)));
  const stdout = await run(
    process.execPath,
    [bin, ...example.args, "--output-format", "stream-json", "--verbose", "--cwd", workdir],
    { env: { ...env, ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: "example", AGENTWIRE_HOME: join(workdir, ".home") } },
    example.stdin,
  );
  server.kill();
  await writeFile(join(root, "protocol", "examples", `${example.name}.jsonl`), normalize(stdout, workdir));
  if (example.stdin) await writeFile(join(root, "protocol", "examples", `${example.name}.stdin.jsonl`), `${example.stdin.join("\n")}\n`);
  await rm(workdir, { recursive: true, force: true });
}
process.stderr.write(`wrote ${cases.length} examples to protocol/examples/\n`);
