import type { OutputEvent, ResultEvent } from "../../protocol/events.js";
import type { UserMessage } from "../conversation/messages.js";
import type { Session } from "./session.js";

/** What the queue uses of a session: its public turn API, nothing more. */
export type QueuedSession = Pick<Session, "closed" | "mcpReady" | "initEvent" | "runTurn" | "interrupt">;

export interface TurnQueueOptions {
  session: QueuedSession;
  /** Where each turn's `system/init` goes; the turn's own events leave through the session's `onEvent`. */
  emit: (event: OutputEvent) => void;
  /**
   * Set-up the next turns depend on (the host's in-process MCP tools, an `initialize` still being
   * answered), awaited each time the queue starts working after being idle.
   */
  beforeTurns?: () => Promise<void>;
  /** Told when the queue starts on its first message, and when it has run out of them. */
  onStateChange?: (state: "running" | "idle") => void;
}

/**
 * The user messages of one session, run strictly in the order they arrived, one turn at a time.
 * The same queue serves stream-json input (lines read while a turn runs wait here) and `query()`
 * (messages of a streamed prompt). Each turn is preceded by a `system/init`, as Claude Code repeats
 * it before every turn of streamed input.
 *
 * Contract: `interrupt` stops only the running turn (it still ends with its `result`); the
 * messages behind it stay queued and run, as Claude Code leaves queued work alone. Once the
 * session is closed, no queued message runs: they are dropped. `idle` resolves when nothing is
 * queued or running, so a caller whose input has ended awaits it to finish every message read.
 */
export class TurnQueue {
  private readonly waiting: UserMessage[] = [];
  private worker: Promise<void> | undefined;
  private state: "idle" | "running" = "idle";
  private last: ResultEvent | undefined;

  constructor(private readonly options: TurnQueueOptions) {}

  /** The last turn's result; undefined until a turn has run. */
  get lastResult(): ResultEvent | undefined {
    return this.last;
  }

  /** Queues the message; it runs once every message before it has. */
  push(message: UserMessage): void {
    this.waiting.push(message);
    this.worker ??= this.work();
  }

  /** Stops the running turn; false when none runs (queued messages are not affected). */
  interrupt(): boolean {
    return this.options.session.interrupt();
  }

  /** Resolves once no message is queued or running (at once when idle). */
  async idle(): Promise<void> {
    while (this.worker) await this.worker;
  }

  private async work(): Promise<void> {
    const { session, emit } = this.options;
    try {
      // Always awaits (also `undefined`), so `worker` is set before this body can finish.
      await this.options.beforeTurns?.();
      await session.mcpReady();
      for (let next = this.waiting.shift(); next && !session.closed; next = this.waiting.shift()) {
        this.announce("running");
        emit(await session.initEvent());
        this.last = await session.runTurn(next);
      }
      this.waiting.length = 0;
      this.announce("idle");
    } finally {
      // In the same step as the last check of `waiting`: a message pushed later starts a new worker.
      this.worker = undefined;
    }
  }

  private announce(next: "idle" | "running"): void {
    if (this.state === next) return;
    this.state = next;
    this.options.onStateChange?.(next);
  }
}
