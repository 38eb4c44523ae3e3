import type { OutputEvent } from "../../protocol/events.js";

export interface LoggedEvent {
  id: number;
  /** The event as JSON: serialized once, however many readers it goes to. */
  data: string;
}

type Listener = (logged: LoggedEvent) => void;

/**
 * A live session's events, numbered from 1, kept for as long as the session is live: a browser
 * that reconnects (Last-Event-ID) or reloads gets what it missed from here, so the session never
 * waits for a reader and a reader never loses a line.
 */
export class EventLog {
  private readonly events: LoggedEvent[] = [];
  private readonly listeners = new Set<Listener>();

  append(event: OutputEvent): void {
    const logged = { id: this.events.length + 1, data: JSON.stringify(event) };
    this.events.push(logged);
    for (const listener of this.listeners) listener(logged);
  }

  /** The events after `lastId` (all with 0). */
  since(lastId: number): LoggedEvent[] {
    return this.events.slice(Math.max(0, lastId));
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
