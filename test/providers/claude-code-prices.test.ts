import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { costUsd, findModel, knownModels, type TokenPrice } from "../../src/providers/models.js";
import { ROOT } from "../helpers/agentwire.js";

/** Claude Code 2.1.330's model catalog, as scripts/extract-claude-code-prices.mjs read it out of the release. */
interface CatalogPrice {
  input: number;
  output: number;
  cache_write_5m: number;
  cache_read: number;
}
interface CatalogModel extends CatalogPrice {
  id: string;
  first_party_id?: string;
  long_prompt?: CatalogPrice & { above_prompt_tokens: number };
  context_window?: number;
  max_output_tokens: number;
}
const catalog = JSON.parse(readFileSync(join(ROOT, "fixtures", "claude-code", "model-prices.json"), "utf8")) as {
  claude_code_version: string;
  models: CatalogModel[];
};

const asTokenPrice = (price: CatalogPrice): TokenPrice => ({
  input: price.input,
  output: price.output,
  cacheRead: price.cache_read,
  cacheWrite: price.cache_write_5m,
});

describe("the Claude model table against Claude Code 2.1.330's", () => {
  it("is read from that release", () => {
    expect(catalog.claude_code_version).toBe("2.1.330");
    expect(catalog.models.length).toBeGreaterThan(20);
  });

  it("lists the same Claude models", () => {
    expect(
      knownModels("anthropic")
        .map((model) => model.id)
        .sort(),
    ).toEqual(catalog.models.map((model) => model.id).sort());
  });

  it.each(catalog.models.map((model) => [model.id, model] as const))(
    "%s: the same prices under its id and its dated API id, the same limits",
    (_, model) => {
      for (const id of [model.id, model.first_party_id ?? model.id]) {
        const known = findModel(id);
        expect(known?.id, id).toBe(model.id);
        const { longPrompt, ...price } = known!.price!;
        expect(price).toEqual(asTokenPrice(model));
        expect(longPrompt).toEqual(
          model.long_prompt ? { ...asTokenPrice(model.long_prompt), abovePromptTokens: model.long_prompt.above_prompt_tokens } : undefined,
        );
        // Claude Code gives a model without a listed window the standard 200K.
        expect(known!.contextWindow).toBe(model.context_window ?? 200_000);
        expect(known!.maxOutputTokens).toBe(model.max_output_tokens);
      }
    },
  );

  it("costs requests as Claude Code does: Yume's default model, and a long prompt at the long-prompt rates", () => {
    const tokens = { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
    expect(costUsd("claude-opus-4-5-20251101", tokens)).toBeCloseTo(30);
    expect(costUsd("claude-sonnet-4-5-20250929", tokens)).toBeCloseTo(18);
    // claude-haiku-5-5: a prompt over 100K tokens is billed at $0.5 / $2.5 in all; up to it at $0.1 / $0.5.
    expect(costUsd("claude-haiku-5-5", { ...tokens, inputTokens: 100_000 })).toBeCloseTo(0.01 + 0.5);
    expect(costUsd("claude-haiku-5-5", { ...tokens, inputTokens: 50_000, cacheReadInputTokens: 60_000 })).toBeCloseTo(0.025 + 0.003 + 2.5);
  });
});
