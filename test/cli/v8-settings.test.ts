import { describe, expect, it } from "vitest";
import { McpServersSchema } from "../../src/mcp/mcp-config.js";
import { usesNodeFetch } from "../../src/cli/v8-settings.js";

describe("which runs call Node's fetch (and so get V8's baseline-only WebAssembly)", () => {
  it("Gemini and MCP servers over HTTP do; Anthropic, OpenAI and stdio MCP servers do not", () => {
    const stdio = { command: "mcp-files" };
    const servers = (config: Record<string, unknown>) => McpServersSchema.parse(config);
    expect(usesNodeFetch("gemini", {})).toBe(true);
    expect(usesNodeFetch("anthropic", {})).toBe(false);
    expect(usesNodeFetch("openai", servers({ files: stdio }))).toBe(false);
    expect(usesNodeFetch("openai", servers({ files: stdio, docs: { type: "http", url: "http://127.0.0.1:9/mcp" } }))).toBe(true);
    expect(usesNodeFetch("anthropic", servers({ events: { type: "sse", url: "http://127.0.0.1:9/sse" } }))).toBe(true);
  });
});
