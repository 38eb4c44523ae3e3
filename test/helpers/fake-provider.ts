import type { Message } from "../../src/conversation/messages.js";
import type { Provider, ProviderErrorKind, ProviderEvent, ProviderRequest, StopReason, Usage } from "../../src/providers/types.js";
import { emptyUsage } from "../../src/providers/types.js";

/**
 * One scripted model response. Either a fixed list of events (streamed in order) or a function
 * that produces them for the attempt's abort signal (for responses that must wait on it).
 */
export type ScriptedTurn = ProviderEvent[] | ((signal: AbortSignal) => AsyncIterable<ProviderEvent>);

/**
 * A Provider that answers each request with the next scripted turn and records every request
 * it receives. Requests are deep-copied because the loop extends its history array in place.
 *
 * Contract: like a real provider, `stream` never throws once iterated — except when the script
 * has run out, which is a test bug and fails loudly with the request that had no answer.
 */
export class FakeProvider implements Provider {
  readonly id = "fake";
  readonly requests: ProviderRequest[] = [];
  private readonly turns: ScriptedTurn[];

  constructor(turns: ScriptedTurn[]) {
    this.turns = [...turns];
  }

  /** Scripted turns not consumed yet. */
  get remainingTurns(): number {
    return this.turns.length;
  }

  stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    this.requests.push({ ...request, messages: structuredClone(request.messages) as Message[] });
    const turn = this.turns.shift();
    if (turn === undefined) {
      throw new Error(
        `FakeProvider: no more scripted turns, got request ${JSON.stringify(request.messages.at(-1))} (request #${this.requests.length})`,
      );
    }
    return typeof turn === "function" ? turn(signal) : replay(turn);
  }
}

async function* replay(events: ProviderEvent[]): AsyncIterable<ProviderEvent> {
  for (const event of events) {
    // A macrotask between events, as a network stream would have, so other work can interleave.
    await new Promise((resolve) => setImmediate(resolve));
    yield event;
  }
}

let messageCounter = 0;

export function usage(inputTokens: number, outputTokens: number): Usage {
  return { ...emptyUsage(), inputTokens, outputTokens };
}

export function messageStart(messageId = `msg_${++messageCounter}`, model = "fake-model"): ProviderEvent {
  return { type: "message_start", messageId, model, usage: usage(10, 1) };
}

export function messageEnd(stopReason: StopReason, raw: string | null = stopReason): ProviderEvent {
  return { type: "message_end", stopReason: { normalized: stopReason, raw }, usage: usage(10, 5) };
}

/** The events of one complete text block at `index`, streamed in two deltas when possible. */
export function textBlock(index: number, text: string): ProviderEvent[] {
  const middle = Math.ceil(text.length / 2);
  const deltas = [text.slice(0, middle), text.slice(middle)].filter((part) => part.length > 0);
  return [
    { type: "text_start", index },
    ...deltas.map((part): ProviderEvent => ({ type: "text_delta", index, text: part })),
    { type: "text_end", index, text },
  ];
}

export interface ScriptedToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export function toolCallBlock(index: number, call: ScriptedToolCall): ProviderEvent[] {
  return [
    { type: "tool_call_start", index, id: call.id, name: call.name },
    { type: "tool_call_delta", index, partialJson: JSON.stringify(call.input) },
    { type: "tool_call_end", index, id: call.id, name: call.name, input: call.input },
  ];
}

/** A complete response with one text block, ending the turn. */
export function textTurn(text: string): ProviderEvent[] {
  return [messageStart(), ...textBlock(0, text), messageEnd("end_turn")];
}

/** A complete response that asks for `calls` (after an optional text block). */
export function toolTurn(calls: ScriptedToolCall[], text?: string): ProviderEvent[] {
  const offset = text === undefined ? 0 : 1;
  return [
    messageStart(),
    ...(text === undefined ? [] : textBlock(0, text)),
    ...calls.flatMap((call, position) => toolCallBlock(position + offset, call)),
    messageEnd("tool_use"),
  ];
}

export interface ScriptedError {
  kind: ProviderErrorKind;
  status?: number | null;
  retryable?: boolean;
  retryAfterMs?: number;
  message?: string;
}

/** The terminal `error` event of a failed attempt; `before` is streamed ahead of it. */
export function errorTurn(error: ScriptedError, before: ProviderEvent[] = []): ProviderEvent[] {
  return [
    ...before,
    {
      type: "error",
      kind: error.kind,
      message: error.message ?? `scripted ${error.kind} error`,
      status: error.status ?? null,
      retryable: error.retryable ?? false,
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    },
  ];
}

/**
 * Streams `before` (default: message_start and the start of a text block saying `text`), then
 * waits until the attempt's signal aborts and ends with an `aborted` error, as a real provider
 * does when the user interrupts mid-response. `onWaiting` fires once the stream is parked, so a
 * test knows when to abort.
 */
export function hangingTurn(options: { text?: string; before?: ProviderEvent[]; onWaiting?: () => void } = {}): ScriptedTurn {
  const text = options.text ?? "partial answ";
  const before: ProviderEvent[] = options.before ?? [
    messageStart(),
    { type: "text_start", index: 0 },
    { type: "text_delta", index: 0, text },
  ];
  return async function* (signal: AbortSignal): AsyncIterable<ProviderEvent> {
    yield* replay(before);
    if (!signal.aborted) {
      await new Promise<void>((resolve) => {
        signal.addEventListener("abort", () => resolve(), { once: true });
        options.onWaiting?.();
      });
    }
    yield { type: "error", kind: "aborted", message: "Request was aborted.", status: null, retryable: false };
  };
}
