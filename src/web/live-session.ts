import { randomUUID } from "node:crypto";
import type { PermissionResult, PermissionUpdate } from "../../protocol/control.js";
import type { OutputEvent } from "../../protocol/events.js";
import { EventQueue } from "../api/event-queue.js";
import { query, type CanUseTool, type Query, type QueryOptions } from "../api/query.js";
import { EventLog } from "./event-log.js";

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
 * A session the web server runs: the library's `query()` fed by the messages the page posts.
 * Its events go to an EventLog the browsers read; a permission question becomes a `can_use_tool`
 * control request in that log (as Claude Code asks its host) and waits for the page's answer.
 */
export class LiveSession {
  readonly log = new EventLog();
  private readonly prompts = new EventQueue<string>();
  /** Sent and not yet started: each is echoed into the log after its turn's system/init. */
  private readonly unechoed: string[] = [];
  private readonly questions = new Map<string, OpenQuestion>();
  private readonly running: Query;
  private nextQuestion = 1;
  private finished = false;
  /** Settles once the session has ended and let go of its file. */
  private readonly pumped: Promise<void>;

  constructor(
    readonly id: string,
    readonly cwd: string,
    options: QueryOptions,
  ) {
    this.running = query({ prompt: this.prompts, options: { ...options, cwd, includePartialMessages: true, canUseTool: this.ask } });
    this.pumped = this.pump();
  }

  get ended(): boolean {
    return this.finished;
  }

  send(text: string): void {
    this.unechoed.push(text);
    this.prompts.push(text);
  }

  async interrupt(): Promise<void> {
    await this.running.interrupt();
  }

  /** False when there is no such open question (answered, cancelled, or never asked). */
  answer(requestId: string, answer: PermissionAnswer): boolean {
    const question = this.questions.get(requestId);
    if (!question) return false;
    this.questions.delete(requestId);
    question.answer(
      answer.behavior === "allow"
        ? { behavior: "allow", ...(answer.always && question.suggestions.length > 0 ? { updatedPermissions: question.suggestions } : {}) }
        : { behavior: "deny", message: answer.message || "The user denied this in the web UI." },
    );
    return true;
  }

  /** Ends the session; resolves once it has closed (its session file is released then). */
  close(): Promise<void> {
    this.prompts.end();
    this.running.close();
    return this.pumped;
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

  private async pump(): Promise<void> {
    for await (const event of this.running) this.record(event);
    this.finished = true;
  }

  private record(event: OutputEvent): void {
    this.log.append(event);
    if (event.type === "system" && event.subtype === "init") {
      // The user's own message, as Claude Code echoes it (--replay-user-messages): a browser
      // that reloads mid-turn replays the log and must see what was asked, not only the answer.
      const text = this.unechoed.shift();
      if (text !== undefined) {
        this.log.append({ type: "user", message: { role: "user", content: [{ type: "text", text }] }, parent_tool_use_id: null, session_id: event.session_id, uuid: randomUUID(), timestamp: new Date().toISOString() });
      }
    }
  }
}
