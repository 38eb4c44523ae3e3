import { pino, type Logger } from "pino";

/**
 * Diagnostics go to stderr (fd 2), never stdout: stdout is the protocol. Level from
 * AGENTWIRE_LOG_LEVEL (default "warn" so a normal run prints nothing), or "debug" with --debug.
 */
export function createLogger(level: string | undefined): Logger {
  return pino({ level: level ?? "warn", base: { name: "agentwire" } }, pino.destination({ fd: 2, sync: true }));
}

export type { Logger };
