import { randomUUID } from "../text/random-uuid.js";
import { PermissionModeSchema } from "../../protocol/commands.js";
import type { OutputEvent } from "../../protocol/events.js";
import type { PermissionMode } from "../permissions/policy.js";
import { resolveModelAlias } from "../providers/models.js";
import { buildFailureResult } from "../session/wire/result.js";
import type { Session } from "../session/session.js";
import { SessionSetupError } from "../session/session-options.js";
import { TurnQueue } from "../session/turn-queue.js";
import { EventQueue } from "./event-queue.js";
import { userMessages } from "./prompt-messages.js";
import type { QueryOptions, QueryUserMessage } from "./query-options.js";
import { startSession } from "./query-session.js";

export type { CanUseTool, QueryOptions, QueryUserMessage } from "./query-options.js";

/** The running query: the session's events in order, plus controls while it runs. */
export interface Query extends AsyncGenerator<OutputEvent, void> {
  /** Stops the running turn; it ends with an `error_during_execution` result and the query goes on. */
  interrupt(): Promise<void>;
  /** From the next model request on; no argument returns to the first model. Aliases resolve. */
  setModel(model?: string): Promise<void>;
  setPermissionMode(mode: PermissionMode): Promise<void>;
  /** Ends the query now: no further prompts are taken, the running turn is interrupted. */
  close(): void;
}

/**
 * Runs an agent session in this process and yields exactly the objects `agentwire
 * --output-format stream-json` prints (validated by protocol/'s OutputEventSchema): for each user
 * message a `system/init`, the turn's events, and its `result`. `prompt` is one message, or an
 * async iterable of messages that are run one after another as they arrive. Shaped after the
 * Claude Agent SDK's `query()`; the differences are listed in the README.
 *
 * Contract: never throws. Bad options or an unknown session end the query with one error
 * `result`; every turn ends with its `result`. Nothing is written to stdout, no signal or exit
 * handler is installed, no child process runs the agent; the provider's SDK loads on the first
 * model request.
 */
export function query(input: { prompt: string | AsyncIterable<QueryUserMessage>; options?: QueryOptions }): Query {
  const options = input.options ?? {};
  const queue = new EventQueue<OutputEvent>();
  const startedAt = Date.now();
  let session: Session | undefined;
  let running: TurnQueue | undefined;
  let closed = false;
  const abortSignal = options.abortSignal ?? options.abortController?.signal;

  const endWithError = (
    message: string,
    terminalReason: "invalid_arguments" | "session_not_found" | "session_unreadable" | "internal_error",
  ): void => {
    queue.push(
      buildFailureResult({
        sessionId: session?.sessionId ?? randomUUID(),
        terminalReason,
        message,
        durationMs: Date.now() - startedAt,
        newUuid: randomUUID,
      }),
    );
  };
  const close = (): void => {
    if (closed) return;
    closed = true;
    // The interrupted turn still ends with its result; the queue ends once the session is idle.
    if (session) void session.close().finally(() => queue.end());
    else queue.end();
  };
  const onAbort = (): void => close();

  const drive = async (): Promise<void> => {
    try {
      session = startSession(options, (event) => queue.push(event));
      const outputSchema = options.outputFormat?.schema;
      if (outputSchema) {
        await session.setOutputSchema(outputSchema).catch((error: Error) => {
          throw new SessionSetupError(`Invalid option outputFormat.schema: not a valid JSON Schema: ${error.message}`, "invalid_arguments");
        });
      }
    } catch (error) {
      if (error instanceof SessionSetupError) endWithError(error.message, error.terminalReason);
      else endWithError(`agentwire could not start the session: ${(error as Error).message}`, "internal_error");
      closed = true;
      queue.end();
      return;
    }
    if (abortSignal?.aborted) return close();
    abortSignal?.addEventListener("abort", onAbort, { once: true });
    const turns = new TurnQueue({ session, emit: (event) => queue.push(event) });
    running = turns;
    try {
      // Messages are taken as they arrive and wait in the queue while a turn runs, as stream-json
      // input's lines do; the finally lets every message taken finish before the query ends.
      try {
        for await (const message of userMessages(input.prompt)) {
          if (closed) break;
          turns.push(message);
        }
      } finally {
        await turns.idle();
      }
    } catch (error) {
      // A malformed streamed message, or the caller's iterable threw: said in-protocol, after the
      // turns of the messages before it.
      if (!closed) endWithError((error as Error).message, "invalid_arguments");
    } finally {
      abortSignal?.removeEventListener("abort", onAbort);
      close();
    }
  };
  void drive();

  async function* events(): AsyncGenerator<OutputEvent, void> {
    try {
      yield* queue;
    } finally {
      // The consumer stopped iterating (break, return, throw): nothing more to run.
      close();
    }
  }
  return Object.assign(events(), {
    interrupt: async () => void running?.interrupt(),
    setModel: async (model?: string) => session?.setModel(model === undefined ? undefined : resolveModelAlias(model)),
    setPermissionMode: async (mode: PermissionMode) => session?.setPermissionMode(PermissionModeSchema.parse(mode)),
    close,
  });
}
