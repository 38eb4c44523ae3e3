import type { Message } from "../conversation/messages.js";

/**
 * The one contract every model provider implements: turn a neutral request into a stream of
 * normalized events for ONE attempt. Retrying is the caller's job (src/agent/model-call.ts), so
 * that an abandoned attempt can be discarded as a whole and announced as `system/api_retry`.
 *
 * Contract:
 * - `stream` never throws and never rejects once called; every failure, including an abort, is
 *   encoded as the terminal `error` event.
 * - The stream ends with exactly one terminal event, `message_end` or `error`, and it is last.
 *   A stream that ends without a stop reason is an `error` with kind `disconnect`.
 * - Blocks are keyed by `index`; each `*_start` is followed by its deltas and exactly one `*_end`
 *   that carries the assembled value. A tool call whose arguments are not complete JSON is never
 *   reported as a `tool_call_end`.
 */
export interface Provider {
  /** Provider id as shown in `system/init` (e.g. "anthropic"). */
  readonly id: string;
  /** What the wire API can take; absent = none of the optional capabilities. */
  readonly capabilities?: ProviderCapabilities;
  /** The API's base URL, for diagnostics. */
  readonly endpoint?: string;
  stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
  /** The vendor's built-in web search, for the WebSearch tool; absent = none. */
  webSearch?: WebSearchFunction;
}

/** What a provider can do beyond text and tool calls, so callers never compare provider ids. */
export interface ProviderCapabilities {
  /** Tool results may carry images (Read returns pictures as pictures); otherwise they are text only. */
  imagesInToolResults: boolean;
  /** Tokens are billed: a model without a known price is worth a warning (local servers are free). */
  meteredBilling: boolean;
  /**
   * The API loads deferred tools itself from `tool_reference` blocks in tool results (Anthropic's
   * tool search); absent = agentwire sends the loaded tools' schemas and the references as text.
   */
  toolReferences?: boolean;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool input (object). */
  inputSchema: Record<string, unknown>;
  /** A deferred tool that ToolSearch loaded (Anthropic: sent with `defer_loading`). */
  deferLoading?: true;
}

export interface ProviderRequest {
  model: string;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  maxOutputTokens: number;
  /** Extended thinking budget in tokens; undefined = provider default (off). */
  thinkingBudgetTokens?: number;
  /** Session id, for providers that accept a correlation header. */
  sessionId: string;
  /**
   * Some tools are offered by name only and `messages` may hold `tool_reference` blocks; set
   * only for a provider with `capabilities.toolReferences` (the others get neither).
   */
  deferredToolLoading?: true;
}

/** Token counts for one response; absent counts are 0. `raw` keeps the vendor's own object. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  /** Reasoning ("thinking") tokens, already counted in `outputTokens`; reported by OpenAI-style APIs. */
  reasoningTokens?: number;
  raw?: unknown;
}

/** Counts a vendor reported in one event; an absent count was not reported (an explicit 0 was). */
export type UsageUpdate = Partial<
  Pick<Usage, "inputTokens" | "outputTokens" | "cacheReadInputTokens" | "cacheCreationInputTokens" | "reasoningTokens">
> & { raw?: unknown };

/**
 * The one rule for combining usage reports of one response: vendors report cumulative totals
 * for the message (Anthropic's message_delta, OpenAI's final usage chunk), so a count the update
 * carries replaces the current one, even when it is 0, and is never added; a count it omits is
 * kept (proxies often send only output_tokens at the end).
 */
export function mergeUsage(current: Usage, update: UsageUpdate): Usage {
  const reasoningTokens = update.reasoningTokens ?? current.reasoningTokens;
  const raw = update.raw ?? current.raw;
  return {
    inputTokens: update.inputTokens ?? current.inputTokens,
    outputTokens: update.outputTokens ?? current.outputTokens,
    cacheReadInputTokens: update.cacheReadInputTokens ?? current.cacheReadInputTokens,
    cacheCreationInputTokens: update.cacheCreationInputTokens ?? current.cacheCreationInputTokens,
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
    ...(raw === undefined ? {} : { raw }),
  };
}

export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "refusal" | "pause_turn" | "other";

export type ProviderErrorKind =
  /** 401/403: retrying cannot help. */
  | "auth"
  /** 429. */
  | "rate_limit"
  /** 5xx other than 529. */
  | "server"
  /** 529 or an SSE `overloaded_error`. */
  | "overloaded"
  /** The connection dropped or the stream ended without a stop reason. */
  | "disconnect"
  /** Other 4xx: the request itself is wrong. */
  | "invalid_request"
  | "context_length"
  | "aborted"
  | "unknown";

