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
}

const KNOWN_MODELS: ModelInfo[] = [
  // claude-opus-5-5 prices as observed from Claude Code 2.1.330's own cost math ($4 / $20).
  { id: "claude-opus-5-5", provider: "anthropic", contextWindow: 1_000_000, maxOutputTokens: 128_000, price: { input: 4, output: 20, cacheRead: 0.4, cacheWrite: 5 } },
  { id: "claude-sonnet-4-5", provider: "anthropic", contextWindow: 200_000, maxOutputTokens: 64_000, price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
  { id: "claude-haiku-4-5", provider: "anthropic", contextWindow: 200_000, maxOutputTokens: 64_000, price: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 } },
  { id: "claude-opus-4-1", provider: "anthropic", contextWindow: 200_000, maxOutputTokens: 32_000, price: { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 } },
];

const ALIASES: Record<string, string> = {
  opus: "claude-opus-5-5",
  sonnet: "claude-sonnet-4-5",
  haiku: "claude-haiku-4-5",
};

export const DEFAULT_ANTHROPIC_MODEL = "claude-opus-5-5";

/** Limits used for models agentwire does not know; cost is then reported as 0. */
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
