import * as z from "zod";
import { describe, expect, it } from "vitest";
import { toolOffer, unloadedToolError, withToolOffer } from "../../src/agent/tool-offer.js";
import type { Message } from "../../src/conversation/messages.js";
import type { Provider } from "../../src/providers/types.js";
import { defineTool, type ToolDefinition } from "../../src/tools/define-tool.js";
import { createToolSearchTool } from "../../src/tools/tool-search.js";

function tool(name: string, deferred = false): ToolDefinition {
  return defineTool({
    name,
    description: `${name} does things.`,
    inputSchema: z.object({ value: z.string() }).strict(),
    kind: "other",
    ...(deferred ? { deferred: true } : {}),
    execute: async () => ({ content: "", isError: false }),
  }) as ToolDefinition;
}

const TOOLS = [tool("Bash"), tool("NotebookEdit", true), createToolSearchTool(() => []), tool("WebFetch", true)];
const LOADED: Message[] = [
  { role: "user", content: [{ type: "text", text: "go" }] },
  { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ToolSearch", input: { query: "select:WebFetch" } }] },
  {
    role: "user",
    content: [
      { type: "tool_result", toolUseId: "t1", content: [{ type: "tool_reference", toolName: "WebFetch" }], isError: false },
      { type: "text", text: "Tool loaded." },
    ],
  },
];
const provider = (toolReferences: boolean): Provider => ({
  id: "p",
  capabilities: { imagesInToolResults: false, meteredBilling: false, ...(toolReferences ? { toolReferences } : {}) },
  stream: () => (async function* () {})(),
});
const BASE = { model: "m", system: "Be brief.", messages: LOADED, maxOutputTokens: 100, sessionId: "s" };

describe("the tools a request offers", () => {
  it("defers by name only until a ToolSearch result in the conversation loads a tool", () => {
    const before = toolOffer(TOOLS, LOADED.slice(0, 1));
    expect(before.tools.map((spec) => spec.name)).toEqual(["Bash", "ToolSearch"]);
    expect(before.deferred).toEqual(["NotebookEdit", "WebFetch"]);
    const after = toolOffer(TOOLS, LOADED);
    expect(after.tools.map((spec) => spec.name)).toEqual(["Bash", "ToolSearch", "WebFetch"]);
    expect(after.tools[2]).toMatchObject({ deferLoading: true, inputSchema: { properties: { value: { type: "string" } } } });
  });

  it("without ToolSearch nothing is deferred; with nothing to defer ToolSearch stays out", () => {
    expect(toolOffer([tool("Bash"), tool("WebFetch", true)], []).tools.map((spec) => spec.name)).toEqual(["Bash", "WebFetch"]);
    expect(toolOffer([tool("Bash"), createToolSearchTool(() => [])], []).tools.map((spec) => spec.name)).toEqual(["Bash"]);
  });

  it("a call of a deferred tool not loaded yet is refused, with the select: query to load it", () => {
    expect(unloadedToolError("NotebookEdit", TOOLS, LOADED)?.content).toContain('{"query": "select:NotebookEdit"}');
    expect(unloadedToolError("WebFetch", TOOLS, LOADED)).toBeUndefined();
    expect(unloadedToolError("Bash", TOOLS, LOADED)).toBeUndefined();
  });

  it("a provider with tool references gets them as they are; another gets text and plain tools; both get the listing", () => {
    const offer = toolOffer(TOOLS, LOADED);
    const native = withToolOffer(BASE, offer, provider(true));
    expect(native.deferredToolLoading).toBe(true);
    expect(native.messages).toBe(LOADED);
    expect(native.system).toMatch(/^Be brief\.\n\nThe tools below are deferred.*\nNotebookEdit\nWebFetch$/s);
    const plain = withToolOffer(BASE, offer, provider(false));
    expect(plain).not.toHaveProperty("deferredToolLoading");
    expect(plain.system).toBe(native.system);
    expect(plain.tools.find((spec) => spec.name === "WebFetch")).not.toHaveProperty("deferLoading");
    expect(JSON.stringify(plain.messages)).not.toContain("tool_reference");
    expect(JSON.stringify(plain.messages)).toContain("Loaded WebFetch");
  });
});
