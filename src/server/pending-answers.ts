/** Why a question will never be answered: the caller gave up (abort) or the answerer is gone. */
export class UnansweredError extends Error {
  constructor(
    message: string,
    readonly reason: "aborted" | "closed",
  ) {
    super(message);
  }
}

/**
 * Questions waiting for an answer that arrives later on another channel, keyed by id: control
 * requests to the host (answered by `control_response`) and permission frames (answered by
 * `tool_approval`). A question settles exactly once: with its answer, when its signal aborts,
 * or when the whole set is closed (stdin reached EOF), so nothing waits for an answer that
 * cannot come.
 */
export class PendingAnswers<Answer> {
  private readonly waiting = new Map<string, { settle: (answer: Answer) => void; fail: (error: UnansweredError) => void }>();
  private closedMessage: string | undefined;

  /**
   * Waits for the answer to `id`. Rejects with an `UnansweredError` when `signal` aborts (after
   * calling `onAbort`, e.g. to tell the other side) or when the set is, or gets, closed.
   */
  wait(id: string, signal?: AbortSignal, onAbort?: () => void): Promise<Answer> {
    if (this.closedMessage !== undefined) return Promise.reject(new UnansweredError(this.closedMessage, "closed"));
    if (signal?.aborted) return Promise.reject(new UnansweredError("Cancelled.", "aborted"));
    return new Promise((resolve, reject) => {
      const abort = (): void => {
        this.waiting.delete(id);
        onAbort?.();
        reject(new UnansweredError("Cancelled.", "aborted"));
      };
      const detach = (): void => signal?.removeEventListener("abort", abort);
      this.waiting.set(id, {
        settle: (answer) => {
          detach();
          resolve(answer);
        },
        fail: (error) => {
          detach();
          reject(error);
        },
      });
      signal?.addEventListener("abort", abort, { once: true });
    });
  }

  /** Delivers an answer; false when nothing waits for `id`. */
  answer(id: string, answer: Answer): boolean {
    const waiting = this.waiting.get(id);
    if (!waiting) return false;
    this.waiting.delete(id);
    waiting.settle(answer);
    return true;
  }

  /** Fails one question (the other side answered with an error); false when nothing waits for `id`. */
  reject(id: string, message: string): boolean {
    const waiting = this.waiting.get(id);
    if (!waiting) return false;
    this.waiting.delete(id);
    waiting.fail(new UnansweredError(message, "closed"));
    return true;
  }

  /** No answer will ever come: every open question fails now, and every later one at once. */
  close(message: string): void {
    this.closedMessage = message;
    for (const [, waiting] of this.waiting) waiting.fail(new UnansweredError(message, "closed"));
    this.waiting.clear();
  }

  get isClosed(): boolean {
    return this.closedMessage !== undefined;
  }
}
