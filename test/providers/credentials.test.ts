import { describe, expect, it } from "vitest";
import { credentialFor, isOpenAICompatible, PROVIDER_IDS } from "../../src/providers/credentials.js";
import { apiKeySource } from "../../src/providers/registry.js";

describe("credentialFor: the one place credentials are read", () => {
  it.each([
    ["anthropic", { ANTHROPIC_API_KEY: "k", ANTHROPIC_AUTH_TOKEN: "t" }, { kind: "api-key", value: "k", source: "ANTHROPIC_API_KEY" }],
    ["anthropic", { ANTHROPIC_API_KEY: "", ANTHROPIC_AUTH_TOKEN: "t" }, { kind: "bearer", value: "t", source: "ANTHROPIC_AUTH_TOKEN" }],
    ["anthropic", {}, { kind: "missing", source: "none" }],
    ["gemini", { GOOGLE_API_KEY: "g" }, { kind: "api-key", value: "g", source: "GOOGLE_API_KEY" }],
    ["gemini", {}, { kind: "gcloud", source: "gcloud" }],
    ["openai", {}, { kind: "missing", source: "none" }],
    ["ollama", {}, { kind: "placeholder", source: "none" }],
    ["vllm", { OPENAI_API_KEY: "o" }, { kind: "api-key", value: "o", source: "OPENAI_API_KEY" }],
  ] as const)("%s with %j", (provider, env, expected) => {
    expect(credentialFor(provider, env)).toMatchObject(expected);
    expect(apiKeySource(provider, env)).toBe(expected.source);
  });

  it("names every OpenAI-compatible provider once, and only those", () => {
    expect(PROVIDER_IDS.filter(isOpenAICompatible)).toEqual(["openai", "ollama", "llamacpp", "vllm", "lmstudio", "openai-compatible"]);
  });
});
