/** When and how long to wait before retrying a failed model request. */
export interface RetryPolicy {
  maxRetries: number;
  /** Delay before retry number `attempt` (1-based), honouring a server-requested delay. */
  delayMs(attempt: number, retryAfterMs: number | undefined): number;
}

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 32_000;
/** A server may ask for a long pause; beyond this we still wait, but no longer than this. */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Exponential backoff (500 ms · 2^(n-1)) with up to 25 % jitter, as Claude Code does, capped at
 * 32 s after the jitter (jitter added to a capped delay made waits of 35–38 s); a `retry-after`
 * from the server wins when present.
 */
export function exponentialBackoff(maxRetries: number, random: () => number = Math.random): RetryPolicy {
  return {
    maxRetries,
    delayMs(attempt, retryAfterMs) {
      if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), MAX_RETRY_AFTER_MS);
      const exponential = BASE_DELAY_MS * 2 ** (attempt - 1);
      return Math.min(Math.round(exponential * (1 + 0.25 * random())), MAX_DELAY_MS);
    },
  };
}
