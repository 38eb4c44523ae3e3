import type { Logger as PinoLogger } from "pino";
import type { SessionLogger } from "../session/session-options.js";

/** pino's level numbers: a record is written when its level is at least the logger's. */
const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;
type LevelName = keyof typeof LEVELS;
type RecordLevel = "debug" | "info" | "warn" | "error";

export type Logger = Required<SessionLogger>;

/**
 * How stderr reads, one format per run. `text`: one line per record, `agentwire: warning: …`, as
 * every other line agentwire writes there. `json`: pino's records, one JSON object per line, for a
 * program collecting the log; then agentwire's own notices are records too.
 */
export type LogFormat = "text" | "json";

/**
 * AGENTWIRE_LOG_FORMAT when set; otherwise JSON records for `--debug` into a file or pipe (a debug
 * log is collected to be searched), readable lines everywhere else.
 */
export function chooseLogFormat(env: NodeJS.ProcessEnv, debug: boolean, stderrIsTerminal: boolean): LogFormat {
  const named = env.AGENTWIRE_LOG_FORMAT;
  if (named === "text" || named === "json") return named;
  if (named !== undefined && named !== "") process.stderr.write(`agentwire: warning: unknown log format "${named}" (AGENTWIRE_LOG_FORMAT); formats: text, json.\n`);
  return debug && !stderrIsTerminal ? "json" : "text";
}

/**
 * Diagnostics go to stderr (fd 2), never stdout: stdout is the protocol. Level from
 * AGENTWIRE_LOG_LEVEL (default "warn" so a normal run prints nothing), or "debug" with --debug.
 *
 * Text lines are written at once, with no library. pino (JSON) is loaded on the first record the
 * level lets through, not up front: loading it cost ~10 ms before the first stdout line of every
 * run, and at the default level most runs never log. Records written while it loads are queued; a
 * process that exits before it has loaded still gets them, written synchronously in pino's shape.
 */
export function createLogger(level: string | undefined, format: LogFormat): Logger {
  const name = level ?? "warn";
  const known = name in LEVELS;
  if (!known) process.stderr.write(`agentwire: warning: unknown log level "${name}" (AGENTWIRE_LOG_LEVEL); using "warn". Levels: ${Object.keys(LEVELS).join(", ")}.\n`);
  const chosen = (known ? name : "warn") as LevelName;
  return format === "json" ? new DeferredLogger(chosen) : new TextLogger(chosen);
}

/** The word a text line names its level with: `agentwire: warning: …` as the CLI's own notices. */
const LEVEL_WORDS: Record<RecordLevel, string> = { debug: "debug", info: "info", warn: "warning", error: "error" };

/** The level check and the four level methods, shared by both formats; a subclass writes a record. */
abstract class LevelLogger implements Logger {
  constructor(protected readonly level: LevelName) {}

  isLevelEnabled(level: string): boolean {
    return level in LEVELS && LEVELS[level as LevelName] >= LEVELS[this.level];
  }

  debug(object: unknown, message?: string): void {
    this.write("debug", object, message);
  }

  info(object: unknown, message?: string): void {
    this.write("info", object, message);
  }

  warn(object: unknown, message?: string): void {
    this.write("warn", object, message);
  }

  error(object: unknown, message?: string): void {
    this.write("error", object, message);
  }

  private write(level: RecordLevel, object: unknown, message: string | undefined): void {
    if (this.isLevelEnabled(level)) this.record(level, object, message);
  }

  protected abstract record(level: RecordLevel, object: unknown, message: string | undefined): void;
}

class TextLogger extends LevelLogger {
  protected record(level: RecordLevel, object: unknown, message: string | undefined): void {
    try {
      process.stderr.write(textLine(level, object, message));
    } catch {
      // stderr gone: a log line is not worth failing the run for
    }
  }
}

/**
 * `agentwire: debug: model request provider=anthropic attempt=1`: the message, then each field as
 * key=value (strings bare unless they hold spaces, the rest as JSON); an error's stack follows on
 * its own indented lines.
 */
function textLine(level: RecordLevel, object: unknown, message: string | undefined): string {
  const fields = typeof object === "object" && object !== null && !(object instanceof Error) ? (object as Record<string, unknown>) : {};
  const error = object instanceof Error ? object : Object.values(fields).find((value): value is Error => value instanceof Error);
  const text = message ?? (typeof object === "string" ? object : error?.message ?? "");
  const pairs = Object.entries(fields)
    .filter(([, value]) => !(value instanceof Error) && value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === "string" && !/\s/.test(value) && value !== "" ? value : JSON.stringify(value)}`);
  const head = [`agentwire: ${LEVEL_WORDS[level]}: ${text}`, ...pairs].join(" ");
  const stack = error?.stack ? `\n${error.stack.split("\n").map((line) => `    ${line}`).join("\n")}` : "";
  return `${head}${stack}\n`;
}

class DeferredLogger extends LevelLogger {
  private pino: PinoLogger | undefined;
  private loading = false;
  private queue: Array<{ level: RecordLevel; time: number; object: unknown; message: string | undefined }> = [];

  protected record(level: RecordLevel, object: unknown, message: string | undefined): void {
    if (this.pino) {
      this.pino[level](object, message);
      return;
    }
    this.queue.push({ level, time: Date.now(), object, message });
    this.load();
  }

  private load(): void {
    if (this.loading) return;
    this.loading = true;
    const flushAtExit = (): void => this.flushSynchronously();
    process.once("exit", flushAtExit);
    void loadPino(this.level).then(
      (pino) => {
        this.pino = pino;
        process.removeListener("exit", flushAtExit);
        for (const record of this.queue.splice(0)) pino[record.level](record.object, record.message);
      },
      () => undefined, // keeps queueing; the exit flush writes the records
    );
  }

  /** The records pino never got, in its JSON line shape (time, level number, name, fields, msg). */
  private flushSynchronously(): void {
    for (const record of this.queue.splice(0)) {
      const fields = record.object instanceof Error ? { err: serializeError(record.object) } : typeof record.object === "object" && record.object !== null ? withSerializedErrors(record.object) : { msg: String(record.object) };
      const { msg, ...rest } = { ...fields, ...(record.message !== undefined ? { msg: record.message } : {}) } as Record<string, unknown>;
      const line = `${JSON.stringify({ level: LEVELS[record.level], time: record.time, name: "agentwire", ...rest, ...(msg !== undefined ? { msg } : {}) })}\n`;
      try {
        process.stderr.write(line);
      } catch {
        return; // stderr gone: nothing more to do at exit
      }
    }
  }
}

async function loadPino(level: LevelName): Promise<PinoLogger> {
  const { default: pino } = await import("pino");
  return pino({ level, base: { name: "agentwire" } }, pino.destination({ fd: 2, sync: true }));
}

function withSerializedErrors(object: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, value instanceof Error ? serializeError(value) : value]));
}

/** As pino's standard `err` serializer: the fields a reader needs to find the failure. */
function serializeError(error: Error): { type: string; message: string; stack: string | undefined } {
  return { type: error.name, message: error.message, stack: error.stack };
}
