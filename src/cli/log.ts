import type { SessionLogger } from "../session/session-options.js";
import { jsonRecord, LEVELS, noticeLine, textRecord, type LevelName, type RecordLevel } from "./log-records.js";

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
  if (named !== undefined && named !== "")
    process.stderr.write(noticeLine("warn", `unknown log format "${named}" (AGENTWIRE_LOG_FORMAT); formats: text, json.`));
  return debug && !stderrIsTerminal ? "json" : "text";
}

/**
 * Diagnostics go to stderr (fd 2), never stdout: stdout is the protocol. Level from
 * AGENTWIRE_LOG_LEVEL (default "warn" so a normal run prints nothing), or "debug" with --debug.
 *
 * Both formats are written at once, synchronously, with no library (log-records.ts): loading pino
 * cost ~10 ms, and a record must not be lost when the process exits right after it.
 */
export function createLogger(level: string | undefined, format: LogFormat): Logger {
  const name = level ?? "warn";
  const known = name in LEVELS;
  if (!known)
    process.stderr.write(
      noticeLine("warn", `unknown log level "${name}" (AGENTWIRE_LOG_LEVEL); using "warn". Levels: ${Object.keys(LEVELS).join(", ")}.`),
    );
  const chosen = (known ? name : "warn") as LevelName;
  return new StderrLogger(chosen, format);
}

/** A level check and the four level methods, writing each record that passes in the run's format. */
class StderrLogger implements Logger {
  constructor(
    private readonly level: LevelName,
    private readonly format: LogFormat,
  ) {}

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
    if (!this.isLevelEnabled(level)) return;
    try {
      process.stderr.write(this.format === "json" ? jsonRecord(level, Date.now(), object, message) : textRecord(level, object, message));
    } catch {
      // stderr gone: a log line is not worth failing the run for
    }
  }
}
