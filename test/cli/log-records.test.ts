import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { jsonRecord, noticeLine, textRecord } from "../../src/cli/log-records.js";
import { ROOT } from "../helpers/agentwire.js";

const TIME = 1_767_000_000_123;

/** What pino itself writes for one record, configured as agentwire's JSON log is described. */
function pinoLine(level: "debug" | "info" | "warn" | "error", object: unknown, message?: string): string {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level: "debug", base: { name: "agentwire" }, timestamp: () => `,"time":${TIME}` }, sink);
  if (message === undefined) logger[level](object as object);
  else logger[level](object as object, message);
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

function errorWithStack(message: string, extra: Record<string, unknown> = {}, options?: ErrorOptions): Error {
  const error = Object.assign(new Error(message, options), extra);
  error.stack = `Error: ${message}\n    at somewhere (file.ts:1:1)`;
  return error;
}

function circularCauses(): Error {
  const outer = errorWithStack("outer");
  const inner = errorWithStack("inner", {}, { cause: outer });
  (outer as { cause?: unknown }).cause = inner;
  return outer;
}

function verrorStyle(): Error {
  const cause = errorWithStack("disk full");
  return errorWithStack("write failed: disk full", { cause: () => cause });
}

const aggregate = Object.assign(new AggregateError([errorWithStack("first"), errorWithStack("second")], "both failed"), {
  stack: "AggregateError: both failed",
});
class SetupError extends Error {}
const cycle: Record<string, unknown> = { name: "loop" };
cycle.self = cycle;

/** Every shape agentwire logs, and the corners of pino's format. */
const RECORDS: Array<[string, "debug" | "info" | "warn" | "error", unknown, string | undefined]> = [
  ["a message alone", "warn", "a plain message", undefined],
  ["fields and a message", "debug", { provider: "anthropic", attempt: 1, url: "http://127.0.0.1:1" }, "model request"],
  ["an error in err", "info", { session: "s1", err: errorWithStack("boom") }, "stdout was closed by its reader"],
  ["an error in err, no message", "error", { err: errorWithStack("no message given") }, undefined],
  ["an error alone", "error", errorWithStack("alone"), undefined],
  ["an error alone with a message", "warn", errorWithStack("alone"), "what failed"],
  ["an error's own fields and subclass", "error", { err: Object.assign(new SetupError("bad"), { code: "ENOENT", stack: "S" }) }, "setup"],
  ["causes", "error", { err: errorWithStack("outer", {}, { cause: errorWithStack("inner") }) }, undefined],
  ["circular causes", "error", { err: circularCauses() }, "m"],
  ["a VError-style cause", "error", { err: verrorStyle() }, undefined],
  ["an AggregateError", "error", { err: aggregate }, "m"],
  ["an error under another key", "warn", { failure: errorWithStack("x") }, "m"],
  ["err that is not an error", "warn", { err: "just text" }, "m"],
  [
    "values JSON lacks",
    "info",
    { nan: Number.NaN, inf: Infinity, gone: undefined, fn: () => 1, big: [1, "two", { three: null }] },
    "values",
  ],
  ["a msg field of its own", "info", { msg: "from the fields", other: true }, undefined],
  ["quotes and control characters", "info", { path: 'a "b"\n\tc' }, 'said "hi"\u0001\u2028'],
  ["a cycle in a field", "debug", { cycle }, "cyclic"],
];

describe("agentwire's JSON log records against pino's own output", () => {
  it.each(RECORDS)("%s", (_name, level, object, message) => {
    expect(jsonRecord(level, TIME, object, message)).toBe(pinoLine(level, object, message));
  });
});

describe("the text records and notices", () => {
  it("name their level in every line", () => {
    expect(noticeLine("warn", "careful")).toBe("agentwire: warning: careful\n");
    expect(noticeLine("error", "down", "agentwire mock-server")).toBe("agentwire mock-server: error: down\n");
    expect(textRecord("info", { count: 2, label: "two words" }, "done")).toBe('agentwire: info: done count=2 label="two words"\n');
    const withStack = "agentwire: error: boom\n    Error: boom\n        at somewhere (file.ts:1:1)\n";
    expect(textRecord("error", errorWithStack("boom"), undefined)).toBe(withStack);
  });
});

describe("agentwire's own stderr lines", () => {
  it("say their level after the source (`agentwire web: warning: …`); only the web command's address line is bare", () => {
    const unmarked: string[] = [];
    const source = join(ROOT, "src");
    for (const file of readdirSync(source, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".ts"))) {
      const text = readFileSync(join(source, file), "utf8");
      for (const match of text.matchAll(/stderr\.write\(`(agentwire[a-z -]*): (?!(?:debug|info|warning|error|internal error): )[^`]*`/g)) {
        if (match[0] !== "stderr.write(`agentwire web: ${server.url}\\n`") unmarked.push(`${file}: ${match[0]}`);
      }
    }
    expect(unmarked).toEqual([]);
  });
});
