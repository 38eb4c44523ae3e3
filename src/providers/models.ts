/**
 * What agentwire knows about models: aliases, context windows, output limits and list prices.
 * The one place prices live; `result.total_cost_usd` and `modelUsage` are computed from it.
 */
export interface ModelInfo {
  id: string;
  provider: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** USD per million tokens. */
  price: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /**
   * How the model takes a thinking request: a token budget (`enabled`), or `adaptive` only —
   * Claude 5-generation models reject manual budgets with HTTP 400.
   */
  thinking: "budget" | "adaptive";
}

// Prices: Anthropic's published list prices (claude-opus-5-5's also match Claude Code 2.1.330's
// own cost math: $4 / $20); cache writes are the 5-minute rate.
const KNOWN_MODELS: ModelInfo[] = [
  { id: "claude-opus-5-5", provider: "anthropic", contextWindow: 1_000_000, maxOutputTokens: 128_000, price: { input: 4, output: 20, cacheRead: 0.4, cacheWrite: 5 }, thinking: "adaptive" },
  { id: "claude-sonnet-5-5", provider: "anthropic", contextWindow: 1_000_000, maxOutputTokens: 128_000, price: { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 }, thinking: "adaptive" },
  { id: "claude-sonnet-5", provider: "anthropic", contextWindow: 1_000_000, maxOutputTokens: 128_000, price: { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 }, thinking: "adaptive" },
  { id: "claude-opus-5", provider: "anthropic", contextWindow: 1_000_000, maxOutputTokens: 128_000, price: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, thinking: "adaptive" },
  { id: "claude-haiku-4-5", provider: "anthropic", contextWindow: 200_000, maxOutputTokens: 64_000, price: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }, thinking: "budget" },
  { id: "claude-sonnet-4-5", provider: "anthropic", contextWindow: 200_000, maxOutputTokens: 64_000, price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, thinking: "budget" },
];

const ALIASES: Record<string, string> = {
  opus: "claude-opus-5-5",
  sonnet: "claude-sonnet-5-5",
  haiku: "claude-haiku-4-5",
};

export const DEFAULT_ANTHROPIC_MODEL = "claude-opus-5-5";

/** Limits used for models agentwire does not know; their cost is reported as 0. */
const UNKNOWN_MODEL_DEFAULTS = { contextWindow: 200_000, maxOutputTokens: 32_000 };

export function resolveModelAlias(model: string): string {
  return ALIASES[model] ?? model;
}

/** Known info for a model id, matching dated snapshots (`claude-sonnet-4-5-20250929`) by prefix. */
export function findModel(model: string): ModelInfo | undefined {
  return KNOWN_MODELS.find((known) => model === known.id || model.startsWith(`${known.id}-`));
}

export function modelLimits(model: string): { contextWindow: number; maxOutputTokens: number } {
  return findModel(model) ?? UNKNOWN_MODEL_DEFAULTS;
}

/** Unknown models get budgets: older and third-party (proxied) models accept them. */
export function thinkingStyle(model: string): ModelInfo["thinking"] {
  return findModel(model)?.thinking ?? (/^claude-[a-z]+-5/.test(model) ? "adaptive" : "budget");
}

export function costUsd(
  model: string,
  tokens: { inputTokens: number; outputTokens: number; cacheReadInputTokens: number; cacheCreationInputTokens: number },
): number {
  const price = findModel(model)?.price;
  if (!price) return 0;
  return (
    (tokens.inputTokens * price.input +
      tokens.outputTokens * price.output +
      tokens.cacheReadInputTokens * price.cacheRead +
      tokens.cacheCreationInputTokens * price.cacheWrite) /
    1_000_000
  );
}
