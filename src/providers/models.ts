/**
 * What agentwire knows about models: aliases, context windows, output limits and list prices.
 * The one place prices live; `result.total_cost_usd` and `modelUsage` are computed from it.
 */
export interface ModelInfo {
  id: string;
  provider: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** The API's dated id of the same model (`claude-opus-4-5-20251101`), where it is not `<id>-<date>`. */
  datedId?: string;
  /** USD per million tokens; absent when no list price is known (cost then counts as 0). */
  price?: ModelPrice;
  /**
   * How the model takes a thinking request: a token budget (`enabled`), or `adaptive` only —
   * Claude 5-generation models reject manual budgets with HTTP 400. Anthropic and Gemini models.
   */
  thinking?: "budget" | "adaptive";
}

export interface TokenPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface ModelPrice extends TokenPrice {
  /** Other rates for a request whose prompt (input, cache reads and writes) is over a size. */
  longPrompt?: TokenPrice & { abovePromptTokens: number };
}

// Anthropic's price tiers, USD per million tokens: cache reads a tenth of input unless a tier says
// otherwise, cache writes (5-minute) a quarter more than input.
const claudeTier = (input: number, output: number, cacheRead = input / 10): TokenPrice => ({
  input,
  output,
  cacheRead,
  cacheWrite: input * 1.25,
});
const TIER_2_10 = claudeTier(2, 10);
const TIER_3_15 = claudeTier(3, 15);
const TIER_5_25 = claudeTier(5, 25);
const TIER_10_50 = claudeTier(10, 50);
const TIER_15_75 = claudeTier(15, 75);

