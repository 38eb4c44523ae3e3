import { z } from "zod";
import { bashTool } from "./bash.js";
import type { ToolDefinition } from "./define-tool.js";
import { readTool } from "./read.js";
import { writeTool } from "./write.js";

/**
 * The built-in tools, in the order Claude Code 2.1.330 sends its tools to the API (alphabetical:
 * Bash, Edit, Glob, Grep, Read, Write), so prompts and cache keys line up with it.
 */
export function builtinTools(): ToolDefinition[] {
  return [bashTool, readTool, writeTool];
}

/**
 * The JSON Schema a provider advertises for a tool's input, in Claude Code's shape: `type:
 * "object"`, described `properties`, `required`, `additionalProperties: false` (from the zod
 * schema's `.strict()`), and the draft 2020-12 `$schema` tag.
 * `io: "input"` describes what the model sends, so a field with a default stays optional.
 */
export function toolInputJsonSchema(tool: ToolDefinition): Record<string, unknown> {
  return z.toJSONSchema(tool.inputSchema, { io: "input" });
}

export function findTool(tools: readonly ToolDefinition[], name: string): ToolDefinition | undefined {
  return tools.find((tool) => tool.name === name);
}
