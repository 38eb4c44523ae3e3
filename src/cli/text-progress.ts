import type { ApiRetryEvent, OutputEvent } from "../../protocol/events.js";
import type { Logger } from "./log.js";

export interface TextProgressOptions {
  /** --verbose, or stderr is a terminal: the whole run as `agentwire render` shows it. */
  detailed: boolean;
  stderr: NodeJS.WriteStream;
  /** The answer goes to stdout; when that is the same terminal, it is not shown twice. */
  stdoutIsTerminal: boolean;
  env: NodeJS.ProcessEnv;
}

/**
 * What a `-p` text run tells the person watching, on stderr, while stdout keeps only the answer.
 * Detailed: the renderer's transcript (tool calls, diffs, retries, the closing line). Otherwise
 * only what must not pass silently: retries (a wait must not look like a hang), warnings and
 * denied tool calls (a refused Write is why the answer may be incomplete).
 */
export async function createTextProgress(options: TextProgressOptions): Promise<(event: OutputEvent) => void> {
  const write = (lines: string[]): void => {
    if (lines.length > 0) options.stderr.write(`${lines.join("\n")}\n`);
  };
  if (!options.detailed) {
    return (event) => {
      if (event.type !== "system") return;
      if (event.subtype === "api_retry") write([describeRetry(event)]);
      else if (event.subtype === "warning") write([`agentwire: warning: ${event.message}`]);
      else if (event.subtype === "permission_denied") write([`agentwire: ${event.message}`]);
    };
  }
  // Loaded only when shown: a quiet run does not pay for the renderer at start-up.
  const [{ TranscriptRenderer }, { outputWidth, wantsColor }] = await Promise.all([
    import("../render/transcript-renderer.js"),
    import("../render/style.js"),
  ]);
  const renderer = new TranscriptRenderer({
    width: outputWidth(options.stderr, options.env),
    color: wantsColor(options.stderr, options.env),
  });
  // The last text-only assistant message may be the answer: held until it is known whether it was.
  let held: string[] = [];
  return (event) => {
    const lines = renderer.render({ kind: "event", event });
    if (event.type === "assistant" && !event.message.content.some((block) => block.type === "tool_use")) {
      write(held);
      held = lines;
      return;
    }
    if (event.type === "result") {
      // The closing line ends the progress; the answer itself is on the terminal already.
      if (!(options.stdoutIsTerminal && !event.is_error)) write(held);
      held = [];
      // A blank line between the closing line and the answer on the same terminal is enough.
      write(lines.at(-1) === "" ? lines.slice(0, -1) : lines);
      return;
    }
    write(held);
    held = [];
    write(lines);
  };
}

/** One readable line for a retry, e.g. "agentwire: the model API failed (rate_limit, HTTP 429); retry 1 of 10 in 1.0 s". */
function describeRetry(event: ApiRetryEvent): string {
  const status = event.error_status === null ? "" : `, HTTP ${event.error_status}`;
  return `agentwire: the model API failed (${event.error}${status}); retry ${event.attempt} of ${event.max_retries} in ${(event.retry_delay_ms / 1000).toFixed(1)} s`;
}

/**
 * The same events as log records: at `info` for a json run, whose stderr stays empty (`--debug`,
 * or AGENTWIRE_LOG_LEVEL=info, shows them); at `warn` for a text run whose stderr is a JSON log.
 */
export function createLoggedProgress(log: Logger, level: "info" | "warn"): (event: OutputEvent) => void {
  return (event) => {
    if (event.type !== "system") return;
    if (event.subtype === "api_retry") log[level](describeRetry(event));
    else if (event.subtype === "warning") log[level]({ code: event.code, ...(event.path ? { path: event.path } : {}) }, event.message);
    else if (event.subtype === "permission_denied") log[level](event.message);
  };
}
