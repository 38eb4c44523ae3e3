import { randomUUID } from "../text/random-uuid.js";
import type { OutputEvent } from "../../protocol/events.js";
import { PendingAnswers } from "./pending-answers.js";

/**
 * Control requests from agentwire to the host (`can_use_tool`, `hook_callback`, `mcp_message`),
 * each matched to the host's `control_response` by `request_id`. Requests are answered
 * concurrently with the message stream. When the turn is interrupted the host is told with
 * `control_cancel_request`; when stdin closes, every pending request fails at once, so nothing
 * waits for an answer that cannot come.
 */
export class HostChannel {
  private readonly pending = new PendingAnswers<Record<string, unknown>>();

  constructor(private readonly output: (event: OutputEvent) => void) {}

  /** Rejects with an `UnansweredError` when cancelled, when the host answers with an error, or when it is gone. */
  request(subtype: string, payload: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const requestId = randomUUID();
    const answer = this.pending.wait(requestId, signal, () => this.output({ type: "control_cancel_request", request_id: requestId }));
    // Asked only once the answer is awaited: an answer can never arrive before its question.
    if (!this.pending.isClosed && !signal?.aborted)
      this.output({ type: "control_request", request_id: requestId, request: { subtype, ...payload } });
    return answer;
  }

  /** Delivers a host `control_response`; returns false when no request was waiting for it. */
  handleResponse(response: { subtype: "success" | "error"; request_id: string; response?: unknown; error?: unknown }): boolean {
    if (response.subtype === "error") {
      return this.pending.reject(response.request_id, typeof response.error === "string" ? response.error : "The host reported an error.");
    }
    const value = response.response;
    return this.pending.answer(
      response.request_id,
      value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {},
    );
  }

  /** stdin reached EOF: no answer will ever come. */
  close(): void {
    this.pending.close("The host closed its input before answering.");
  }

  get isClosed(): boolean {
    return this.pending.isClosed;
  }
}
