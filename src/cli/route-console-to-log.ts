import { format } from "node:util";
import type { Logger } from "./log.js";

const CONSOLE_METHODS = ["log", "info", "warn", "error", "debug", "trace"] as const;

/**
 * Sends whatever the process's dependencies print through `console` (the model SDKs' notices,
 * such as the Anthropic SDK's deprecation warning on every request for an older model) and Node's
 * process warnings to the debug log. agentwire itself never writes through `console`: stdout is
 * the protocol, and hosts such as Yume show every byte of stderr to their user as an error, so
 * text nobody asked for must reach neither. `--debug` (or AGENTWIRE_LOG_LEVEL=debug) shows it.
 */
export function routeConsoleToLog(log: Logger): void {
  for (const method of CONSOLE_METHODS) {
    console[method] = (...values: unknown[]) => log.debug({ console: method }, format(...values));
  }
  // Node prints warnings through a listener of its own; without it nothing is printed.
  process.removeAllListeners("warning");
  process.on("warning", (warning) => log.debug({ warning: warning.name }, warning.message));
}
