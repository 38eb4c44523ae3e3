import * as z from "zod";
import { describe, expect, it } from "vitest";
import { defineTool, type ToolDefinition } from "../../src/tools/define-tool.js";
import { deferredToolNames, MCP_DEFERRAL_THRESHOLD_BYTES } from "../../src/tools/deferral.js";
import { searchTools } from "../../src/tools/tool-search.js";
import { nameWords, parseToolQuery, rankTools } from "../../src/tools/tool-search-ranking.js";

function tool(name: string, description: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return defineTool({
    name,
    description,
    inputSchema: z.object({}),
    kind: "other",
    execute: async () => ({ content: "", isError: false }),
    ...extra,
  }) as ToolDefinition;
}

const TOOLS = [
  tool("NotebookEdit", "Replace, insert or delete a cell of a Jupyter notebook."),
  tool("WebFetch", "Fetch a web page by URL and answer a question about it."),
  tool("mcp__github__create_issue", "Open a new issue in a repository."),
  tool("mcp__github__list_pull_requests", "List the pull requests of a repository."),
  tool("mcp__slack__send_message", "Post a message to a channel."),
  tool("mcp__mail__send_message", "Send an email message."),
];

describe("ToolSearch ranking", () => {
  it("splits names into words: camelCase, mcp__server__tool, snake and kebab case", () => {
    expect(nameWords("NotebookEdit")).toBe("Notebook Edit");
    expect(nameWords("mcp__github__create_issue")).toBe("github create issue");
    expect(nameWords("list-pull-requests")).toBe("list pull requests");
    expect(nameWords("HTTPRequest")).toBe("HTTP Request");
  });

  it("parses select: lists and +required words", () => {
    expect(parseToolQuery("select:WebFetch, NotebookEdit")).toEqual({ select: ["WebFetch", "NotebookEdit"] });
    expect(parseToolQuery("+slack send")).toEqual({ keywords: "slack send", requiredInName: ["slack"] });
  });

  it("ranks by name words and descriptions, best first; a +word must be in the name", () => {
    expect(rankTools(TOOLS, "jupyter notebook cell", [], 5)[0]).toBe("NotebookEdit");
    expect(rankTools(TOOLS, "open an issue on github", [], 5)[0]).toBe("mcp__github__create_issue");
    expect(rankTools(TOOLS, "pull requests", [], 1)).toEqual(["mcp__github__list_pull_requests"]);
    expect(rankTools(TOOLS, "send message", ["slack"], 5)).toEqual(["mcp__slack__send_message"]);
    expect(rankTools(TOOLS, "zebra", [], 5)).toEqual([]);
  });
});

describe("ToolSearch answers", () => {
  it("select: loads exactly the named deferred tools as tool references, with Claude Code's details", () => {
    const result = searchTools(TOOLS, "select:WebFetch,NotebookEdit", 5);
    expect(result.content).toEqual([
      { type: "tool_reference", toolName: "WebFetch" },
      { type: "tool_reference", toolName: "NotebookEdit" },
    ]);
    expect(result.appendedText).toBe("Tool loaded.");
    expect(result.details).toEqual({
      matches: ["WebFetch", "NotebookEdit"],
      query: "select:WebFetch,NotebookEdit",
      total_deferred_tools: 6,
    });
  });

  it("names a selected tool that is not deferred, with a near name, and loads none when nothing matches", () => {
    const partly = searchTools(TOOLS, "select:WebFetch,WebFech2", 5);
    expect(partly.content).toEqual([{ type: "tool_reference", toolName: "WebFetch" }]);
    expect(partly.appendedText).toContain("Not among the deferred tools: WebFech2");
    const none = searchTools(TOOLS, "select:Bash", 5);
    expect(none).toMatchObject({ isError: false, content: expect.stringContaining("No tool was loaded") });
    expect(none.appendedText).toBeUndefined();
    expect(searchTools([], "web", 5).content).toContain("No tools are deferred");
  });

  it("keywords load at most max_results tools", () => {
    expect((searchTools(TOOLS, "message send repository", 2).details as { matches: string[] }).matches).toHaveLength(2);
  });
});

describe("which tools are deferred", () => {
  it("tools with the deferred trait, and all tools of an MCP server past the size threshold", () => {
    const big = Array.from({ length: 12 }, (_, index) => tool(`mcp__big__op_${index}`, "x".repeat(1000)));
    const small = [tool("mcp__small__ping", "Ping.")];
    const deferred = deferredToolNames([tool("Bash", "Run."), tool("WebFetch", "Fetch.", { deferred: true }), ...big, ...small]);
    expect(big.reduce((sum, entry) => sum + entry.description.length, 0)).toBeGreaterThan(MCP_DEFERRAL_THRESHOLD_BYTES);
    expect([...deferred]).toEqual(["WebFetch", ...big.map((entry) => entry.name)]);
  });
});
