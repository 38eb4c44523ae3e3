import { SubagentCounters, Slots } from "./subagent-stats.js";
import { SUBAGENT_LIMITS, type SubagentSpec } from "./subagent-spec.js";

/** A session's subagents: the types it offers, how deep and how many at once they may run, and the turn's counters. */
export class Subagents {
  readonly counters = new SubagentCounters();
  readonly slots: Slots;

  constructor(
    readonly specs: readonly SubagentSpec[],
    readonly maxDepth: number = SUBAGENT_LIMITS.maxDepth,
    concurrency: number = SUBAGENT_LIMITS.concurrency,
  ) {
    this.slots = new Slots(concurrency);
  }
}
