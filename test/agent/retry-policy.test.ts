import { describe, expect, it } from "vitest";
import { exponentialBackoff } from "../../src/agent/retry-policy.js";

describe("exponentialBackoff", () => {
  it("doubles from 500 ms and caps at 32 s", () => {
    const policy = exponentialBackoff(10, () => 0);

    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map((attempt) => policy.delayMs(attempt, undefined));

    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 32_000, 32_000, 32_000]);
  });

  it("never waits longer than the 32 s cap, jitter included", () => {
    for (const sample of [0, 0.5, 0.999999]) {
      const delays = [6, 7, 8, 9, 10].map((attempt) => exponentialBackoff(10, () => sample).delayMs(attempt, undefined));
      expect(Math.max(...delays)).toBeLessThanOrEqual(32_000);
    }
    // Below the cap the jitter still spreads clients out: 16 s · 1.25 → 20 s, and 32 s · 1.x → 32 s.
    expect(exponentialBackoff(10, () => 0.999999).delayMs(6, undefined)).toBe(20_000);
    expect(exponentialBackoff(10, () => 0.5).delayMs(7, undefined)).toBe(32_000);
  });

  it("adds at most 25 % jitter on top of the backoff", () => {
    const samples = [0, 0.1, 0.5, 0.9, 0.999999];
    for (const attempt of [1, 3, 5]) {
      const base = Math.min(500 * 2 ** (attempt - 1), 32_000);
      const delays = samples.map((sample) => exponentialBackoff(10, () => sample).delayMs(attempt, undefined));
      for (const delay of delays) {
        expect(delay).toBeGreaterThanOrEqual(base);
        expect(delay).toBeLessThanOrEqual(base * 1.25);
      }
      // The jitter follows the random source, so concurrent clients spread out.
      expect(delays).toEqual([...delays].sort((a, b) => a - b));
      expect(delays[0]).toBeLessThan(delays.at(-1)!);
    }
    expect(exponentialBackoff(10, () => 0.5).delayMs(2, undefined)).toBe(1_125);
  });

  it("waits exactly as long as the server asks, whatever the attempt", () => {
    const policy = exponentialBackoff(10, () => 0.9);

    expect(policy.delayMs(1, 7_250)).toBe(7_250);
    expect(policy.delayMs(9, 100)).toBe(100);
    expect(policy.delayMs(3, 0)).toBe(0);
  });

  it("bounds a server-requested delay to 0 … 60 s", () => {
    const policy = exponentialBackoff(10, () => 0);

    expect(policy.delayMs(1, -5_000)).toBe(0);
    expect(policy.delayMs(1, 3_600_000)).toBe(60_000);
  });

  it("keeps the retry budget it was given", () => {
    expect(exponentialBackoff(0).maxRetries).toBe(0);
    expect(exponentialBackoff(7).maxRetries).toBe(7);
  });
});
