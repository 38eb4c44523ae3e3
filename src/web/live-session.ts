import { randomUUID } from "../text/random-uuid.js";
import type { PermissionResult, PermissionUpdate } from "../../protocol/control.js";
import type { OutputEvent } from "../../protocol/events.js";
import { query, type CanUseTool, type Query, type QueryOptions } from "../api/query.js";
import { EventLog } from "./event-log.js";
import { grantedOptions } from "./granted-permissions.js";

interface OpenQuestion {
  suggestions: PermissionUpdate[];
  answer: (result: PermissionResult) => void;
}

export interface PermissionAnswer {
  behavior: "allow" | "deny";
  message?: string | undefined;
  /** Allow this and what the question suggested (the same command, the folder) for the rest of the session. */
  always?: boolean | undefined;
}

/**
 * A session the web server runs: each message the page posts is one turn, run by the library's
 * `query()` (resuming the session after its first turn), so the session's file is locked only
 * while a turn runs and `agentwire --resume ID` can go on with it between turns. Its events go
 * to an EventLog the browsers read; a permission question becomes a `can_use_tool` control
 * request in that log (as Claude Code asks its host) and waits for the page's answer.
 */
export class LiveSession {
  readonly log = new EventLog();
  /** Posted and not yet run, oldest first. */
  private readonly waiting: string[] = [];
  private readonly questions = new Map<string, OpenQuestion>();
  /** What the page's "always" answers granted; later turns start with it. */
  private readonly grants: PermissionUpdate[] = [];
  private running: Query | undefined;
  /** Settles when the queued turns have run; replaced when a message comes after that. */
  private turns: Promise<void> = Promise.resolve();
  /** Whether the session's file exists: later turns resume it instead of starting it. */
  private begun: boolean;
  private closed = false;
  private nextQuestion = 1;

  constructor(
    readonly id: string,
    readonly cwd: string,
    private readonly options: QueryOptions,
  ) {
    this.begun = options.resume !== undefined;
  }

  get ended(): boolean {
    return this.closed;
  }

  send(text: string): void {
    this.waiting.push(text);
    if (this.running === undefined && this.waiting.length === 1) this.turns = this.runWaiting();
  }

  async interrupt(): Promise<void> {
    await this.running?.interrupt();
  }

  /** False when there is no such open question (answered, cancelled, or never asked). */
  answer(requestId: string, answer: PermissionAnswer): boolean {
    const question = this.questions.get(requestId);
    if (!question) return false;
    this.questions.delete(requestId);
    const always = answer.behavior === "allow" && answer.always === true && question.suggestions.length > 0;
    if (always) this.grants.push(...question.suggestions);
    question.answer(
      answer.behavior === "allow"
        ? { behavior: "allow", ...(always ? { updatedPermissions: question.suggestions } : {}) }
        : { behavior: "deny", message: answer.message || "The user denied this in the web UI." },
    );
    return true;
  }

  /** Ends the session; resolves once its running turn has ended (its session file is released then). */
  close(): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    this.running?.close();
    return this.turns;
  }

  /** Runs the posted messages one turn each, in order, until none is waiting. */
  private async runWaiting(): Promise<void> {
    while (this.waiting.length > 0 && !this.closed) {
      const text = this.waiting[0]!;
      const { sessionId: _new, resume: _resumed, ...base } = this.options;
      this.running = query({
        prompt: text,
        options: {
          ...base,
          ...grantedOptions(base, this.grants),
          ...(this.begun ? { resume: this.id } : { sessionId: this.id }),
          cwd: this.cwd,
          includePartialMessages: true,
          canUseTool: this.ask,
        },
      });
      for await (const event of this.running) {
        // Past its init a turn has written the session's file: the next turn resumes it.
        if (event.type === "system" && event.subtype === "init") this.begun = true;
        this.record(event, text);
      }
      this.running = undefined;
      this.waiting.shift();
    }
  }

  private readonly ask: CanUseTool = (toolName, input, options) =>
    new Promise((resolve) => {
      const requestId = `web-${this.nextQuestion++}`;
      const settle = (result: PermissionResult): void => {
        options.signal.removeEventListener("abort", cancel);
        resolve(result);
      };
      const cancel = (): void => {
        if (!this.questions.delete(requestId)) return;
        this.log.append({ type: "control_cancel_request", request_id: requestId });
        settle({ behavior: "deny", message: "The turn was interrupted." });
      };
      this.questions.set(requestId, { suggestions: options.suggestions, answer: settle });
      options.signal.addEventListener("abort", cancel, { once: true });
      this.log.append({
        type: "control_request",
        request_id: requestId,
        request: {
          subtype: "can_use_tool",
          tool_name: toolName,
          display_name: toolName,
          input,
          tool_use_id: options.toolUseID,
          description: options.description,
          decision_reason: options.decisionReason,
          decision_reason_type: options.decisionReasonType,
          permission_suggestions: options.suggestions,
        },
      });
    });

  private record(event: OutputEvent, prompt: string): void {
    this.log.append(event);
    if (event.type === "system" && event.subtype === "init") {
      // The user's own message, as Claude Code echoes it (--replay-user-messages): a browser
      // that reloads mid-turn replays the log and must see what was asked, not only the answer.
      this.log.append({
        type: "user",
        message: { role: "user", content: [{ type: "text", text: prompt }] },
        parent_tool_use_id: null,
        session_id: event.session_id,
        uuid: randomUUID(),
        timestamp: new Date().toISOString(),
      });
    }
  }
}
