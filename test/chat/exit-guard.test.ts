import { describe, expect, it } from "vitest";
import { ExitGuard } from "../../src/chat/exit-guard.js";

describe("leaving the chat with two Ctrl+C", () => {
  it("confirms within two seconds of being told, not after", () => {
    let now = 10_000;
    const told: number[] = [];
    const guard = new ExitGuard(
      () => told.push(now),
      () => now,
    );
    expect(guard.confirms()).toBe(false);
    guard.arm();
    now += 1999;
    expect(guard.confirms()).toBe(true);
    now += 2;
    expect(guard.confirms()).toBe(false);
    expect(told).toEqual([10_000]);
  });

  it("during a turn, tells only once the turn has ended, and counts from then", () => {
    let now = 0;
    const told: number[] = [];
    const guard = new ExitGuard(
      () => told.push(now),
      () => now,
    );
    guard.armDuringTurn();
    expect(told).toEqual([]);
    now = 5000;
    guard.turnEnded();
    expect(told).toEqual([5000]);
    expect(guard.confirms()).toBe(true);
    guard.turnEnded();
    expect(told).toEqual([5000]);
  });
});
