import { describe, expect, it } from "vitest";
import { parseArguments } from "../../src/cli/arguments.js";
import { providerFromApiKeys, providerFromModelName } from "../../src/providers/infer-provider.js";

describe("choosing a provider from the API keys that are set", () => {
  it.each([
    [{ ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o", GEMINI_API_KEY: "g" }, "anthropic"],
    [{ ANTHROPIC_AUTH_TOKEN: "t", OPENAI_API_KEY: "o" }, "anthropic"],
    [{ OPENAI_API_KEY: "o", GEMINI_API_KEY: "g" }, "openai"],
    [{ GEMINI_API_KEY: "g" }, "gemini"],
    [{ GOOGLE_API_KEY: "g" }, "gemini"],
    [{}, "anthropic"],
    // A variable cleared with `KEY=` is not a key.
    [{ ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "o" }, "openai"],
    [{ ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", GOOGLE_API_KEY: "" }, "anthropic"],
  ])("%j → %s", (env, provider) => {
    expect(providerFromApiKeys(env)).toBe(provider);
  });
});

describe("choosing a provider from a model name the table does not know", () => {
  it.each([
    ["claude-future-9", "anthropic"],
    ["gpt-6", "openai"],
    ["o5-mini", "openai"],
    ["gemini-9-ultra", "gemini"],
    ["llama3.1", "ollama"],
    ["llama3.1:8b", "ollama"],
    ["qwen2.5-coder:7b", "ollama"],
    ["meta-llama/Llama-3.1-8B-Instruct", "ollama"],
    ["hf.co/bartowski/some-model-GGUF:Q4_K_M", "ollama"],
    ["deepseek-r1", "ollama"],
    ["gpt-oss:20b", "ollama"],
    ["my-proxy-model", undefined],
  ])("%s → %s", (model, provider) => {
    expect(providerFromModelName(model)).toBe(provider);
  });
});

describe("the provider and model of a run", () => {
  it("a local model name without --provider goes to a local server, not to Anthropic", async () => {
    const parsed = await parseArguments(["-p", "hi", "--model", "llama3.1"], "/tmp", { ANTHROPIC_API_KEY: "a" });
    expect(parsed.kind === "run" && { provider: parsed.config.provider, model: parsed.config.model }).toEqual({
      provider: "ollama",
      model: "llama3.1",
    });
    const proxied = await parseArguments(["-p", "hi", "--model", "my-proxy-model"], "/tmp", { OPENAI_API_KEY: "o" });
    expect(proxied.kind === "run" && proxied.config.provider).toBe("openai");
  });

  async function runConfig(argv: string[], env: NodeJS.ProcessEnv) {
    const parsed = await parseArguments(["-p", "hi", ...argv], "/tmp", env);
    if (parsed.kind !== "run") throw new Error(`expected a run, got ${JSON.stringify(parsed)}`);
    return { provider: parsed.config.provider, model: parsed.config.model };
  }

  it("with neither --provider nor --model, the key picks the provider and its default model", async () => {
    expect(await runConfig([], { OPENAI_API_KEY: "o" })).toEqual({ provider: "openai", model: "gpt-5.5" });
    expect(await runConfig([], { GEMINI_API_KEY: "g" })).toEqual({ provider: "gemini", model: "gemini-3.8-flash" });
    expect(await runConfig([], {})).toEqual({ provider: "anthropic", model: "claude-opus-5-5" });
  });

  it("--model decides over the keys; --provider decides over both", async () => {
    expect(await runConfig(["--model", "sonnet"], { OPENAI_API_KEY: "o" })).toEqual({ provider: "anthropic", model: "claude-sonnet-5-5" });
    expect(await runConfig(["--model", "gpt-4.1"], { ANTHROPIC_API_KEY: "a" })).toEqual({ provider: "openai", model: "gpt-4.1" });
    // An id the table does not know stays with Anthropic, as before keys were consulted.
    expect(await runConfig(["--model", "claude-next"], { OPENAI_API_KEY: "o" })).toEqual({ provider: "anthropic", model: "claude-next" });
    expect(await runConfig(["--provider", "gemini"], { OPENAI_API_KEY: "o" })).toEqual({ provider: "gemini", model: "gemini-3.8-flash" });
  });
});
