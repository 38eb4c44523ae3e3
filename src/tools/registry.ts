import * as z from "zod";
import { createBashTool } from "./bash.js";
import type { ToolDefinition } from "./define-tool.js";
import { createEditTool } from "./edit.js";
import { createGlobTool } from "./glob.js";
import { createGrepTool } from "./grep.js";
import { createLsTool } from "./ls.js";
import { createMultiEditTool } from "./multi-edit.js";
import { createReadTool } from "./read.js";
import { createTodoWriteTool } from "./todo-write.js";
import { createWebSearchTool } from "./web-search.js";
import { createWriteTool } from "./write.js";

/**
 * The built-in tools, alphabetical as Claude Code 2.1.330 sends its tools to the API (Bash,
 * Edit, Glob, Grep, Read, Write), with agentwire's additions in their alphabetical places, so
 * prompts and cache keys line up with it where the sets overlap.
 */
export function builtinTools(): ToolDefinition[] {
  return [
    createBashTool(),
    createEditTool(),
    createGlobTool(),
    createGrepTool({ backend: "auto" }),
    createLsTool(),
    createMultiEditTool(),
    createReadTool(),
    createTodoWriteTool(),
    createWebSearchTool(),
    createWriteTool(),
  ] as ToolDefinition[];
}

/**
 * The JSON Schema a provider advertises for a tool's input, in Claude Code's shape: `type:
 * "object"`, described `properties`, `required`, `additionalProperties: false` (from the zod
 * schema's `.strict()`), and the draft 2020-12 `$schema` tag.
 * `io: "input"` describes what the model sends, so a field with a default stays optional.
 */
export function toolInputJsonSchema(tool: ToolDefinition): Record<string, unknown> {
  // Every model request sends every schema; converting once per tool keeps that off the hot path.
  let schema = jsonSchemas.get(tool);
  if (!schema) {
    schema = tool.inputJsonSchema ?? z.toJSONSchema(tool.inputSchema, { io: "input" });
    jsonSchemas.set(tool, schema);
  }
  return schema;
}

const jsonSchemas = new WeakMap<ToolDefinition, Record<string, unknown>>();

export function findTool(tools: readonly ToolDefinition[], name: string): ToolDefinition | undefined {
  return tools.find((tool) => tool.name === name);
}
