import type { ResultEvent } from "../../protocol/events.js";
import type { AgentEvent } from "../agent/events.js";
import type { SessionStore } from "../sessions/store.js";
import type { SessionLogger } from "./session-options.js";
import type { SessionAccounting } from "./turn-accounting.js";

type Emit = (event: AgentEvent) => void;

/**
 * What of a session is written to its file, and what happens when it cannot be: the first failure
 * (a full disk, an AGENTWIRE_HOME that is a file or read-only) is reported once as a warning and
 * ends persistence for the session. The turn goes on, nothing retries a failing mkdir per
 * message, and each result says the session was not saved.
 */
export class SessionPersistence {
  /** Why the session file could not be written, once it could not; nothing is written after. */
  private failure: string | undefined;

  constructor(
    private readonly store: SessionStore | undefined,
    private readonly log: SessionLogger,
  ) {}

  /** The store's file, when the session is persisted. */
  get file(): string | undefined {
    return this.store?.file;
  }

  /** Writes what a turn's event commits: a message, a compaction, a tool result's details. */
  record(event: AgentEvent, emit: Emit): void {
    if (event.type === "tool_result" && event.result.details !== undefined)
      this.store?.noteToolDetails(event.toolUseId, event.result.details);
    if (event.type === "message_committed") this.write("message", (store) => store.appendMessage(event.message), emit);
    if (event.type === "compaction_end" && event.messages) {
      const messages = event.messages;
      this.write("compaction", (store) => store.appendCompaction(event.trigger, event.preTokens, event.postTokens, messages), emit);
    }
  }

  /** `/clear`: the file keeps what came before; a resume starts after this mark. */
  cleared(emit: Emit): void {
    this.write("compaction", (store) => store.appendCompaction("clear", 0, 0, []), emit);
  }

  turnEnd(accounting: SessionAccounting, emit: Emit): void {
    this.write("turn_end", (store) => store.appendTurnEnd(accounting.totalCostUsd(), accounting.modelUsageSnapshot()), emit);
  }

  /** The result as sent: marked when the session could not be saved. */
  stamp(result: ResultEvent): ResultEvent {
    return this.failure === undefined ? result : { ...result, session_persisted: false };
  }

  close(): void {
    this.store?.close();
  }

  private write(entry: "message" | "turn_end" | "compaction", write: (store: SessionStore) => void, emit: Emit): void {
    const store = this.store;
    if (!store || this.failure !== undefined) return;
    try {
      write(store);
      this.log.debug({ file: store.file, entry }, "session write");
    } catch (error) {
      this.failure = (error as Error).message;
      this.log.debug({ err: error }, "could not append to the session file");
      emit({
        type: "warning",
        code: "session_not_persisted",
        message: `The session is not being saved and cannot be resumed: could not write ${store.file}: ${this.failure}`,
      });
    }
  }
}
