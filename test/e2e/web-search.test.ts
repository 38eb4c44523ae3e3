import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ResultEvent } from "../../protocol/events.js";
import {
  createWorkspace,
  expectWellFormedRun,
  PRINT_ARGS,
  PROVIDERS_UNDER_TEST,
  results,
  runAgentwire,
  toolOutcomes,
  type ProviderUnderTest,
  type Workspace,
} from "../helpers/agentwire.js";

// WebSearch through the built binary, against the replay server's fakes of each vendor's search:
// Anthropic's server-side web_search tool, OpenAI Responses' web_search, Gemini's Google Search
// grounding, and a SearXNG instance's JSON API for providers without a search of their own.

const RESULTS = [
  { title: "Tide tables", url: "https://tides.example.org/today", snippet: "High water at 06:12." },
  { title: "Harbour news", url: "https://news.example.com/harbour", snippet: "The harbour reopens." },
  { title: "Tide wiki", url: "https://docs.example.org/wiki/tide", snippet: "A tide is the rise and fall of the sea." },
];

/** The model calls WebSearch, the search request answers, then the model ends the turn. */
function searchScenario(input: Record<string, unknown>, summary = "High water is at 06:12.") {
  return {
    turns: [
      { tool_calls: [{ name: "WebSearch", input }] },
      { web_search: { query: String(input.query), results: RESULTS }, text: summary },
      { text: "done" },
    ],
  };
}

const ALLOW = ["--allowedTools", "WebSearch"];

let workspace: Workspace;
afterEach(async () => {
  await workspace?.cleanup();
});

function modelUsageOf(result: ResultEvent) {
  return result.modelUsage as Record<string, { inputTokens: number; outputTokens: number; webSearchRequests: number }>;
}

