import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod";

/**
 * The recorded traffic of the Python Agent SDK driving agentwire for one use, in a form the
 * replay test can play back against any provider without Python (format: test/python-sdk/
 * README.md). Built from the files record-cli.mjs writes, one per process the SDK started.
 */

/** A stdout line as the replay counts them: type, and subtype, event or request kind. */
const AfterSchema = z.strictObject({ label: z.string(), nth: z.number().int().positive() });

const WriteSchema = z.union([
  z.strictObject({ after: AfterSchema.nullable(), line: z.record(z.string(), z.unknown()) }),
  z.strictObject({ after: AfterSchema.nullable(), end: z.literal(true) }),
]);

const AnswerSchema = z.strictObject({
  /** The request answered: its subtype and what tells requests of that subtype apart. */
  request: z.strictObject({ subtype: z.string(), key: z.string() }),
  /** 1 for the first request with this subtype and key, and so on. */
  nth: z.number().int().positive(),
  /** `control_response.response` without its request_id. */
  response: z.record(z.string(), z.unknown()),
});

const RunSchema = z.strictObject({
  argv: z.array(z.string()),
  /** What the SDK put in the environment beyond what its own process had and `options.env`. */
  env: z.record(z.string(), z.string()),
  writes: z.array(WriteSchema),
  answers: z.array(AnswerSchema),
  /** agentwire's stdout as recorded, one label (or text line) each: for the reader, not compared. */
  stdout: z.array(z.string()),
  exit: z.strictObject({ code: z.number().int().nullable(), signal: z.string().nullable() }),
});

export const FixtureSchema = z.strictObject({
  use: z.string(),
  recorded: z.strictObject({ sdk: z.string(), provider: z.string(), agentwire: z.string() }),
  runs: z.array(RunSchema),
});

export type Fixture = z.infer<typeof FixtureSchema>;
export type FixtureRun = z.infer<typeof RunSchema>;
export type FixtureWrite = z.infer<typeof WriteSchema>;

type Json = Record<string, unknown>;

/** The label the replay waits for: `result/success`, `stream_event:content_block_delta`, `control_response:initialize`. */
export function lineLabel(line: Json, requestSubtypes: ReadonlyMap<string, string>): string {
  switch (line.type) {
    case "system":
    case "result":
      return `${line.type}/${String(line.subtype)}`;
    case "stream_event":
      return `stream_event:${String((line.event as Json | undefined)?.type)}`;
    case "control_request":
      return `control_request:${String((line.request as Json | undefined)?.subtype)}`;
    case "control_response": {
      const requestId = String((line.response as Json | undefined)?.request_id);
      return `control_response:${requestSubtypes.get(requestId) ?? "unknown"}`;
    }
    default:
      return String(line.type);
  }
}

/** What tells apart agentwire's requests of one subtype: the tool, the hook callback, the MCP method. */
export function requestKey(request: Json): string {
  switch (request.subtype) {
    case "can_use_tool":
      return String(request.tool_name);
    case "hook_callback":
      return String(request.callback_id);
    case "mcp_message":
      return `${String(request.server_name)} ${String((request.message as Json | undefined)?.method)}`;
    default:
      return "";
  }
}

// ---------------------------------------------------------------------------------------------
// From a recording

type RecordEntry =
  | { kind: "start"; argv: string[]; env: Record<string, string>; cwd: string; at: number }
  | { kind: "stdin"; line: string; afterStdout: number }
  | { kind: "stdin_end"; afterStdout: number }
  | { kind: "stdout"; line: string }
  | { kind: "signal"; signal: string; afterStdout: number }
  | { kind: "exit"; code: number | null; signal: string | null };

export interface RecordingContext {
  use: string;
  provider: string;
  sdkVersion: string;
  agentwireVersion: string;
  /** Concrete values and the placeholder each becomes, longest first. */
  placeholders: Array<[string, string]>;
  /** The environment of the Python process and the `options.env` it passed: not the SDK's doing. */
  baseEnv: Record<string, string>;
  optionsEnv: Record<string, string>;
  /** `--model`'s value and `set_model`'s, as placeholders. */
  model: string;
  otherModel: string;
}

/** Reads record-cli.mjs's files from `directory`, in the order the processes started. */
export function readRecording(directory: string): RecordEntry[][] {
  return readdirSync(directory)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) =>
      readFileSync(join(directory, name), "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as RecordEntry),
    )
    .sort((a, b) => startOf(a).at - startOf(b).at);
}

function startOf(entries: RecordEntry[]): Extract<RecordEntry, { kind: "start" }> {
  const start = entries[0];
  if (start?.kind !== "start") throw new Error("a recording file must open with its start entry");
  return start;
}

