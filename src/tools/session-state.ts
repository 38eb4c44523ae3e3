/**
 * One named piece of per-session state: its type and the value it has before anything is set.
 * The slot object itself is the key, so two tools cannot collide on a name or disagree on a type.
 */
export interface SessionSlot<T> {
  /** For diagnostics only; lookups go by the slot object. */
  readonly name: string;
  readonly initial: () => T;
}

export function sessionSlot<T>(name: string, initial: () => T): SessionSlot<T> {
  return { name, initial };
}

/**
 * State the tools keep between calls of one session (Bash's working directory, the todo list,
 * the skills loaded), read and written through typed slots. The session owns one and clears
 * slots whose life is shorter than the session's (a skill's grants end with the turn).
 */
export class SessionState {
  private readonly values = new Map<SessionSlot<unknown>, unknown>();

  get<T>(slot: SessionSlot<T>): T {
    // The one cast: a value is only ever stored under its own slot by `set`.
    return this.values.has(slot) ? (this.values.get(slot) as T) : slot.initial();
  }

  set<T>(slot: SessionSlot<T>, value: T): void {
    this.values.set(slot, value);
  }

  clear(slot: SessionSlot<unknown>): void {
    this.values.delete(slot);
  }
}
