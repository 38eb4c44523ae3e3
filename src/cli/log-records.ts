/**
 * The two shapes of a stderr record, written by agentwire itself (no logging library loads at
 * start-up). `json`: pino's line format, field for field, so tools built for pino logs read
 * agentwire's (test/cli/log-records.test.ts compares the two); `text`: one readable line that
 * names its level, as every line agentwire writes to stderr does.
 */

/** pino's level numbers: a record is written when its level is at least the logger's. */
export const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;
export type LevelName = keyof typeof LEVELS;
export type RecordLevel = "debug" | "info" | "warn" | "error";

/** The word a text line names its level with. */
const LEVEL_WORDS: Record<RecordLevel, string> = { debug: "debug", info: "info", warn: "warning", error: "error" };

/** `agentwire: warning: …`, or `agentwire web: warning: …` for a subcommand's own lines. */
export function noticeLine(level: RecordLevel, message: string, source = "agentwire"): string {
  return `${source}: ${LEVEL_WORDS[level]}: ${message}\n`;
}

/**
 * `agentwire: debug: model request provider=anthropic attempt=1`: the message, then each field as
 * key=value (strings bare unless they hold spaces, the rest as JSON); an error's stack follows on
 * its own indented lines.
 */
export function textRecord(level: RecordLevel, object: unknown, message: string | undefined): string {
  const fields = typeof object === "object" && object !== null && !(object instanceof Error) ? (object as Record<string, unknown>) : {};
  const error = object instanceof Error ? object : Object.values(fields).find((value): value is Error => value instanceof Error);
  const text = message ?? (typeof object === "string" ? object : (error?.message ?? ""));
  const pairs = Object.entries(fields)
    .filter(([, value]) => !(value instanceof Error) && value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === "string" && !/\s/.test(value) && value !== "" ? value : JSON.stringify(value)}`);
  const stack = error?.stack
    ? `\n${error.stack
        .split("\n")
        .map((line) => `    ${line}`)
        .join("\n")}`
    : "";
  return noticeLine(level, `${[text, ...pairs].join(" ")}${stack}`);
}

/**
 * One JSON line as pino writes it with `base: { name: "agentwire" }`: level number, time, name,
 * the fields in their order (an Error given alone is the `err` field, and `err` is serialized as
 * pino's standard serializer does), then `msg` (an error's message when none is given).
 */
export function jsonRecord(level: RecordLevel, time: number, object: unknown, message: string | undefined): string {
  let fields: Record<string, unknown> = {};
  let msg = message;
  if (object instanceof Error) {
    fields = { err: object };
    msg ??= object.message;
  } else if (typeof object === "object" && object !== null) {
    fields = object as Record<string, unknown>;
    if (msg === undefined && fields.msg === undefined && isErrorLike(fields.err)) msg = fields.err.message;
  } else if (object !== undefined && object !== null) msg = message === undefined ? String(object) : `${String(object)} ${message}`;
  let line = `{"level":${LEVELS[level]},"time":${time},"name":"agentwire"`;
  for (const [key, value] of Object.entries(fields)) {
    const text = jsonValue(key === "err" ? serializeError(value) : value);
    if (text !== undefined) line += `,${JSON.stringify(key)}:${text}`;
  }
  if (msg !== undefined) line += `,"msg":${JSON.stringify(msg)}`;
  return `${line}}\n`;
}

/** A field's JSON as pino writes it: no undefined or functions, non-finite numbers as null, cycles marked. */
function jsonValue(value: unknown): string | undefined {
  if (value === undefined || typeof value === "function") return undefined;
  if (typeof value === "number" && !Number.isFinite(value)) return "null";
  try {
    return JSON.stringify(value);
  } catch {
    return JSON.stringify(withoutCycles(value));
  }
}

/** A copy of `value` with each reference back to an enclosing object replaced by "[Circular]". */
function withoutCycles(value: unknown, enclosing: object[] = []): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (enclosing.includes(value)) return "[Circular]";
  const inner = [...enclosing, value];
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  if (Array.isArray(value)) return value.map((item) => withoutCycles(item, inner));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutCycles(item, inner)]));
}

type ErrorLike = { message: string; name?: string; stack?: string; cause?: unknown; errors?: unknown };

function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === "object" && value !== null && typeof (value as { message?: unknown }).message === "string";
}

/**
 * pino's standard `err` serializer: the error's class, its message and stack with those of its
 * causes appended, an AggregateError's errors, then its other enumerable fields.
 */
function serializeError(value: unknown, seen = new Set<object>()): unknown {
  if (!isErrorLike(value)) return value;
  seen.add(value);
  const constructorName = (value as { constructor?: { name?: unknown } }).constructor?.name;
  const serialized: Record<string, unknown> = {
    type: typeof value.constructor === "function" && typeof constructorName === "string" ? constructorName : value.name,
    message: messageWithCauses(value),
    stack: stackWithCauses(value),
  };
  if (Array.isArray(value.errors)) serialized.aggregateErrors = value.errors.map((error) => serializeError(error, seen));
  for (const key in value) {
    if (serialized[key] !== undefined) continue;
    const field = (value as unknown as Record<string, unknown>)[key];
    if (!isErrorLike(field)) serialized[key] = field;
    else if (key !== "cause" && !seen.has(field)) serialized[key] = serializeError(field, seen);
  }
  return serialized;
}

/** A cause as pino reads it: the `cause` field, or what it returns when it is a function (VError's style). */
function causeOf(error: ErrorLike): ErrorLike | undefined {
  const cause = typeof error.cause === "function" ? (error.cause as () => unknown).call(error) : error.cause;
  return isErrorLike(cause) ? cause : undefined;
}

/** `outer: inner: innermost`; a VError-style cause's message is already in its wrapper's, so it is left out. */
function messageWithCauses(error: ErrorLike, seen = new Set<ErrorLike>(), skip = false): string {
  const message = skip ? "" : error.message;
  if (seen.has(error)) return `${message}: ...`;
  const cause = causeOf(error);
  if (!cause) return message;
  seen.add(error);
  const functionCause = typeof error.cause === "function";
  return `${message}${functionCause ? "" : ": "}${messageWithCauses(cause, seen, functionCause)}`;
}

/** Each stack, then `caused by:` and its cause's, until a cause repeats. */
function stackWithCauses(error: ErrorLike, seen = new Set<ErrorLike>()): string {
  const stack = error.stack ?? "";
  if (seen.has(error)) return `${stack}\ncauses have become circular...`;
  const cause = causeOf(error);
  if (!cause) return stack;
  seen.add(error);
  return `${stack}\ncaused by: ${stackWithCauses(cause, seen)}`;
}
