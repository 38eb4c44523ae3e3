import { describe, expect, it } from "vitest";
import { costUsd, findModel, hasKnownPrice } from "../../src/providers/models.js";
import { chooseOpenAIApi, isOpenAIReasoningModel } from "../../src/providers/openai-settings.js";

describe("OpenAI model facts", () => {
  it("Responses for reasoning models on api.openai.com, Chat elsewhere, --openai-api wins", () => {
    expect(chooseOpenAIApi("gpt-5.5", undefined, undefined)).toBe("responses");
    expect(chooseOpenAIApi("o4-mini", "https://api.openai.com/v1", undefined)).toBe("responses");
    expect(chooseOpenAIApi("gpt-4.1", undefined, undefined)).toBe("chat");
    expect(chooseOpenAIApi("gpt-5.5", "http://127.0.0.1:4000/v1", undefined)).toBe("chat");
    expect(chooseOpenAIApi("gpt-4.1", undefined, "responses")).toBe("responses");
    expect(chooseOpenAIApi("gpt-5", undefined, "chat")).toBe("chat");
  });

  it("reasoning models: o-series and gpt-5+, not the -chat variants", () => {
    expect(["o1", "o3-pro", "o4-mini", "gpt-5", "gpt-5.4-mini", "gpt-6"].every(isOpenAIReasoningModel)).toBe(true);
    expect(["gpt-4.1", "gpt-4o-mini", "gpt-5-chat-latest", "llama3.1"].some(isOpenAIReasoningModel)).toBe(false);
  });

  it("the longest known id wins, so snapshots of mini models get the mini price", () => {
    expect(findModel("gpt-5-mini-2025-08-07")?.id).toBe("gpt-5-mini");
    expect(findModel("gpt-5.5-pro")?.id).toBe("gpt-5.5-pro");
    expect(findModel("gpt-4o-2024-08-06")?.id).toBe("gpt-4o");
    // Cached input is billed at the cache rate, apart from fresh input.
    expect(
      costUsd("gpt-5.5", { inputTokens: 1_000_000, outputTokens: 0, cacheReadInputTokens: 1_000_000, cacheCreationInputTokens: 0 }),
    ).toBeCloseTo(5.5);
    expect(hasKnownPrice("o1")).toBe(false);
    expect(hasKnownPrice("llama3.1")).toBe(false);
  });
});
