import { randomUUID } from "../text/random-uuid.js";
import type { ResultEvent } from "../../protocol/events.js";
import { readLines } from "../../protocol/lines.js";
import { buildFailureResult } from "../session/wire/result.js";
import { routeLine } from "./command-router.js";
import { createStreamInputContext, type StreamInputOptions } from "./stream-input-context.js";

export type { StreamInputOptions } from "./stream-input-context.js";

/**
 * Serves stream-json input: user messages are queued and run strictly in order, one turn at a
 * time; interrupts and control requests are handled as soon as they arrive, also while a turn
 * runs. On EOF every message already read is finished before this resolves.
 * Resolves with the last turn's result (undefined when no turn ran).
 */
export async function serveStreamInput(options: StreamInputOptions): Promise<ResultEvent | undefined> {
  const startedAt = performance.now();
  const context = createStreamInputContext(options);
  const { session, turns, invalidLines } = context;
  try {
    for await (const line of readLines(options.input)) routeLine(line, context);
  } catch (error) {
    // stdin destroyed by a signal, or a broken pipe: stop reading, finish what was queued.
    options.log.debug({ err: error }, "stdin closed");
  }
  // Answers still being prepared (initialize) go out before the end; they wait on nobody.
  await context.answers.settled();
  // Nobody can answer questions any more: pending and future ones fail (deny) instead of hanging.
  options.host?.close();
  options.frames?.close();
  await turns.idle();
  if (turns.lastResult !== undefined || invalidLines.length === 0 || session.closed) return turns.lastResult;
  const failure = buildFailureResult({
    sessionId: session.sessionId,
    terminalReason: "invalid_input",
    message: `stdin ended before any turn ran, and ${invalidLines.length} line${invalidLines.length === 1 ? " was" : "s were"} not usable; the first: ${invalidLines[0]}`,
    durationMs: performance.now() - startedAt,
    newUuid: randomUUID,
  });
  options.output(failure);
  return failure;
}
