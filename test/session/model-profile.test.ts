import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/providers/types.js";
import { compactionThreshold } from "../../src/session/context-keeper.js";
import { MAX_OUTPUT_TOKENS_CAP, modelProfile, providerPerModel, sessionContextFit } from "../../src/session/model-profile.js";

const provider: Provider = { id: "anthropic", async *stream() {} };
const settings = { provider: "anthropic" as const, contextWindow: undefined, skillListingBudget: undefined };

describe("the per-turn model profile", () => {
  it("takes the window, the output reserve and the skill-listing budget from the model it is asked for", () => {
    const opus = modelProfile("claude-opus-5-5", settings, provider);
    const haiku = modelProfile("claude-haiku-4-5", settings, provider);
    expect([opus.contextWindow, haiku.contextWindow]).toEqual([1_000_000, 200_000]);
    expect(haiku.maxOutputTokens).toBe(MAX_OUTPUT_TOKENS_CAP);
    expect([opus.skillListingBudget, haiku.skillListingBudget]).toEqual([40_000, 8_000]);
    expect(compactionThreshold(haiku, 2)).toBe(4_000);
    expect(compactionThreshold(opus, undefined)).toBeGreaterThan(compactionThreshold(haiku, undefined));
  });

  it("keeps what the user set over the model's own figures", () => {
    const profile = modelProfile("claude-haiku-4-5", { ...settings, contextWindow: 8_192, skillListingBudget: 500 }, provider);
    expect([profile.contextWindow, profile.skillListingBudget]).toEqual([8_192, 500]);
  });

  it("makes one provider per model, so the OpenAI API can be chosen by model", () => {
    const made: string[] = [];
    const providerOf = providerPerModel((model) => {
      made.push(model);
      return { ...provider };
    });
    expect(providerOf("gpt-4.1")).toBe(providerOf("gpt-4.1"));
    expect(providerOf("gpt-5.5")).not.toBe(providerOf("gpt-4.1"));
    expect(made).toEqual(["gpt-4.1", "gpt-5.5"]);
  });

  it("checks the fit of requests only for a small window the user gave a local server other than Ollama", () => {
    expect(sessionContextFit({ provider: "llamacpp", contextWindow: 8_192, skillListingBudget: undefined })).toBeTypeOf("function");
    expect(sessionContextFit({ provider: "ollama", contextWindow: 8_192, skillListingBudget: undefined })).toBeUndefined();
    expect(sessionContextFit({ provider: "llamacpp", contextWindow: undefined, skillListingBudget: undefined })).toBeUndefined();
  });
});
