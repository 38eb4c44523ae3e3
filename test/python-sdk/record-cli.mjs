#!/usr/bin/env node
// A stand-in for `claude` that the Python SDK spawns as `cli_path` while its traffic is recorded:
// it runs agentwire with the same arguments and environment, passes every byte through, and
// writes what passed into $AGENTWIRE_PYSDK_RECORD_DIR (one JSONL file per process). Each stdin
// line notes how many stdout lines the SDK could have read before it wrote that line: the
// replay test waits for the same point before writing it. Format: test/python-sdk/README.md.
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const directory = process.env.AGENTWIRE_PYSDK_RECORD_DIR;
if (!directory) {
  process.stderr.write("record-cli.mjs: AGENTWIRE_PYSDK_RECORD_DIR is not set\n");
  process.exit(2);
}
const agentwire = fileURLToPath(new URL("../../bin/agentwire", import.meta.url));
const file = join(directory, `${Date.now()}-${process.pid}.jsonl`);
const record = (entry) => appendFileSync(file, `${JSON.stringify(entry)}\n`);

const env = { ...process.env };
delete env.AGENTWIRE_PYSDK_RECORD_DIR;
record({ kind: "start", argv: process.argv.slice(2), env, cwd: process.cwd(), at: Date.now() });

const child = spawn(process.execPath, [agentwire, ...process.argv.slice(2)], { env, stdio: ["pipe", "pipe", "inherit"] });
let stdoutLines = 0;

forwardLines(
  process.stdin,
  (line) => {
    record({ kind: "stdin", line, afterStdout: stdoutLines });
    child.stdin.write(`${line}\n`);
  },
  () => {
    record({ kind: "stdin_end", afterStdout: stdoutLines });
    child.stdin.end();
  },
);
forwardLines(
  child.stdout,
  (line) => {
    record({ kind: "stdout", line });
    stdoutLines++;
    process.stdout.write(`${line}\n`);
  },
  () => {},
);
// The SDK may close its end early (the version probe reads one chunk and terminates us).
child.stdin.on("error", () => {});
process.stdout.on("error", () => {});

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => {
    record({ kind: "signal", signal, afterStdout: stdoutLines });
    child.kill(signal);
  });
}
child.on("close", (code, signal) => {
  record({ kind: "exit", code, signal });
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});

/** Calls `onLine` for each complete line of `stream` (a last unterminated one included), then `onEnd`. */
function forwardLines(stream, onLine, onEnd) {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop();
    for (const line of lines) onLine(line);
  });
  stream.on("end", () => {
    if (pending !== "") onLine(pending);
    onEnd();
  });
}