describe("WebSearch with a provider's own search", () => {
  const families: Array<{ provider: ProviderUnderTest; path: RegExp }> = [
    { provider: "anthropic", path: /^\/v1\/messages/ },
    { provider: "openai-responses", path: /^\/v1\/responses/ },
    { provider: "gemini", path: /streamGenerateContent/ },
  ];
  for (const { provider, path } of families) {
    it(`${provider}: searches beside the conversation, returns links and summary, counts the search in modelUsage only`, async () => {
      workspace = await createWorkspace("text");
      await workspace.useScenario(searchScenario({ query: "tide times" }));
      const run = await runAgentwire([...PRINT_ARGS, ...ALLOW, ...PROVIDERS_UNDER_TEST[provider].args(workspace.server.url)], {
        workspace,
        provider,
      });
      expectWellFormedRun(run, 1);
      const [outcome] = toolOutcomes(run.events);
      expect(outcome?.isError, outcome?.content).toBe(false);
      expect(outcome!.content).toMatch(/^Web search results for query: "tide times"\n\nLinks: \[/);
      expect(outcome!.content).toContain("High water is at 06:12.");
      expect(outcome!.content).toMatch(/REMINDER: .*markdown links/);
      const details = outcome!.details as {
        query: string;
        results: Array<{ tool_use_id: string; content: Array<{ title: string; url: string }> } | string>;
        searchCount: number;
        durationSeconds: number;
      };
      expect(details.query).toBe("tide times");
      expect(details.searchCount).toBe(1);
      expect(details.durationSeconds).toBeGreaterThanOrEqual(0);
      const hits = details.results.find((entry) => typeof entry !== "string");
      expect(hits).toBeDefined();
      if (typeof hits === "string" || !hits) throw new Error("no hits");
      expect(hits.content).toHaveLength(3);
      expect(details.results.at(-1)).toBe("High water is at 06:12.");
      if (provider !== "gemini") expect(hits.content.map((link) => link.url)).toEqual(RESULTS.map((result) => result.url));
      // Gemini's sources are Google's redirects, titled with the site's domain.
      else expect(hits.content.map((link) => link.title)).toEqual(["tides.example.org", "news.example.com", "docs.example.org"]);

      // Three model requests: the turn, the search beside it, the turn's end.
      const requests = (await (await fetch(`${workspace.server.url}/__requests`)).json()) as Array<{ path: string; body: unknown }>;
      expect(requests.map((request) => path.test(request.path))).toEqual([true, true, true]);
      const searchBody = JSON.stringify(requests[1]!.body);
      if (provider === "anthropic") {
        expect(requests[1]!.body).toMatchObject({
          stream: true,
          tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 8 }],
          tool_choice: { type: "auto" },
          messages: [{ role: "user", content: expect.stringContaining("tide times") }],
        });
      } else if (provider === "openai-responses") {
        expect(requests[1]!.body).toMatchObject({ tools: [{ type: "web_search" }], input: expect.stringContaining("tide times") });
      } else expect(requests[1]!.body).toMatchObject({ tools: [{ googleSearch: {} }] });
      expect(searchBody).not.toContain('"WebSearch"');

      const [result] = results(run.events);
      const usage = modelUsageOf(result!);
      const model = PROVIDERS_UNDER_TEST[provider].model;
      expect(usage[model]?.webSearchRequests).toBe(1);
      // The result's usage counts the conversation's two requests, not the search.
      const sum = (key: "inputTokens" | "outputTokens") => usage[model]![key];
      expect(result!.usage.output_tokens).toBeLessThan(sum("outputTokens"));
      expect(result!.usage.server_tool_use?.web_search_requests ?? 0).toBe(0);
    });
  }

  it("anthropic: allowed_domains goes to the server tool, which keeps only those sites", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(searchScenario({ query: "tide times", allowed_domains: ["example.org"] }));
    const run = await runAgentwire([...PRINT_ARGS, ...ALLOW], { workspace });
    expectWellFormedRun(run, 1);
    const requests = (await (await fetch(`${workspace.server.url}/__requests`)).json()) as Array<{ body: { tools: unknown[] } }>;
    expect(requests[1]!.body.tools).toEqual([
      { type: "web_search_20250305", name: "web_search", allowed_domains: ["example.org"], max_uses: 8 },
    ]);
    const [outcome] = toolOutcomes(run.events);
    expect(outcome!.content).toContain("tides.example.org");
    expect(outcome!.content).not.toContain("news.example.com");
  });

  it("openai-responses: blocked_domains, which the API cannot take, is applied to the links by agentwire", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(searchScenario({ query: "tide times", blocked_domains: ["docs.example.org"] }));
    const provider = "openai-responses";
    const run = await runAgentwire([...PRINT_ARGS, ...ALLOW, ...PROVIDERS_UNDER_TEST[provider].args(workspace.server.url)], {
      workspace,
      provider,
    });
    expectWellFormedRun(run, 1);
    const [outcome] = toolOutcomes(run.events);
    expect(outcome!.content).toContain("tides.example.org");
    expect(outcome!.content).not.toContain("docs.example.org");
  });

  it("gemini: allowed_domains is applied to the grounding sources by their domain", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(searchScenario({ query: "tide times", allowed_domains: ["example.com"] }));
    const provider = "gemini";
    const run = await runAgentwire([...PRINT_ARGS, ...ALLOW, ...PROVIDERS_UNDER_TEST[provider].args(workspace.server.url)], {
      workspace,
      provider,
    });
    const [outcome] = toolOutcomes(run.events);
    const details = outcome!.details as { results: Array<{ content: Array<{ title: string }> } | string> };
    const hits = details.results.find((entry) => typeof entry !== "string") as { content: Array<{ title: string }> };
    expect(hits.content.map((link) => link.title)).toEqual(["news.example.com"]);
  });
});

