import * as z from "zod/mini";
import "../validation/english-issues.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { didYouMean } from "../text/closest-name.js";
import { TOOL_SEARCH_TRAITS } from "./builtin-tool-traits.js";
import { defineTool, type ToolDefinition } from "./define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";
import { TOOL_SEARCH } from "./builtin-tool-traits.js";
import { parseToolQuery, rankTools } from "./tool-search-ranking.js";
import { withBuiltSchema } from "./tool-json-schema.js";

/** Claude Code's ToolSearch (2.1.330: the same input), described in agentwire's words. */
const description = `Loads deferred tools, so that they can be called.

Some tools are offered by name only: the system prompt lists them, without their parameters. A call to one that was not loaded runs only when its input matches the schema you have not seen; loading it first shows you that schema. This tool finds such tools and loads them; from the next step on, each one it reports is callable like any other tool, with its full parameter schema.

Two ways to ask:
- "select:WebFetch,NotebookEdit" loads exactly these tools, by their listed names.
- Keywords, such as "jupyter notebook cell", load the deferred tools that match them best, up to max_results. A word written "+slack" must be part of the tool's name ("+slack send message").

Prefer select: when you already know which tool you need.`;

export const toolSearchInputSchema = lazySchema(() =>
  z.strictObject({
    query: z.string().check(z.describe('"select:<name>,<name>" to load tools by name, or keywords to search the deferred tools')),
    max_results: z._default(z.int().check(z.positive()), 5).check(z.describe("The most tools a keyword search loads (default: 5)")),
  }),
);

/** The text Claude Code puts beside the tool references, for the model to read. */
const LOADED = "Tool loaded.";

/**
 * The ToolSearch tool of a session: `deferredTools` gives the tools offered by name only, as
 * they are when a call runs (an MCP server may have joined since the session started).
 */
export function createToolSearchTool(deferredTools: () => readonly ToolDefinition[]): ToolDefinition {
  return withBuiltSchema(
    defineTool({
      name: TOOL_SEARCH,
      description,
      get inputSchema() {
        return toolSearchInputSchema();
      },
      ...TOOL_SEARCH_TRAITS,
      async execute(input): Promise<ToolResult> {
        return searchTools(deferredTools(), input.query, input.max_results);
      },
    }) as ToolDefinition,
  );
}

/** ToolSearch's answer for `query` over `tools` (the deferred ones). Pure. */
export function searchTools(tools: readonly ToolDefinition[], query: string, maxResults: number): ToolResult {
  const parsed = parseToolQuery(query);
  const names = tools.map((tool) => tool.name);
  let matches: string[];
  let missing: string[] = [];
  if ("select" in parsed) {
    matches = [...new Set(parsed.select.filter((name) => names.includes(name)))];
    missing = parsed.select.filter((name) => !names.includes(name));
  } else {
    matches = rankTools(tools, parsed.keywords, parsed.requiredInName, maxResults);
  }
  const details = { matches, query, total_deferred_tools: tools.length };
  if (matches.length === 0) return { content: noMatch(query, names, missing), isError: false, details };
  const note = missing.length > 0 ? ` ${notDeferred(missing, names)}` : "";
  return {
    content: matches.map((toolName) => ({ type: "tool_reference" as const, toolName })),
    isError: false,
    details,
    appendedText: `${LOADED}${note}`,
  };
}

function noMatch(query: string, names: readonly string[], missing: readonly string[]): string {
  if (names.length === 0) return "No tools are deferred in this session: every tool is already loaded.";
  if (missing.length > 0) return `No tool was loaded. ${notDeferred(missing, names)}`;
  return `No deferred tool matches "${query}". Try other words, or "select:<name>" with a name from the list of deferred tools.`;
}

function notDeferred(missing: readonly string[], names: readonly string[]): string {
  return `Not among the deferred tools: ${missing.join(", ")} (a tool offered with its schema needs no loading).${didYouMean(missing, names)}`;
}
