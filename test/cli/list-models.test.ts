import { afterEach, describe, expect, it } from "vitest";
import { parseArguments } from "../../src/cli/arguments.js";
import { collectModelListings, formatModelListings, type ModelListing } from "../../src/cli/list-models.js";
import { startMockServer, type MockServer } from "../../src/mock-server/server.js";
import { modelListRequest } from "../../src/providers/model-list-requests.js";

let server: MockServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function replayServer(): Promise<MockServer> {
  server = await startMockServer({ scenario: { turns: [] } });
  return server;
}

/** A fetch that answers every request with this status and JSON body, recording the URLs asked. */
function answering(status: number, body: unknown, asked: string[] = []): typeof fetch {
  return async (url) => {
    asked.push(String(url));
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  };
}

describe("--list-models: which lists", () => {
  it("without keys: the three cloud providers' known models, nothing asked", async () => {
    const asked: string[] = [];
    const listings = await collectModelListings({ env: {}, fetch: answering(200, {}, asked) });
    expect(listings.map((listing) => [listing.provider, listing.source, listing.error])).toEqual([
      ["anthropic", "known", undefined],
      ["openai", "known", undefined],
      ["gemini", "known", undefined],
    ]);
    expect(asked).toEqual([]);
    expect(listings[0]!.models[0]).toEqual({
      id: "claude-opus-5-5",
      aliases: ["opus"],
      context_window: 1_000_000,
      max_output_tokens: 128_000,
      price_per_mtok: { input: 4, output: 20 },
    });
    // A model without a verified price has no price, not a price of 0.
    expect(listings[1]!.models.find((model) => model.id === "o1")).not.toHaveProperty("price_per_mtok");
  });

  it("with keys: each provider's live list from its own endpoint and shape", async () => {
    const { url } = await replayServer();
    const env = {
      ANTHROPIC_API_KEY: "a",
      ANTHROPIC_BASE_URL: url,
      OPENAI_API_KEY: "o",
      OPENAI_BASE_URL: `${url}/v1`,
      GOOGLE_API_KEY: "g",
      GEMINI_BASE_URL: url,
    };
    const listings = await collectModelListings({ env });
    for (const listing of listings) {
      expect(listing).toMatchObject({
        source: "live",
        models: [
          { id: "mock-model", aliases: [] },
          { id: "mock-model-large", aliases: [] },
        ],
      });
    }
    // Gemini reports limits; the others' ids are all the replay server says.
    expect(listings[2]!.models[0]).toEqual({ id: "mock-model", aliases: [], context_window: 1_048_576, max_output_tokens: 65_536 });
    expect(listings[0]!.models[0]).toEqual({ id: "mock-model", aliases: [] });
  });

  it("--provider lists only that one; local servers only when asked, at their address", async () => {
    const { url } = await replayServer();
    expect(await collectModelListings({ env: { OPENAI_API_KEY: "o", OPENAI_BASE_URL: `${url}/v1` }, provider: "openai" })).toEqual([
      {
        provider: "openai",
        source: "live",
        models: [
          { id: "mock-model", aliases: [] },
          { id: "mock-model-large", aliases: [] },
        ],
      },
    ]);
    const ollama = await collectModelListings({ env: {}, provider: "ollama", baseUrl: `${url}/v1` });
    expect(ollama).toMatchObject([{ provider: "ollama", source: "live", models: [{ id: "mock-model" }, { id: "mock-model-large" }] }]);
    const withServer = await collectModelListings({ env: {}, baseUrl: `${url}/v1` });
    expect(withServer.map((listing) => `${listing.provider}:${listing.source}`)).toEqual([
      "anthropic:known",
      "openai:known",
      "gemini:known",
      "openai-compatible:live",
    ]);
  });

  it("each provider is asked where its variables and --base-url say, with its own credentials", () => {
    expect(modelListRequest("anthropic", { ANTHROPIC_AUTH_TOKEN: "t" })).toMatchObject({
      url: "https://api.anthropic.com/v1/models?limit=1000",
      headers: { authorization: "Bearer t", "anthropic-version": "2023-06-01" },
    });
    expect(modelListRequest("gemini", { GEMINI_API_KEY: "g", GOOGLE_API_KEY: "x" }, "http://proxy/")).toMatchObject({
      url: "http://proxy/v1beta/models?pageSize=1000",
      headers: { "x-goog-api-key": "g" },
    });
    expect(modelListRequest("openai", { OPENAI_API_KEY: "o" })?.url).toBe("https://api.openai.com/v1/models");
    expect(modelListRequest("openai", {})).toBeUndefined();
    // Local servers need no key; the placeholder keeps proxies that demand a header happy.
    expect(modelListRequest("vllm", {})).toMatchObject({
      url: "http://127.0.0.1:8000/v1/models",
      headers: { authorization: "Bearer agentwire-no-key" },
    });
  });

  it("reads what each API adds: Anthropic limits without retired models, Gemini chat models only, vLLM's max_model_len", () => {
    const anthropic = modelListRequest("anthropic", { ANTHROPIC_API_KEY: "a" })!;
    expect(
      anthropic.read({
        data: [
          { id: "claude-new", max_input_tokens: 500_000, max_tokens: 64_000, lifecycle: "active" },
          { id: "claude-2", lifecycle: "retired" },
        ],
      }),
    ).toEqual([{ id: "claude-new", contextWindow: 500_000, maxOutputTokens: 64_000 }]);
    const gemini = modelListRequest("gemini", { GEMINI_API_KEY: "g" })!;
    expect(
      gemini.read({
        models: [
          { name: "models/gemini-x", supportedGenerationMethods: ["generateContent"] },
          { name: "models/embedding-001", supportedGenerationMethods: ["embedContent"] },
        ],
      }),
    ).toEqual([{ id: "gemini-x" }]);
    expect(gemini.read({})).toEqual([]);
    expect(modelListRequest("vllm", {})!.read({ data: [{ id: "Qwen/Qwen2.5-7B", max_model_len: 32_768 }] })).toEqual([
      { id: "Qwen/Qwen2.5-7B", contextWindow: 32_768 },
    ]);
    expect(() => anthropic.read({ models: [] })).toThrow("not a model list");
  });
});

