import type { SubagentStats } from "../../../protocol/events.js";
import { emptySubagentStats } from "../wire/subagent-lines.js";

/** How a subagent run ended, as the counters sort it. */
export type SubagentEnding = "completed" | "failed" | "killed_by_user";

/** Why an Agent call started nothing. */
export type SubagentRefusal = keyof SubagentStats["refused"];

/** The turn's `subagent_stats`: counted as Agent calls come, read once by the turn's result. */
export class SubagentCounters {
  private stats = emptySubagentStats();

  startTurn(): void {
    this.stats = emptySubagentStats();
  }

  requested(runInBackground: boolean | undefined): void {
    const requested = this.stats.requested;
    if (runInBackground === undefined) requested.unset++;
    else if (runInBackground) requested.background++;
    else requested.foreground++;
  }

  startedInBackground(): void {
    this.stats.started_in_background++;
  }

  spawned(type: string, depth: number): void {
    this.stats.spawned++;
    this.stats.max_depth = Math.max(this.stats.max_depth, depth);
    if (depth > 1) this.stats.spawned_by_subagents++;
    countOnce(this.stats.by_type, type);
  }

  ended(ending: SubagentEnding): void {
    if (ending === "killed_by_user") this.stats.killed.user++;
    else this.stats[ending]++;
  }

  refused(reason: SubagentRefusal): void {
    this.stats.refused[reason]++;
  }

  snapshot(): SubagentStats {
    return structuredClone(this.stats);
  }
}

/**
 * Adds one to `counts[key]`. Keys come from outside (a definition's name, a tool name the model
 * wrote), and a plain object already answers `constructor` or `hasOwnProperty` with Object's
 * members (which `+ 1` turned into text) and assigning `__proto__` sets no key: only the object's
 * own numbers are read, and the key is defined as its own.
 */
export function countOnce(counts: Record<string, number>, key: string): void {
  const value = (Object.hasOwn(counts, key) ? counts[key]! : 0) + 1;
  Object.defineProperty(counts, key, { value, enumerable: true, writable: true, configurable: true });
}

/** At most `size` holders at once; the others wait in order. */
export class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  /** Resolves with a release function once a place is free; false when `signal` aborted first. */
  async take(signal: AbortSignal): Promise<(() => void) | false> {
    if (signal.aborted) return false;
    if (this.free > 0) {
      this.free--;
      return this.releaser();
    }
    const granted = await new Promise<boolean>((resolve) => {
      const grant = (): void => {
        signal.removeEventListener("abort", giveUp);
        resolve(true);
      };
      const giveUp = (): void => {
        this.waiting.splice(this.waiting.indexOf(grant), 1);
        resolve(false);
      };
      this.waiting.push(grant);
      signal.addEventListener("abort", giveUp, { once: true });
    });
    return granted ? this.releaser() : false;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The place passes straight to the next in line.
      if (next) next();
      else this.free++;
    };
  }
}
