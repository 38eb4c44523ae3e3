import { randomUUID } from "../text/random-uuid.js";
import type { TerminalReason } from "../../protocol/events.js";
import { createLineWriter } from "../server/jsonl.js";
import { buildFailureResult } from "../session/wire/result.js";

/** A failure before any turn could run: reported on stderr and, in stream-json, as a `result`. */
export class StartupError extends Error {
  constructor(
    message: string,
    readonly terminalReason: TerminalReason,
  ) {
    super(message);
  }
}

export async function reportStartupFailure(argv: string[], error: StartupError, startedAt: number): Promise<number> {
  process.stderr.write(`Error: ${error.message}\n`);
  const format = requestedOutputFormat(argv);
  if (format === "stream-json" || format === "json") {
    const result = buildFailureResult({
      sessionId: randomUUID(),
      terminalReason: error.terminalReason,
      message: error.message,
      durationMs: Date.now() - startedAt,
      newUuid: randomUUID,
    });
    const flat = format === "stream-json" && optionValue(argv, "--event-dialect") === "flat";
    createLineWriter(process.stdout)(flat ? (await import("../session/wire/flat-dialect.js")).flatResult(result) : result);
  }
  return 1;
}

/** Best-effort look at argv when it could not be parsed, so even that failure is reported in-protocol. */
function requestedOutputFormat(argv: string[]): string | undefined {
  return argv[0] === "start" ? "stream-json" : optionValue(argv, "--output-format");
}

function optionValue(argv: string[], name: string): string | undefined {
  const index = argv.findIndex((argument) => argument === name || argument.startsWith(`${name}=`));
  if (index === -1) return undefined;
  const argument = argv[index]!;
  return argument.includes("=") ? argument.slice(argument.indexOf("=") + 1) : argv[index + 1];
}
