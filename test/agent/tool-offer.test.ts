import * as z from "zod";
import { describe, expect, it } from "vitest";
import { toolOffer, withLoadHint, withToolOffer } from "../../src/agent/tool-offer.js";
import { rejectMalformedToolCall } from "../../src/agent/tool-runner.js";
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

  it("a deferred tool called directly with a result that is no error counts as loaded, without a reference", () => {
    const called: Message[] = [
      { role: "user", content: [{ type: "text", text: "go" }] },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "c1", name: "NotebookEdit", input: { value: "x" } },
          { type: "tool_use", id: "c2", name: "WebFetch", input: { url: 1 } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "c1", content: "done", isError: false },
          { type: "tool_result", toolUseId: "c2", content: "InputValidationError", isError: true },
        ],
      },
    ];
    const offer = toolOffer(TOOLS, called);
    expect(offer.tools.map((spec) => spec.name)).toEqual(["Bash", "NotebookEdit", "ToolSearch"]);
    expect(offer.tools[1]).not.toHaveProperty("deferLoading");
    expect(offer.deferred).toEqual(["NotebookEdit", "WebFetch"]);
    // Loaded both ways: the reference decides, so Anthropic's API still sees it as a loaded deferred tool.
    expect(toolOffer(TOOLS, [...LOADED, ...called.slice(1)]).tools.find((spec) => spec.name === "WebFetch")).toMatchObject({
      deferLoading: true,
    });
  });

  it("a malformed call of a deferred tool not loaded yet gets the select: query to load it; other errors stay as they were", () => {
    const call = (name: string, input: Record<string, unknown>) =>
      withLoadHint(rejectMalformedToolCall({ id: "x", name, input }, TOOLS), name, TOOLS, LOADED);
    expect(call("NotebookEdit", { value: "ok" })).toBeUndefined();
    const guessed = call("NotebookEdit", { path: "a.ipynb" });
    expect(guessed).toMatchObject({ isError: true, code: "invalid_input" });
    expect(guessed?.content).toMatch(
      /^<tool_use_error>InputValidationError: NotebookEdit failed[\s\S]*\{"query": "select:NotebookEdit"\}[^\n]*<\/tool_use_error>$/,
    );
    expect(call("WebFetch", { path: "loaded already" })?.content).not.toContain("select:");
    expect(call("Bash", { path: "not deferred" })?.content).not.toContain("select:");
    expect(call("Nope", {})?.code).toBe("unknown_tool");
  });

  it("a provider with tool references gets them as they are; another gets text and plain tools; both get the listing", () => {
    const offer = toolOffer(TOOLS, LOADED);
    const native = withToolOffer(BASE, offer, provider(true));
    expect(native.deferredToolLoading).toBe(true);
    expect(native.messages.slice(1)).toEqual(LOADED.slice(1));
    expect(native.messages[2]).toBe(LOADED[2]);
    const plain = withToolOffer(BASE, offer, provider(false));
    expect(plain).not.toHaveProperty("deferredToolLoading");
    expect(plain.messages[0]).toEqual(native.messages[0]);
    expect(plain.tools.find((spec) => spec.name === "WebFetch")).not.toHaveProperty("deferLoading");
    expect(JSON.stringify(plain.messages)).not.toContain("tool_reference");
    expect(JSON.stringify(plain.messages)).toContain("Loaded WebFetch");
  });

  it("the listing is a reminder after the first user message's content, every request; the system prompt and the history stay as they were", () => {
    const stored = structuredClone(LOADED);
    const request = withToolOffer(BASE, toolOffer(TOOLS, LOADED), provider(false));
    expect(request.system).toBe("Be brief.");
    expect(request.messages[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "go" },
        {
          type: "text",
          text: expect.stringMatching(/^<system-reminder>\nThe tools below are deferred.*\nNotebookEdit\nWebFetch\n<\/system-reminder>$/s),
        },
      ],
    });
    expect(JSON.stringify(request.messages.slice(1))).not.toContain("The tools below are deferred");
    expect(LOADED).toEqual(stored);
    // The first request has only the prompt: the listing goes to the same place, so the next request's start matches it.
    expect(withToolOffer({ ...BASE, messages: LOADED.slice(0, 1) }, toolOffer(TOOLS, []), provider(false)).messages[0]).toEqual(
      request.messages[0],
    );
  });

  it("with nothing deferred the messages go as they are", () => {
    const prompt = LOADED.slice(0, 1);
    const request = withToolOffer({ ...BASE, messages: prompt }, toolOffer([tool("Bash")], prompt), provider(true));
    expect(request.system).toBe("Be brief.");
    expect(request.messages).toBe(prompt);
    expect(request).not.toHaveProperty("deferredToolLoading");
  });
});
