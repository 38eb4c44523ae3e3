import type { Logger } from "pino";

/**
 * Diagnostics go to stderr (fd 2), never stdout: stdout is the protocol. Level from
 * AGENTWIRE_LOG_LEVEL (default "warn" so a normal run prints nothing), or "debug" with --debug.
 * On a terminal the lines are pino-pretty's readable form (loaded only then); elsewhere (a CI log,
 * a host capturing stderr) they stay one JSON object per line.
 */
export async function createLogger(level: string | undefined, stderrIsTerminal: boolean): Promise<Logger> {
  // Imported here, not at the top: the CLI's other commands (render, sessions, --version) never log.
  const { default: pino } = await import("pino");
  const options = { level: level ?? "warn", base: { name: "agentwire" } };
  if (!stderrIsTerminal) return pino(options, pino.destination({ fd: 2, sync: true }));
  const { default: pretty } = await import("pino-pretty");
  return pino(options, pretty({ destination: 2, sync: true, ignore: "pid,hostname,name", translateTime: "HH:MM:ss.l" }));
}

export type { Logger };
