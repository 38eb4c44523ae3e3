import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod";
import { describe, expect, it } from "vitest";
import { toolOffer, withToolOffer } from "../../src/agent/tool-offer.js";
import type { Message } from "../../src/conversation/messages.js";
import type { Provider } from "../../src/providers/types.js";
import { defineTool, type ToolDefinition } from "../../src/tools/define-tool.js";
import { MCP_DEFERRAL_THRESHOLD_BYTES, toolDefinitionBytes } from "../../src/tools/deferral.js";
import { builtinTools } from "../../src/tools/registry.js";
import { createToolSearchTool } from "../../src/tools/tool-search.js";
import { parseToolQuery, rankTools } from "../../src/tools/tool-search-ranking.js";

/**
 * The figures of the ToolSearch note, printed on every run (and held to floors, so a change that
 * makes them worse fails): first-request size with 10 MCP servers of 20 tools, before and after
 * deferral, and recall@5 of labelled requests over real MCP tool sets. The tools and requests
 * come from public MCP servers (fixtures/tool-search/SOURCES.md), not from agentwire's authors.
 */
const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "tool-search");
interface FixtureTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}
const load = <T>(file: string): T => JSON.parse(readFileSync(join(FIXTURES, file), "utf8")) as T;
const azure = load<FixtureTool[]>("azure-tools.json");
const github = load<FixtureTool[]>("github-tools.json");
const requests = load<Array<{ query: string; expected: string }>>("azure-requests.json");

function definition(tool: FixtureTool, name = tool.name): ToolDefinition {
  return defineTool({
    name,
    description: tool.description,
    inputSchema: z.record(z.string(), z.unknown()),
    inputJsonSchema: tool.input_schema,
    kind: "other",
    execute: async () => ({ content: "", isError: false }),
  }) as ToolDefinition;
}

const anthropic: Provider = {
  id: "anthropic",
  capabilities: { imagesInToolResults: true, meteredBilling: true, toolReferences: true },
  stream: () => (async function* () {})(),
};

/** The bytes of what a first request spends on tools: the tools array as Anthropic gets it, and the deferred-tool listing. */
function firstRequestToolBytes(tools: readonly ToolDefinition[]): number {
  const history: Message[] = [{ role: "user", content: [{ type: "text", text: "hello" }] }];
  const request = withToolOffer(
    { model: "m", system: "", messages: history, maxOutputTokens: 1, sessionId: "s" },
    toolOffer(tools, history),
    anthropic,
  );
  const tools_ = request.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
  return Buffer.byteLength(JSON.stringify(tools_)) + Buffer.byteLength(request.system);
}

describe("ToolSearch measurements", () => {
  it("first request with 10 MCP servers × 20 tools: before and after deferral", () => {
    // 200 real tools (Azure's first 120, GitHub's first 80), dealt into 10 servers of 20.
    const real = [...azure.slice(0, 120), ...github.slice(0, 80)];
    const mcp = real.map((tool, index) => definition(tool, `mcp__server${Math.floor(index / 20)}__${tool.name.split("__")[2]}`));
    const builtins = builtinTools();
    const before = firstRequestToolBytes([...builtins, ...mcp]);
    const after = firstRequestToolBytes([...builtins, createToolSearchTool(() => []), ...mcp]);
    const builtinsOnly = firstRequestToolBytes(builtins);
    console.log(
      `first request, tools + listing: ${before} B with every schema; ${after} B deferred (${((100 * after) / before).toFixed(1)} %); built-ins alone ${builtinsOnly} B`,
    );
    expect(after).toBeLessThan(before / 4);
  });

  it("which servers pass the deferral threshold", () => {
    const bytes = (tools: FixtureTool[]) => tools.reduce((sum, tool) => sum + toolDefinitionBytes(definition(tool)), 0);
    console.log(
      `server sizes: Azure ${azure.length} tools ${bytes(azure)} B; GitHub ${github.length} tools ${bytes(github)} B; threshold ${MCP_DEFERRAL_THRESHOLD_BYTES} B`,
    );
    expect(bytes(github)).toBeGreaterThan(MCP_DEFERRAL_THRESHOLD_BYTES);
  });

  it("recall of the labelled tool among the top 5 of a keyword search over 266 tools", () => {
    const tools = [...azure, ...github];
    let top1 = 0;
    let top5 = 0;
    for (const request of requests) {
      const parsed = parseToolQuery(request.query);
      if ("select" in parsed) throw new Error("a labelled request is a select:");
      const ranked = rankTools(tools, parsed.keywords, parsed.requiredInName, 5);
      if (ranked[0] === request.expected) top1++;
      if (ranked.includes(request.expected)) top5++;
    }
    const share = (count: number) => `${((100 * count) / requests.length).toFixed(1)} %`;
    console.log(`recall over ${tools.length} tools, ${requests.length} labelled requests: @1 ${share(top1)}, @5 ${share(top5)}`);
    expect(requests.length).toBeGreaterThanOrEqual(30);
    expect(top5 / requests.length).toBeGreaterThan(0.9);
  });
});