function parseJson(line: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** The fixture of one use's recording, with the run's paths, URL, models and session ids as placeholders. */
export function fixtureFromRecording(processes: RecordEntry[][], context: RecordingContext): Fixture {
  // Session ids in the order they first appear: a later run names an earlier one's (--resume=).
  const sessionIds: string[] = [];
  for (const entries of processes) {
    for (const entry of entries) {
      const sessionId = entry.kind === "stdout" ? parseJson(entry.line)?.session_id : undefined;
      if (typeof sessionId === "string" && sessionId !== "" && !sessionIds.includes(sessionId)) sessionIds.push(sessionId);
    }
  }
  const placeholders: Array<[string, string]> = [
    ...context.placeholders,
    ...sessionIds.map((id, index): [string, string] => [id, `\${SESSION_${index}}`]),
  ];
  const generalize = <T>(value: T): T => replaceStrings(value, placeholders);
  const runs = processes.map((entries) => runOf(entries, context, generalize));
  return { use: context.use, recorded: { sdk: context.sdkVersion, provider: context.provider, agentwire: context.agentwireVersion }, runs };
}

function runOf(entries: RecordEntry[], context: RecordingContext, generalize: <T>(value: T) => T): FixtureRun {
  const start = startOf(entries);
  const stdoutLines = entries.flatMap((entry) => (entry.kind === "stdout" ? [entry.line] : []));
  const sdkRequests = new Map<string, string>();
  const agentwireRequests = new Map<string, Json>();
  const labels: string[] = [];
  // Labels need the subtype of the SDK's request each control_response answers: collect them first.
  for (const entry of entries) {
    const line = entry.kind === "stdin" ? parseJson(entry.line) : undefined;
    if (line?.type === "control_request") sdkRequests.set(String(line.request_id), String((line.request as Json).subtype));
  }
  for (const line of stdoutLines) {
    const parsed = parseJson(line);
    labels.push(parsed ? lineLabel(parsed, sdkRequests) : line);
    if (parsed?.type === "control_request") agentwireRequests.set(String(parsed.request_id), parsed.request as Json);
  }
  const after = (count: number): z.infer<typeof AfterSchema> | null => {
    if (count === 0) return null;
    const label = labels[count - 1]!;
    return { label, nth: labels.slice(0, count).filter((seen) => seen === label).length };
  };

  const writes: FixtureWrite[] = [];
  const answers: FixtureRun["answers"] = [];
  const answered = new Map<string, number>();
  for (const entry of entries) {
    if (entry.kind === "stdin_end") writes.push({ after: after(entry.afterStdout), end: true });
    if (entry.kind !== "stdin") continue;
    const line = parseJson(entry.line);
    if (!line) throw new Error(`the SDK wrote a line that is not a JSON object: ${entry.line}`);
    const response = line.type === "control_response" ? (line.response as Json) : undefined;
    const request = response ? agentwireRequests.get(String(response.request_id)) : undefined;
    if (response && request) {
      const key = { subtype: String(request.subtype), key: requestKey(request) };
      const id = `${key.subtype} ${key.key}`;
      answered.set(id, (answered.get(id) ?? 0) + 1);
      const { request_id: _answered, ...rest } = response;
      answers.push({ request: generalize(key), nth: answered.get(id)!, response: generalize(rest) });
    } else {
      writes.push({ after: after(entry.afterStdout), line: generalize(withFixedRequestId(withModelPlaceholders(line, context))) });
    }
  }

  const exit = entries.find((entry): entry is Extract<RecordEntry, { kind: "exit" }> => entry.kind === "exit");
  const env = Object.fromEntries(
    Object.entries(start.env).filter(([key, value]) => context.baseEnv[key] !== value && context.optionsEnv[key] !== value),
  );
  return {
    argv: generalize(argvWithModel(start.argv, context.model)),
    env: generalize(env),
    writes,
    answers,
    stdout: labels,
    exit: { code: exit?.code ?? null, signal: exit?.signal ?? null },
  };
}

function argvWithModel(argv: string[], model: string): string[] {
  return argv.map((arg, index) => (argv[index - 1] === "--model" && arg === model ? "${MODEL}" : arg));
}

function withModelPlaceholders(line: Json, context: RecordingContext): Json {
  const request = line.type === "control_request" ? (line.request as Json) : undefined;
  if (request?.subtype !== "set_model" || request.model !== context.otherModel) return line;
  return { ...line, request: { ...request, model: "${OTHER_MODEL}" } };
}

/**
 * The SDK's request ids end in 4 random bytes (`req_1_3a5550a4`); they are fixed to zeros so that
 * recording again changes a fixture only where the traffic changed.
 */
function withFixedRequestId(line: Json): Json {
  if (line.type !== "control_request" || typeof line.request_id !== "string") return line;
  return { ...line, request_id: line.request_id.replace(/^(req_\d+_)[0-9a-f]+$/, (_id, prefix: string) => `${prefix}00000000`) };
}

/** Replaces each concrete value inside every string of `value` (keys untouched). */
export function replaceStrings<T>(value: T, pairs: ReadonlyArray<readonly [string, string]>): T {
  if (typeof value === "string") return pairs.reduce<string>((text, [from, to]) => text.split(from).join(to), value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => replaceStrings(item, pairs)) as T;
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceStrings(item, pairs)])) as T;
  return value;
}
