import { describe, expect, it } from "vitest";
import { countOnce, Slots, SubagentCounters } from "../../src/session/subagent/subagent-stats.js";

describe("subagent counters", () => {
  it("count requests, spawns, endings and refusals in Claude Code's fields, and start again each turn", () => {
    const counters = new SubagentCounters();
    counters.requested(undefined);
    counters.requested(false);
    counters.requested(true);
    counters.spawned("general-purpose", 1);
    counters.spawned("reviewer", 2);
    counters.ended("completed");
    counters.ended("failed");
    counters.ended("killed_by_user");
    counters.refused("depth_limit");
    expect(counters.snapshot()).toEqual({
      spawned: 2,
      requested: { background: 1, foreground: 1, unset: 1 },
      started_in_background: 0,
      max_depth: 2,
      spawned_by_subagents: 1,
      completed: 1,
      failed: 1,
      killed: { parent: 0, user: 1, system: 0 },
      refused: { depth_limit: 1, concurrency_limit: 0, budget: 0 },
      by_type: { "general-purpose": 1, reviewer: 1 },
    });
    counters.startTurn();
    expect(counters.snapshot().spawned).toBe(0);
  });
});

describe("slots", () => {
  it("let `size` holders in at once; the next waits until one leaves, and gives up on abort", async () => {
    const slots = new Slots(2);
    const never = new AbortController().signal;
    const first = await slots.take(never);
    const second = await slots.take(never);
    expect(first && second).toBeTruthy();
    let thirdIn = false;
    const third = slots.take(never).then((release) => {
      thirdIn = true;
      return release;
    });
    const stop = new AbortController();
    const fourth = slots.take(stop.signal);
    await Promise.resolve();
    expect(thirdIn).toBe(false);
    if (first) first();
    expect(await third).toBeTypeOf("function");
    stop.abort();
    expect(await fourth).toBe(false);
    expect(await slots.take(stop.signal)).toBe(false);
  });
});

describe("countOnce", () => {
  it("counts names an object already holds (constructor, toString, __proto__) as its own numbers", () => {
    const counts: Record<string, number> = {};
    for (const name of ["constructor", "toString", "__proto__", "__proto__", "Read"]) countOnce(counts, name);
    expect(JSON.stringify(counts)).toBe('{"constructor":1,"toString":1,"__proto__":2,"Read":1}');
    expect(Object.getPrototypeOf(counts)).toBe(Object.prototype);
  });
});