const KNOWN_MODELS: ModelInfo[] = [
  // Claude models: every model Claude Code 2.1.330 prices, with its prices (cache writes at the
  // 5-minute rate), context window and output limit, so a result costs what Claude Code's would;
  // test/providers/claude-code-prices.test.ts compares this table with the one read out of that
  // release (fixtures/claude-code/model-prices.json). Newest generation first.
  claudeModel("claude-opus-5-5", { window: 1_000_000, maxOutput: 128_000, price: claudeTier(4, 20, 0.2), thinking: "adaptive" }),
  claudeModel("claude-sonnet-5-5", { window: 1_000_000, maxOutput: 128_000, price: claudeTier(2, 10, 0.1), thinking: "adaptive" }),
  claudeModel("claude-haiku-5-5", {
    window: 1_000_000,
    maxOutput: 128_000,
    price: { ...claudeTier(0.1, 0.5), longPrompt: { ...claudeTier(0.5, 2.5), abovePromptTokens: 100_000 } },
    thinking: "adaptive",
  }),
  claudeModel("claude-fable-5-2", { window: 1_000_000, maxOutput: 128_000, price: claudeTier(8, 40, 0.2), thinking: "adaptive" }),
  claudeModel("claude-fable-5-1", { window: 1_000_000, maxOutput: 128_000, price: claudeTier(10, 50, 0.25), thinking: "adaptive" }),
  claudeModel("claude-fable-5", { window: 1_000_000, maxOutput: 128_000, price: TIER_10_50, thinking: "adaptive" }),
  claudeModel("claude-mythos-5-2", { window: 1_000_000, maxOutput: 128_000, price: claudeTier(8, 40, 0.2), thinking: "adaptive" }),
  claudeModel("claude-mythos-5-1", { window: 1_000_000, maxOutput: 128_000, price: claudeTier(10, 50, 0.25), thinking: "adaptive" }),
  claudeModel("claude-mythos-5", { window: 1_000_000, maxOutput: 128_000, price: TIER_10_50, thinking: "budget" }),
  claudeModel("claude-opus-5", { window: 1_000_000, maxOutput: 128_000, price: TIER_5_25, thinking: "adaptive" }),
  claudeModel("claude-sonnet-5", { window: 1_000_000, maxOutput: 128_000, price: TIER_2_10, thinking: "adaptive" }),
  claudeModel("claude-opus-4-8", { window: 1_000_000, maxOutput: 128_000, price: TIER_5_25, thinking: "adaptive" }),
  claudeModel("claude-opus-4-7", { window: 1_000_000, maxOutput: 128_000, price: TIER_5_25, thinking: "adaptive" }),
  claudeModel("claude-opus-4-6", { window: 200_000, maxOutput: 128_000, price: TIER_5_25, thinking: "adaptive" }),
  claudeModel("claude-sonnet-4-6", { window: 200_000, maxOutput: 128_000, price: TIER_3_15, thinking: "adaptive" }),
  claudeModel("claude-opus-4-5", { window: 200_000, maxOutput: 64_000, price: TIER_5_25, thinking: "budget" }),
  claudeModel("claude-haiku-4-5", { window: 200_000, maxOutput: 64_000, price: claudeTier(1, 5), thinking: "budget" }),
  claudeModel("claude-sonnet-4-5", { window: 200_000, maxOutput: 64_000, price: TIER_3_15, thinking: "budget" }),
  claudeModel("claude-opus-4-1", { window: 200_000, maxOutput: 32_000, price: TIER_15_75, thinking: "budget" }),
  // The first Claude 4 models: the API's dated ids have no `-0` (claude-opus-4-20250514).
  claudeModel("claude-opus-4-0", {
    window: 200_000,
    maxOutput: 32_000,
    price: TIER_15_75,
    thinking: "budget",
    dated: "claude-opus-4-20250514",
  }),
  claudeModel("claude-sonnet-4-0", {
    window: 200_000,
    maxOutput: 64_000,
    price: TIER_3_15,
    thinking: "budget",
    dated: "claude-sonnet-4-20250514",
  }),
  claudeModel("claude-3-7-sonnet", { window: 200_000, maxOutput: 64_000, price: TIER_3_15, thinking: "budget" }),
  claudeModel("claude-3-5-sonnet", { window: 200_000, maxOutput: 8_192, price: TIER_3_15 }),
  claudeModel("claude-3-5-haiku", { window: 200_000, maxOutput: 8_192, price: claudeTier(0.8, 4) }),
  // OpenAI list prices (standard tier, short context): gpt-5.5 / 5.4 family as published in
  // 2026 (several independent copies of the pricing page agree); the older models at their
  // long-standing rates. OpenAI bills no cache writes; cached input is `cacheRead`. Pro models
  // have no cached-input discount. Prompts over 272K tokens cost more on gpt-5.4+; not modelled.
  openAIModel("gpt-5.5", 1_050_000, 128_000, { input: 5, output: 30, cacheRead: 0.5 }),
  openAIModel("gpt-5.5-pro", 1_050_000, 128_000, { input: 30, output: 180, cacheRead: 30 }),
  openAIModel("gpt-5.4", 1_050_000, 128_000, { input: 2.5, output: 15, cacheRead: 0.25 }),
  openAIModel("gpt-5.4-pro", 1_050_000, 128_000, { input: 30, output: 180, cacheRead: 30 }),
  openAIModel("gpt-5.4-mini", 400_000, 128_000, { input: 0.75, output: 4.5, cacheRead: 0.075 }),
  openAIModel("gpt-5.4-nano", 400_000, 128_000, { input: 0.2, output: 1.25, cacheRead: 0.02 }),
  openAIModel("gpt-5", 400_000, 128_000, { input: 1.25, output: 10, cacheRead: 0.125 }),
  openAIModel("gpt-5-mini", 400_000, 128_000, { input: 0.25, output: 2, cacheRead: 0.025 }),
  openAIModel("gpt-5-nano", 400_000, 128_000, { input: 0.05, output: 0.4, cacheRead: 0.005 }),
  openAIModel("gpt-4.1", 1_047_576, 32_768, { input: 2, output: 8, cacheRead: 0.5 }),
  openAIModel("gpt-4.1-mini", 1_047_576, 32_768, { input: 0.4, output: 1.6, cacheRead: 0.1 }),
  openAIModel("gpt-4.1-nano", 1_047_576, 32_768, { input: 0.1, output: 0.4, cacheRead: 0.025 }),
  openAIModel("gpt-4o", 128_000, 16_384, { input: 2.5, output: 10, cacheRead: 1.25 }),
  openAIModel("gpt-4o-mini", 128_000, 16_384, { input: 0.15, output: 0.6, cacheRead: 0.075 }),
  openAIModel("o3", 200_000, 100_000, { input: 2, output: 8, cacheRead: 0.5 }),
  openAIModel("o4-mini", 200_000, 100_000, { input: 1.1, output: 4.4, cacheRead: 0.275 }),
  // Sizes known, list price not verified: cost counts as 0 with an `unknown_model_price` warning.
  openAIModel("o3-pro", 200_000, 100_000, undefined),
  openAIModel("o1", 200_000, 100_000, undefined),
  // Gemini API list prices (paid tier, prompts up to 200K tokens; longer prompts cost more on
  // the Pro models, not modelled), from Google's pricing page as of late 2026. Cache reads are a
  // tenth of input, Google's rate for implicit-cache hits on Gemini 2.5 and newer; Gemini
  // reports no cache writes. gemini-3.8-flash's price is the one Google announced for 2026; it
  // doubles to $1.50 / $7.50 on 2027-01-01. Gemini 3 models choose their thinking depth
  // (`thinkingLevel`); Gemini 2.5 takes a token budget.
  geminiModel("gemini-3.8-flash", { input: 0.75, output: 3.75 }, "adaptive"),
  geminiModel("gemini-3.7-flash", undefined, "adaptive"),
  geminiModel("gemini-3.6-flash", undefined, "adaptive"),
  geminiModel("gemini-3.5-flash-lite", { input: 0.3, output: 2.5 }, "adaptive"),
  geminiModel("gemini-3.1-pro-preview", { input: 2, output: 12 }, "adaptive"),
  geminiModel("gemini-2.5-pro", { input: 1.25, output: 10 }, "budget"),
  geminiModel("gemini-2.5-flash", { input: 0.3, output: 2.5 }, "budget"),
];