describe("--list-models: failures fall back to the known list with a note", () => {
  it("an HTTP error carries the API's message", async () => {
    const listings = await collectModelListings({
      env: { OPENAI_API_KEY: "bad" },
      provider: "openai",
      fetch: answering(401, { error: { message: "Incorrect API key provided." } }),
    });
    expect(listings[0]).toMatchObject({
      provider: "openai",
      source: "known",
      error: "GET https://api.openai.com/v1/models failed: HTTP 401: Incorrect API key provided.",
    });
    expect(listings[0]!.models.map((model) => model.id)).toContain("gpt-5.5");
  });

  it("a refused connection and an unexpected body", async () => {
    const { url } = await replayServer();
    await server!.close();
    const [refused] = await collectModelListings({ env: { ANTHROPIC_API_KEY: "a", ANTHROPIC_BASE_URL: url }, provider: "anthropic" });
    expect(refused).toMatchObject({
      source: "known",
      error: expect.stringMatching(/^GET http:\/\/127\.0\.0\.1:\d+\/v1\/models failed: .*ECONNREFUSED/),
    });
    const [garbled] = await collectModelListings({
      env: { GEMINI_API_KEY: "g" },
      provider: "gemini",
      fetch: answering(200, ["not", "a", "list"]),
    });
    expect(garbled).toMatchObject({ source: "known", error: expect.stringMatching(/failed: the answer is not a model list$/) });
  });

  it("a silent endpoint is given up on after the timeout, while the others answer", async () => {
    const { url } = await replayServer();
    // Never answers, but gives up when the caller's signal does.
    const silentForAnthropic: typeof fetch = (input, init) =>
      String(input).startsWith(url) && !String(input).includes("/v1beta/")
        ? new Promise((_, reject) => init!.signal!.addEventListener("abort", () => reject(init!.signal!.reason)))
        : fetch(input, init);
    const started = Date.now();
    const listings = await collectModelListings({
      env: { ANTHROPIC_API_KEY: "a", ANTHROPIC_BASE_URL: url, GEMINI_API_KEY: "g", GEMINI_BASE_URL: url },
      fetch: silentForAnthropic,
      timeoutMs: 200,
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(listings.map((listing) => [listing.provider, listing.source])).toEqual([
      ["anthropic", "known"],
      ["openai", "known"],
      ["gemini", "live"],
    ]);
    expect(listings[0]!.error).toMatch(/failed: no answer within 0.2 s$/);
  });

  it("openai-compatible without an address says so", async () => {
    const [listing] = await collectModelListings({ env: {}, provider: "openai-compatible" });
    expect(listing).toEqual({ provider: "openai-compatible", source: "known", error: expect.stringContaining("--base-url"), models: [] });
  });
});

describe("--list-models output", () => {
  const listings: ModelListing[] = [
    {
      provider: "anthropic",
      source: "live",
      models: [
        {
          id: "claude-opus-5-5",
          aliases: ["opus"],
          context_window: 1_000_000,
          max_output_tokens: 128_000,
          price_per_mtok: { input: 4, output: 20 },
        },
        {
          id: "claude-haiku-4-5",
          aliases: ["haiku"],
          context_window: 200_000,
          max_output_tokens: 64_000,
          price_per_mtok: { input: 1, output: 5 },
        },
        { id: "claude-custom", aliases: [] },
      ],
    },
    {
      provider: "ollama",
      source: "known",
      error: "GET http://127.0.0.1:11434/v1/models failed: connect ECONNREFUSED 127.0.0.1:11434",
      models: [],
    },
  ];

  it("text: a header per provider, one aligned line per model", () => {
    expect(formatModelListings(listings, "text")).toBe(
      [
        "anthropic (live)",
        "  claude-opus-5-5   opus   1,000,000 context  $4 in / $20 out per Mtok",
        "  claude-haiku-4-5  haiku    200,000 context  $1 in / $5 out per Mtok",
        "  claude-custom",
        "ollama (known; GET http://127.0.0.1:11434/v1/models failed: connect ECONNREFUSED 127.0.0.1:11434)",
        "  (no models)",
        "",
      ].join("\n"),
    );
  });

  it("json and stream-json: exactly one line", () => {
    for (const format of ["json", "stream-json"]) {
      const output = formatModelListings(listings, format);
      expect(output.split("\n")).toHaveLength(2);
      expect(JSON.parse(output)).toEqual({ providers: listings });
    }
  });

  it("the flag needs no model, even for local servers, and keeps --provider and --base-url", async () => {
    expect(
      await parseArguments(
        ["--list-models", "--provider", "vllm", "--base-url", "http://gpu:8000/v1", "--output-format", "json"],
        "/tmp",
        {},
      ),
    ).toEqual({
      kind: "list-models",
      outputFormat: "json",
      provider: "vllm",
      baseUrl: "http://gpu:8000/v1",
    });
    expect(await parseArguments(["--list-models"], "/tmp", {})).toEqual({ kind: "list-models", outputFormat: "text" });
    expect(await parseArguments(["--list-models", "--base-url", "not a url"], "/tmp", {})).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/^--base-url: /),
    });
  });
});