/**
 * Whether another attempt may succeed. Auth, bad requests, context overflow and aborts fail
 * the same way every time, so they are never retried.
 */
export function isRetryable(kind: ProviderErrorKind): boolean {
  return kind === "rate_limit" || kind === "server" || kind === "overloaded" || kind === "disconnect" || kind === "unknown";
}

export type ProviderEvent =
  | { type: "message_start"; messageId: string; model: string; usage: Usage; requestId?: string }
  | { type: "text_start"; index: number }
  | { type: "text_delta"; index: number; text: string }
  | {
      type: "text_end";
      index: number;
      text: string;
      /** Opaque signature some vendors (Gemini) attach to text; sent back unchanged later. */
      signature?: string;
    }
  | { type: "thinking_start"; index: number }
  | { type: "thinking_delta"; index: number; thinking: string }
  | { type: "signature_delta"; index: number; signature: string }
  | { type: "thinking_end"; index: number; thinking: string; signature?: string }
  | { type: "tool_call_start"; index: number; id: string; name: string }
  | { type: "tool_call_delta"; index: number; partialJson: string }
  | {
      type: "tool_call_end";
      index: number;
      id: string;
      name: string;
      input: Record<string, unknown>;
      /** Opaque signature some vendors (Gemini) attach to a call; sent back unchanged later. */
      signature?: string;
    }
  /** `usage`: the message's cumulative totals as the vendor reported them at the end (see mergeUsage). */
  | { type: "message_end"; stopReason: { normalized: StopReason; raw: string | null }; usage: UsageUpdate }
  /**
   * Something the provider could not do as asked, reported instead of silently dropped (e.g. a
   * local model without tool support runs text-only). Not terminal; may come before message_start.
   */
  | { type: "warning"; code: string; message: string }
  | {
      type: "error";
      kind: ProviderErrorKind;
      message: string;
      /** HTTP status, or null when the connection dropped. */
      status: number | null;
      /** Server-requested delay (from `retry-after` / `retry-after-ms`), in ms. */
      retryAfterMs?: number;
      retryable: boolean;
    };

export type ProviderEventOf<T extends ProviderEvent["type"]> = Extract<ProviderEvent, { type: T }>;

/**
 * The stop reason as stdout reports it: Anthropic's vocabulary (Claude Code's dialect) whatever
 * the vendor, so consumers see `end_turn` / `tool_use` / `max_tokens` from every provider; a
 * vendor value with no equivalent is passed through raw.
 */
export function wireStopReason(stopReason: { normalized: StopReason; raw: string | null }): string | null {
  return stopReason.normalized === "other" ? stopReason.raw : stopReason.normalized;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
}

/** What the WebSearch tool asks a search service for. At most one of the domain lists is set. */
export interface WebSearchRequest {
  query: string;
  /** Only results from these domains (and their subdomains). */
  allowedDomains?: readonly string[];
  /** No results from these domains (or their subdomains). */
  blockedDomains?: readonly string[];
}

export interface WebSearchLink {
  title: string;
  url: string;
}

/** One search the service ran, with the links it found: Claude Code's `{tool_use_id, content}` entry. */
export interface WebSearchHits {
  toolUseId: string;
  links: WebSearchLink[];
}

/**
 * What one WebSearch produced: the searches and the answer's text in the order the service
 * gave them, and what it cost. `usage` is absent when no model ran (a search backend).
 */
export interface WebSearchOutcome {
  results: Array<WebSearchHits | string>;
  searchCount: number;
  usage?: { usage: Usage; model: string };
}

/**
 * A model provider's built-in web search: one request beside the conversation that lets the
 * vendor's own search tool run, answered with the links it found and the model's summary.
 *
 * Contract: resolves to undefined when the provider's API has no search of its own (known only
 * once the provider is loaded: the OpenAI family's API depends on the model); rejects with an
 * Error whose message says what failed (HTTP status, vendor message); never returns links
 * outside the request's domain filters.
 */
export type WebSearchFunction = (
  request: WebSearchRequest,
  model: SearchModel,
  signal: AbortSignal,
) => Promise<WebSearchOutcome | undefined>;

/** The model that runs the search request, and the output it may write. */
export interface SearchModel {
  model: string;
  maxOutputTokens: number;
}
