import { parseToolArguments } from "./tool-call-assembler.js";

/**
 * Tool calls that a local model printed as text instead of sending them as structured calls:
 * servers without a tool-call parser for the model pass its raw output through. Two shapes are
 * recognised, both only for tools the request offered:
 * - the whole message is one JSON call, `{"name": …, "arguments": {…}}` (Llama 3.x writes
 *   `"parameters"`), or a JSON array of such calls;
 * - Hermes/Qwen tags, `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, each closed.
 * Anything else — a cut-off tag, an unknown name, arguments that are not an object — stays text,
 * so a half-printed call can never run.
 */
export interface TextToolCall {
  name: string;
  input: Record<string, unknown>;
}

const OPEN_TAG = "<tool_call>";
const CLOSE_TAG = "</tool_call>";

/**
 * Splits a streamed message into text that can be shown at once and text held back because it
 * may turn out to be a tool call. Feed it every content delta, then call `finish()`.
 *
 * Contract: never throws; `push` results followed by `finish().text` are the whole message
 * except the parts returned as calls (leading whitespace is dropped).
 */
export class TextToolCallScanner {
  private mode: "leading" | "json" | "text" | "tags" = "leading";
  private held = "";

  constructor(private readonly knownTools: ReadonlySet<string>) {}

  /** Returns the text that is certainly not part of a call. */
  push(delta: string): string {
    this.held += delta;
    if (this.mode === "leading") {
      this.held = this.held.trimStart();
      if (this.held === "") return "";
      this.mode = this.held.startsWith("{") || this.held.startsWith("[") ? "json" : "text";
    }
    if (this.mode !== "text") return "";
    const tagAt = this.held.indexOf(OPEN_TAG);
    if (tagAt !== -1) {
      this.mode = "tags";
      return this.release(tagAt);
    }
    // Keep back a tail that could still grow into "<tool_call>".
    return this.release(this.held.length - partialTagLength(this.held));
  }

  /** The held-back text (empty when it was all calls) and the calls found in it. */
  finish(): { text: string; calls: TextToolCall[] } {
    const held = this.held;
    this.held = "";
    const calls =
      this.mode === "json"
        ? parseJsonToolCalls(held, this.knownTools)
        : this.mode === "tags"
          ? parseTaggedToolCalls(held, this.knownTools)
          : undefined;
    if (!calls) return { text: held, calls: [] };
    return { text: this.mode === "tags" ? held.replace(/<tool_call>[\s\S]*?<\/tool_call>/g, "").trim() : "", calls };
  }

  private release(length: number): string {
    const released = this.held.slice(0, length);
    this.held = this.held.slice(length);
    return released;
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of the opening tag. */
function partialTagLength(text: string): number {
  for (let length = Math.min(OPEN_TAG.length - 1, text.length); length > 0; length--) {
    if (OPEN_TAG.startsWith(text.slice(-length))) return length;
  }
  return 0;
}

/** The whole text as a JSON call or array of calls, or undefined when it is not exactly that. */
export function parseJsonToolCalls(text: string, knownTools: ReadonlySet<string>): TextToolCall[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const candidates = Array.isArray(value) ? value : [value];
  if (candidates.length === 0) return undefined;
  const calls = candidates.map((candidate) => toToolCall(candidate, knownTools));
  return calls.every((call): call is TextToolCall => call !== undefined) ? calls : undefined;
}

/**
 * Every `<tool_call>…</tool_call>` in the text, or undefined unless each opened tag is closed
 * and holds a valid call.
 */
export function parseTaggedToolCalls(text: string, knownTools: ReadonlySet<string>): TextToolCall[] | undefined {
  const bodies = [...text.matchAll(/<tool_call>([\s\S]*?)<\/tool_call>/g)].map((match) => match[1]!.trim());
  if (bodies.length === 0 || text.split(OPEN_TAG).length - 1 !== bodies.length || text.split(CLOSE_TAG).length - 1 !== bodies.length)
    return undefined;
  const calls: TextToolCall[] = [];
  for (const body of bodies) {
    const parsed = parseJsonToolCalls(body, knownTools);
    if (!parsed) return undefined;
    calls.push(...parsed);
  }
  return calls;
}

function toToolCall(candidate: unknown, knownTools: ReadonlySet<string>): TextToolCall | undefined {
  if (candidate === null || typeof candidate !== "object" || Array.isArray(candidate)) return undefined;
  const { name, arguments: args, parameters } = candidate as { name?: unknown; arguments?: unknown; parameters?: unknown };
  if (typeof name !== "string" || !knownTools.has(name)) return undefined;
  const raw = args ?? parameters ?? {};
  const input =
    typeof raw === "string"
      ? parseToolArguments(raw)
      : raw !== null && typeof raw === "object" && !Array.isArray(raw)
        ? (raw as Record<string, unknown>)
        : undefined;
  return input ? { name, input } : undefined;
}