describe("WebSearch without a provider search", () => {
  it("openai-chat with AGENTWIRE_SEARXNG_URL: searches the SearXNG instance, filters the links, counts no model usage", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(searchScenario({ query: "tide times", blocked_domains: ["example.com"] }));
    const provider = "openai-chat";
    const run = await runAgentwire([...PRINT_ARGS, ...ALLOW, ...PROVIDERS_UNDER_TEST[provider].args(workspace.server.url)], {
      workspace,
      provider,
      env: { AGENTWIRE_SEARXNG_URL: workspace.server.url },
    });
    expectWellFormedRun(run, 1);
    const [outcome] = toolOutcomes(run.events);
    expect(outcome?.isError, outcome?.content).toBe(false);
    expect(outcome!.content).toContain('"url":"https://tides.example.org/today"');
    expect(outcome!.content).toContain("High water at 06:12.");
    expect(outcome!.content).not.toContain("news.example.com");
    const requests = (await (await fetch(`${workspace.server.url}/__requests`)).json()) as Array<{ method: string; path: string }>;
    expect(requests[1]).toMatchObject({ method: "GET", path: "/search?q=tide+times&format=json" });
    const [result] = results(run.events);
    expect(modelUsageOf(result!)["gpt-4.1"]?.webSearchRequests).toBe(0);
  });

  it("a settings file's env can name the SearXNG instance", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(searchScenario({ query: "tide times" }));
    const settings = join(workspace.home, ".claude", "settings.json");
    await import("node:fs/promises").then((fs) => fs.mkdir(join(workspace.home, ".claude"), { recursive: true }));
    await writeFile(settings, JSON.stringify({ env: { AGENTWIRE_SEARXNG_URL: workspace.server.url } }));
    const provider = "ollama";
    const run = await runAgentwire([...PRINT_ARGS, ...ALLOW, ...PROVIDERS_UNDER_TEST[provider].args(workspace.server.url)], {
      workspace,
      provider,
    });
    const [outcome] = toolOutcomes(run.events);
    expect(outcome?.isError, outcome?.content).toBe(false);
    expect(outcome!.content).toContain("Tide tables");
  });

  it("a SearXNG instance that fails: an io_error naming the instance and the HTTP status", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ tool_calls: [{ name: "WebSearch", input: { query: "tide times" } }] }, { text: "done" }] });
    const provider = "ollama";
    const run = await runAgentwire([...PRINT_ARGS, ...ALLOW, ...PROVIDERS_UNDER_TEST[provider].args(workspace.server.url)], {
      workspace,
      provider,
      env: { AGENTWIRE_SEARXNG_URL: `${workspace.server.url}/not-searxng` },
    });
    expectWellFormedRun(run, 1);
    const [outcome] = toolOutcomes(run.events);
    expect(outcome).toMatchObject({ isError: true, code: "io_error" });
    expect(outcome!.content).toContain(`The SearXNG search at ${workspace.server.url} failed: HTTP 404`);
  });

  it("with no backend configured: a clear error that says how to configure one", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ tool_calls: [{ name: "WebSearch", input: { query: "tide times" } }] }, { text: "done" }] });
    const provider = "ollama";
    const run = await runAgentwire([...PRINT_ARGS, ...ALLOW, ...PROVIDERS_UNDER_TEST[provider].args(workspace.server.url)], {
      workspace,
      provider,
    });
    expectWellFormedRun(run, 1);
    const [outcome] = toolOutcomes(run.events);
    expect(outcome).toMatchObject({ isError: true, code: "not_configured" });
    expect(outcome!.content).toContain("AGENTWIRE_SEARXNG_URL");
    expect(outcome!.content).toContain("search.formats");
  });
});

describe("WebSearch permissions and input", () => {
  it("asks like other non-read tools: with nobody to ask and no rule it is denied, nothing is searched", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ tool_calls: [{ name: "WebSearch", input: { query: "tide times" } }] }, { text: "done" }] });
    const run = await runAgentwire(PRINT_ARGS, { workspace });
    expectWellFormedRun(run, 1);
    const [outcome] = toolOutcomes(run.events);
    expect(outcome?.isError).toBe(true);
    const [result] = results(run.events);
    expect(result!.permission_denials.map((denial) => denial.tool_name)).toEqual(["WebSearch"]);
    expect(modelUsageOf(result!)["claude-opus-5-5"]?.webSearchRequests).toBe(0);
  });

  it("refuses allowed_domains together with blocked_domains", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "WebSearch", input: { query: "tide", allowed_domains: ["a.org"], blocked_domains: ["b.org"] } }] },
        { text: "done" },
      ],
    });
    const run = await runAgentwire([...PRINT_ARGS, ...ALLOW], { workspace });
    const [outcome] = toolOutcomes(run.events);
    expect(outcome).toMatchObject({ isError: true, code: "invalid_input" });
  });
});
