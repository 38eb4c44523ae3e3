import type { Logger as PinoLogger } from "pino";
import type { SessionLogger } from "../session/session-options.js";

/** pino's level numbers: a record is written when its level is at least the logger's. */
const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;
type LevelName = keyof typeof LEVELS;
type RecordLevel = "debug" | "info" | "warn" | "error";

export type Logger = Required<SessionLogger>;

/**
 * Diagnostics go to stderr (fd 2), never stdout: stdout is the protocol. Level from
 * AGENTWIRE_LOG_LEVEL (default "warn" so a normal run prints nothing), or "debug" with --debug.
 * On a terminal the lines are pino-pretty's readable form; elsewhere (a CI log, a host capturing
 * stderr) they stay one JSON object per line.
 *
 * pino is loaded on the first record the level lets through, not up front: loading it cost ~10 ms
 * before the first stdout line of every run, and at the default level most runs never log.
 * Records written while it loads are queued; a process that exits before it has loaded still
 * gets them, written synchronously in pino's JSON shape.
 */
export function createLogger(level: string | undefined, stderrIsTerminal: boolean): Logger {
  const name = level ?? "warn";
  if (name in LEVELS) return new DeferredLogger(name as LevelName, stderrIsTerminal);
  process.stderr.write(`agentwire: unknown log level "${name}" (AGENTWIRE_LOG_LEVEL); using "warn". Levels: ${Object.keys(LEVELS).join(", ")}.\n`);
  return new DeferredLogger("warn", stderrIsTerminal);
}

class DeferredLogger implements Logger {
  private pino: PinoLogger | undefined;
  private loading = false;
  private queue: Array<{ level: RecordLevel; time: number; object: unknown; message: string | undefined }> = [];

  constructor(
    private readonly level: LevelName,
    private readonly stderrIsTerminal: boolean,
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
    void loadPino(this.level, this.stderrIsTerminal).then(
      (pino) => {
        this.pino = pino;
        process.removeListener("exit", flushAtExit);
        for (const record of this.queue.splice(0)) pino[record.level](record.object, record.message);
      },
      () => undefined, // keeps queueing; the exit flush writes the records
    );
  }

  /**
   * The records pino never got: on a terminal in pino-pretty's layout, elsewhere in pino's JSON
   * line shape (time, level number, name, fields, msg), as they would have been written.
   */
  private flushSynchronously(): void {
    for (const record of this.queue.splice(0)) {
      const fields = record.object instanceof Error ? { err: serializeError(record.object) } : typeof record.object === "object" && record.object !== null ? withSerializedErrors(record.object) : { msg: String(record.object) };
      const { msg, ...rest } = { ...fields, ...(record.message !== undefined ? { msg: record.message } : {}) } as Record<string, unknown>;
      const line = this.stderrIsTerminal ? prettyLine(record.level, record.time, msg, rest) : `${JSON.stringify({ level: LEVELS[record.level], time: record.time, name: "agentwire", ...rest, ...(msg !== undefined ? { msg } : {}) })}\n`;
      try {
        process.stderr.write(line);
      } catch {
        return; // stderr gone: nothing more to do at exit
      }
    }
  }
}

async function loadPino(level: LevelName, stderrIsTerminal: boolean): Promise<PinoLogger> {
  const { default: pino } = await import("pino");
  const options = { level, base: { name: "agentwire" } };
  if (!stderrIsTerminal) return pino(options, pino.destination({ fd: 2, sync: true }));
  const { default: pretty } = await import("pino-pretty");
  return pino(options, pretty({ destination: 2, sync: true, ignore: "pid,hostname,name", translateTime: "HH:MM:ss.l" }));
}

/** pino-pretty's layout: `[HH:MM:ss.l] LEVEL: message`, then each field indented on its own line. */
function prettyLine(level: RecordLevel, time: number, message: unknown, fields: Record<string, unknown>): string {
  const clock = new Date(time).toTimeString().slice(0, 8) + `.${String(time % 1000).padStart(3, "0")}`;
  const details = Object.entries(fields).map(([key, value]) => `    ${key}: ${typeof value === "string" ? value : JSON.stringify(value)}\n`);
  return `[${clock}] ${level.toUpperCase()}: ${message === undefined ? "" : String(message)}\n${details.join("")}`;
}

function withSerializedErrors(object: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, value instanceof Error ? serializeError(value) : value]));
}

/** As pino's standard `err` serializer: the fields a reader needs to find the failure. */
function serializeError(error: Error): { type: string; message: string; stack: string | undefined } {
  return { type: error.name, message: error.message, stack: error.stack };
}
