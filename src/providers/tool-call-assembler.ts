import type { ProviderEvent } from "./types.js";

/**
 * One streamed piece of a tool call, as OpenAI-style APIs send them: the first piece usually
 * carries the id and name, later pieces only argument text. `key` tells calls apart within one
 * response (Chat Completions' `index`, a Responses output item id).
 */
export interface ToolCallFragment {
  key: number | string;
  id?: string | null | undefined;
  name?: string | null | undefined;
  argumentsDelta?: string | null | undefined;
}

/** A call that never became a `tool_call_end`, and why. */
export interface DroppedToolCall {
  key: number | string;
  name: string | undefined;
  reason: "incomplete_arguments" | "missing_name";
}

interface CallState {
  key: number | string;
  id: string | undefined;
  name: string | undefined;
  argumentsText: string;
  /** Set once `tool_call_start` was emitted. */
  blockIndex: number | undefined;
  emittedLength: number;
  /** The API said the arguments are complete (Responses `output_item.done`). */
  closedByApi: boolean;
  ended: boolean;
}

export interface ToolCallAssemblerOptions {
  /** Hands out the next block index of the response (shared with its text and thinking blocks). */
  nextBlockIndex: () => number;
  /** Id for a call whose stream carries none (some local servers omit it). */
  newCallId: () => string;
}

/**
 * Assembles streamed tool calls into `tool_call_start` / `_delta` / `_end` events, for every
 * OpenAI-style stream (Chat Completions, local servers, Responses function calls).
 *
 * Calls are reported one at a time, in the order they first appeared, as consumers of Claude
 * Code's stream expect: the call being streamed gets its deltas live; pieces of later calls are
 * buffered until it has ended. A call ends when the API closes it, when a later call appears
 * and its argument text is complete JSON, or when the response finishes.
 *
 * Contract: never throws. A call whose arguments are not a complete JSON object when it ends
 * (cut off by a length limit, malformed) or that never got a name is never reported as a
 * `tool_call_end`, so it can never run; `finish()` lists it in `dropped`.
 */
export class ToolCallAssembler {
  private readonly calls: CallState[] = [];
  /** Index into `calls` of the call being streamed, or the next one to start. */
  private cursor = 0;
  private readonly dropped: DroppedToolCall[] = [];
  private ended = 0;

  constructor(private readonly options: ToolCallAssemblerOptions) {}

  /** True while a started call has not ended: other blocks must wait until it has. */
  get streaming(): boolean {
    const current = this.calls[this.cursor];
    return current?.blockIndex !== undefined && !current.ended;
  }

  /** Number of calls reported with `tool_call_end` so far. */
  get completedCount(): number {
    return this.ended;
  }

  append(fragment: ToolCallFragment): ProviderEvent[] {
    let call = this.calls.find((candidate) => candidate.key === fragment.key);
    if (!call) {
      call = {
        key: fragment.key,
        id: undefined,
        name: undefined,
        argumentsText: "",
        blockIndex: undefined,
        emittedLength: 0,
        closedByApi: false,
        ended: false,
      };
      this.calls.push(call);
    }
    // A call ends only once its JSON is complete, so anything more for it could only break it.
    if (call.ended) return [];
    // Some local servers repeat the id and name on every piece; the first one wins.
    if (fragment.id && !call.id) call.id = fragment.id;
    if (fragment.name && !call.name) call.name = fragment.name;
    call.argumentsText += fragment.argumentsDelta ?? "";
    return this.advance(false);
  }

  /** The API reports that a call's arguments are complete (e.g. Responses `output_item.done`). */
  close(key: number | string): ProviderEvent[] {
    const call = this.calls.find((candidate) => candidate.key === key);
    if (!call || call.ended) return [];
    call.closedByApi = true;
    return this.advance(false);
  }

  /** Ends every call: the response is over. */
  finish(): { events: ProviderEvent[]; dropped: DroppedToolCall[] } {
    const events = this.advance(true);
    return { events, dropped: [...this.dropped] };
  }

  private advance(final: boolean): ProviderEvent[] {
    const events: ProviderEvent[] = [];
    while (this.cursor < this.calls.length) {
      const call = this.calls[this.cursor]!;
      const laterCallExists = this.cursor < this.calls.length - 1;
      if (call.blockIndex === undefined) {
        if (!call.name) {
          if (!final) break;
          this.drop(call, "missing_name");
          continue;
        }
        call.id ??= this.options.newCallId();
        call.blockIndex = this.options.nextBlockIndex();
        events.push({ type: "tool_call_start", index: call.blockIndex, id: call.id, name: call.name });
      }
      if (call.argumentsText.length > call.emittedLength) {
        events.push({ type: "tool_call_delta", index: call.blockIndex, partialJson: call.argumentsText.slice(call.emittedLength) });
        call.emittedLength = call.argumentsText.length;
      }
      const mayEnd = final || call.closedByApi || laterCallExists;
      if (!mayEnd) break;
      // An empty argument text means "no arguments" only once nothing more can arrive.
      const input = call.argumentsText.trim() === "" && !(final || call.closedByApi) ? undefined : parseToolArguments(call.argumentsText);
      if (input === undefined) {
        // Interleaved pieces: a later call started before this one is complete. Wait for it.
        if (!final && !call.closedByApi) break;
        this.drop(call, "incomplete_arguments");
        continue;
      }
      events.push({ type: "tool_call_end", index: call.blockIndex, id: call.id!, name: call.name!, input });
      call.ended = true;
      this.ended += 1;
      this.cursor += 1;
    }
    return events;
  }

  private drop(call: CallState, reason: DroppedToolCall["reason"]): void {
    this.dropped.push({ key: call.key, name: call.name, reason });
    call.ended = true;
    this.cursor += 1;
  }
}

/**
 * Strict parse of complete tool arguments: a JSON object, or "" for none. Some models
 * double-encode the object as a JSON string; that is unwrapped once.
 */
export function parseToolArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
    if (typeof value === "string") value = JSON.parse(value);
  } catch {
    return undefined;
  }
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
