import type { AgentEvent } from "../agent/events.js";

type Emit = (event: AgentEvent) => void;

/**
 * Warnings raised outside the model's answer (an MCP server crashing, a hook failing, a memory
 * file cut): out at once while a turn runs, else held for the start of the next one, since
 * events belong to turns.
 */
export class SessionNotices {
  private sink: Emit | undefined;

  constructor(private readonly held: AgentEvent[]) {}

  warn(warning: AgentEvent): void {
    if (this.sink) this.sink(warning);
    else this.held.push(warning);
  }

  /** A turn started: warnings from now on go to its events. */
  attach(emit: Emit): void {
    this.sink = emit;
  }

  detach(): void {
    this.sink = undefined;
  }

  /** Sends what was held (at the point of the turn where a host expects notices). */
  flush(emit: Emit): void {
    for (const warning of this.held.splice(0)) emit(warning);
  }
}
