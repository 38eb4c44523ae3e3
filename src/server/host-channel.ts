import { randomUUID } from "node:crypto";
import type { OutputEvent } from "../../protocol/events.js";

/** The host answered a control request with an error, or went away before answering. */
export class HostRequestError extends Error {}

/**
 * Control requests from agentwire to the host (`can_use_tool`, `hook_callback`, `mcp_message`),
 * each matched to the host's `control_response` by `request_id`. Requests are answered
 * concurrently with the message stream. When the turn is interrupted the host is told with
 * `control_cancel_request`; when stdin closes, every pending request fails at once, so nothing
 * waits for an answer that cannot come.
 */
export class HostChannel {
  private readonly pending = new Map<string, { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  private closed = false;

  constructor(private readonly output: (event: OutputEvent) => void) {}

  request(subtype: string, payload: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(new HostRequestError("The host closed its input; nobody can answer."));
    if (signal?.aborted) return Promise.reject(new HostRequestError("Cancelled."));
    const requestId = randomUUID();
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.pending.delete(requestId);
        this.output({ type: "control_cancel_request", request_id: requestId });
        reject(new HostRequestError("Cancelled."));
      };
      this.pending.set(requestId, {
        resolve: (value) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(value);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.output({ type: "control_request", request_id: requestId, request: { subtype, ...payload } });
    });
  }

  /** Delivers a host `control_response`; returns false when no request was waiting for it. */
  handleResponse(response: { subtype: "success" | "error"; request_id: string; response?: unknown; error?: unknown }): boolean {
    const waiting = this.pending.get(response.request_id);
    if (!waiting) return false;
    this.pending.delete(response.request_id);
    if (response.subtype === "success") {
      const value = response.response;
      waiting.resolve(value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
    } else waiting.reject(new HostRequestError(typeof response.error === "string" ? response.error : "The host reported an error."));
    return true;
  }

  /** stdin reached EOF: no answer will ever come. */
  close(): void {
    this.closed = true;
    for (const [, waiting] of this.pending) waiting.reject(new HostRequestError("The host closed its input before answering."));
    this.pending.clear();
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
