import Anthropic from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { scenarioSchema } from "../../src/mock-server/scenario.js";
import { startMockServer, type MockServer } from "../../src/mock-server/server.js";

// The fake search services of the replay server, driven over loopback: the Anthropic stream read
// by the real SDK's accumulator, and SearXNG's JSON API as a plain HTTP client sees it.

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const RESULTS = [
  { title: "Tides", url: "https://tides.example.org/", snippet: "High water at 06:12." },
  { title: "News", url: "https://news.example.com/" },
];

async function serve(turns: unknown[]) {
  const server = await startMockServer({ scenario: scenarioSchema.parse({ turns }) });
  servers.push(server);
  return server;
}

describe("the fake search services", () => {
  it("Anthropic: the SDK assembles server_tool_use, web_search_tool_result (narrowed by blocked_domains) and text", async () => {
    const server = await serve([{ web_search: { query: "tides", results: RESULTS }, text: "Summary." }]);
    const client = new Anthropic({ apiKey: "k", baseURL: server.url, maxRetries: 0 });
    const message = await client.messages
      .stream({
        model: "claude-test",
        max_tokens: 100,
        messages: [{ role: "user", content: "search" }],
        tools: [{ type: "web_search_20250305", name: "web_search", blocked_domains: ["example.com"], max_uses: 8 }],
      })
      .finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(["server_tool_use", "web_search_tool_result", "text"]);
    expect(message.content[0]).toMatchObject({ name: "web_search", input: { query: "tides" } });
    const result = message.content[1] as { tool_use_id: string; content: Array<{ url: string }> };
    expect(result.tool_use_id).toBe((message.content[0] as { id: string }).id);
    expect(result.content.map((hit) => hit.url)).toEqual(["https://tides.example.org/"]);
    expect(message.usage.server_tool_use?.web_search_requests).toBe(1);
  });

  it("SearXNG: answers format=json with its results shape, and refuses other formats with 403 as a default instance does", async () => {
    const server = await serve([{ web_search: { results: RESULTS } }]);
    expect((await fetch(`${server.url}/search?q=tides&format=html`)).status).toBe(403);
    const response = await fetch(`${server.url}/search?q=tides&format=json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      query: "tides",
      number_of_results: 2,
      results: [
        { url: "https://tides.example.org/", title: "Tides", content: "High water at 06:12." },
        { url: "https://news.example.com/", title: "News", content: "" },
      ],
    });
  });
});