function claudeModel(
  id: string,
  facts: { window: number; maxOutput: number; price: ModelPrice; thinking?: "budget" | "adaptive"; dated?: string },
): ModelInfo {
  return {
    id,
    provider: "anthropic",
    contextWindow: facts.window,
    maxOutputTokens: facts.maxOutput,
    price: facts.price,
    ...(facts.thinking ? { thinking: facts.thinking } : {}),
    ...(facts.dated ? { datedId: facts.dated } : {}),
  };
}

/** Every current Gemini model reads 1,048,576 tokens and writes up to 65,536. */
function geminiModel(id: string, price: { input: number; output: number } | undefined, thinking: "budget" | "adaptive"): ModelInfo {
  return {
    id,
    provider: "gemini",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    ...(price ? { price: { ...price, cacheRead: price.input / 10, cacheWrite: 0 } } : {}),
    thinking,
  };
}

function openAIModel(
  id: string,
  contextWindow: number,
  maxOutputTokens: number,
  price: { input: number; output: number; cacheRead: number } | undefined,
): ModelInfo {
  return { id, provider: "openai", contextWindow, maxOutputTokens, ...(price ? { price: { ...price, cacheWrite: 0 } } : {}) };
}

const ALIASES: Record<string, string> = {
  opus: "claude-opus-5-5",
  sonnet: "claude-sonnet-5-5",
  haiku: "claude-haiku-4-5",
  gemini: "gemini-3.8-flash",
  "gemini-flash": "gemini-3.8-flash",
  "gemini-pro": "gemini-3.1-pro-preview",
};

export const DEFAULT_ANTHROPIC_MODEL = "claude-opus-5-5";

/**
 * The model used when `--model` is absent. Local servers have none: which models exist there is
 * the user's choice, so `--model` is required for them.
 */
const DEFAULT_MODELS: Record<string, string> = {
  anthropic: DEFAULT_ANTHROPIC_MODEL,
  openai: "gpt-5.5",
  gemini: "gemini-3.8-flash",
};

export function defaultModelFor(provider: string): string | undefined {
  return DEFAULT_MODELS[provider];
}

/** Limits used for models agentwire does not know; their cost is reported as 0. */
const UNKNOWN_MODEL_DEFAULTS = { contextWindow: 200_000, maxOutputTokens: 32_000 };

export function resolveModelAlias(model: string): string {
  return ALIASES[model] ?? model;
}

/** The aliases that resolve to exactly this id (dated snapshots have none). */
export function aliasesOf(model: string): string[] {
  return Object.keys(ALIASES).filter((alias) => ALIASES[alias] === model);
}

/** The models this table knows for a provider, in table order (newest first). */
export function knownModels(provider: string): ModelInfo[] {
  return KNOWN_MODELS.filter((model) => model.provider === provider);
}

/**
 * Known info for a model id, matching dated snapshots (`claude-sonnet-4-5-20250929`) by prefix.
 * The longest matching id wins, so `gpt-5-mini-2025-08-07` is gpt-5-mini, not gpt-5.
 */
export function findModel(model: string): ModelInfo | undefined {
  const matches = KNOWN_MODELS.filter((known) => model === known.id || model.startsWith(`${known.id}-`) || model === known.datedId);
  return matches.sort((a, b) => b.id.length - a.id.length)[0];
}

/**
 * The provider that serves a model id: a listed model's, else by family prefix, so Gemini
 * models newer than this table still need no `--provider`.
 */
export function inferProvider(model: string): string | undefined {
  return findModel(model)?.provider ?? (model.startsWith("gemini-") ? "gemini" : undefined);
}

/** Whether `result.total_cost_usd` is exact for this model (a list price is known). */
export function hasKnownPrice(model: string): boolean {
  return findModel(model)?.price !== undefined;
}

export function modelLimits(model: string): { contextWindow: number; maxOutputTokens: number } {
  return findModel(model) ?? UNKNOWN_MODEL_DEFAULTS;
}

/** Unknown models get budgets: older and third-party (proxied) models accept them. */
export function thinkingStyle(model: string): ModelInfo["thinking"] {
  return findModel(model)?.thinking ?? (/^claude-[a-z]+-5|^gemini-[3-9]/.test(model) ? "adaptive" : "budget");
}

export function costUsd(
  model: string,
  tokens: { inputTokens: number; outputTokens: number; cacheReadInputTokens: number; cacheCreationInputTokens: number },
): number {
  const listed = findModel(model)?.price;
  if (!listed) return 0;
  // As the API bills it: a request's whole prompt decides which rates apply to all its tokens.
  const prompt = tokens.inputTokens + tokens.cacheReadInputTokens + tokens.cacheCreationInputTokens;
  const price = listed.longPrompt && prompt > listed.longPrompt.abovePromptTokens ? listed.longPrompt : listed;
  return (
    (tokens.inputTokens * price.input +
      tokens.outputTokens * price.output +
      tokens.cacheReadInputTokens * price.cacheRead +
      tokens.cacheCreationInputTokens * price.cacheWrite) /
    1_000_000
  );
}
