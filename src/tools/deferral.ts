import type { ToolDefinition } from "./define-tool.js";
import { toolInputJsonSchema } from "./tool-json-schema.js";

/**
 * An MCP server whose tools, described and with their schemas, take more than this many bytes
 * of JSON (about 2,500 tokens) is offered by name only. Below it, loading a schema through
 * ToolSearch costs a model request (slow on a local model) to save less than that request
 * costs, so a few small tools (the test server's 7, about 1.5 KB) go whole; GitHub's 86 tools
 * (64 KB) or 5 of Azure's (2.2 KB each) are deferred. Claude Code defers every MCP tool; figures
 * in test/tools/tool-search-measure.test.ts.
 */
export const MCP_DEFERRAL_THRESHOLD_BYTES = 10_000;

/** The server part of an `mcp__<server>__<tool>` name, or undefined for any other tool. */
export function mcpServerOf(name: string): string | undefined {
  const match = /^mcp__(.+?)__./.exec(name);
  return match?.[1];
}

/** The bytes one tool adds to a request: its name, description and input schema as JSON. */
export function toolDefinitionBytes(tool: ToolDefinition): number {
  // Asked before every request, for every MCP tool: measured once per tool.
  let bytes = definitionBytes.get(tool);
  if (bytes === undefined) {
    bytes = Buffer.byteLength(JSON.stringify({ name: tool.name, description: tool.description, input_schema: toolInputJsonSchema(tool) }));
    definitionBytes.set(tool, bytes);
  }
  return bytes;
}

const definitionBytes = new WeakMap<ToolDefinition, number>();

/**
 * The tools of `tools` that are offered by name only: those with the deferred trait, and every
 * tool of an MCP server whose tools together pass `MCP_DEFERRAL_THRESHOLD_BYTES`. Decided per
 * server, not for all MCP tools together, so a server that joins later never changes how
 * another one is offered mid-conversation. Pure.
 */
export function deferredToolNames(tools: readonly ToolDefinition[]): Set<string> {
  const serverBytes = new Map<string, number>();
  for (const tool of tools) {
    const server = mcpServerOf(tool.name);
    if (server !== undefined) serverBytes.set(server, (serverBytes.get(server) ?? 0) + toolDefinitionBytes(tool));
  }
  const deferred = new Set<string>();
  for (const tool of tools) {
    const server = mcpServerOf(tool.name);
    if (tool.deferred === true || (server !== undefined && serverBytes.get(server)! > MCP_DEFERRAL_THRESHOLD_BYTES))
      deferred.add(tool.name);
  }
  return deferred;
}

/** The tools of `tools` that `deferredToolNames` defers, in their order. */
export function deferredTools(tools: readonly ToolDefinition[]): ToolDefinition[] {
  const deferred = deferredToolNames(tools);
  return tools.filter((tool) => deferred.has(tool.name));
}
