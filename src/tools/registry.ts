import * as z from "zod";
import { createBashTool } from "./bash.js";
import type { ToolDefinition } from "./define-tool.js";
import { createEditTool } from "./edit.js";
import { createGlobTool } from "./glob.js";
import { createGrepTool } from "./grep.js";
import { createLsTool } from "./ls.js";
import { createMonitorTool } from "./monitor.js";
import { createMultiEditTool } from "./multi-edit.js";
import { createNotebookEditTool } from "./notebook-edit.js";
import { createReadTool } from "./read.js";
import { createTaskStopTool } from "./task-stop.js";
import { createTodoWriteTool } from "./todo-write.js";
import { createWebFetchTool } from "./web-fetch.js";
import { createWebSearchTool } from "./web-search.js";
import { createWriteTool } from "./write.js";

/** Each tool's input JSON Schema, converted once (or taken from the build). */
const jsonSchemas = new WeakMap<ToolDefinition, Record<string, unknown>>();

/**
 * The built-in tools, alphabetical as Claude Code 2.1.330 sends its tools to the API (Bash,
 * Edit, Glob, Grep, Read, Write), with agentwire's additions in their alphabetical places, so
 * prompts and cache keys line up with it where the sets overlap.
 */
export function builtinTools(): ToolDefinition[] {
  const tools = [
    createBashTool(),
    createEditTool(),
    createGlobTool(),
    createGrepTool({ backend: "auto" }),
    createLsTool(),
    createMonitorTool(),
    createMultiEditTool(),
    createNotebookEditTool(),
    createReadTool(),
    createTaskStopTool(),
    createTodoWriteTool(),
    createWebFetchTool(),
    createWebSearchTool(),
    createWriteTool(),
  ] as ToolDefinition[];
  // Remembered for these very objects: a tool made from one of them (a compact-profile variant,
  // with a schema of its own) is another object, and is converted.
  for (const tool of tools) {
    const built = BUILT_SCHEMAS?.[tool.name];
    if (built !== undefined) jsonSchemas.set(tool, built);
  }
  return tools;
}

/**
 * The built-in tools' schemas as the build converted them (scripts/build.mjs, from
 * builtin-tool-schemas.ts); undefined where the sources run unbuilt (the tests).
 */
declare const __AGENTWIRE_BUILTIN_TOOL_SCHEMAS__: Record<string, Record<string, unknown>> | undefined;
const BUILT_SCHEMAS = typeof __AGENTWIRE_BUILTIN_TOOL_SCHEMAS__ === "object" ? __AGENTWIRE_BUILTIN_TOOL_SCHEMAS__ : undefined;

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

export function findTool(tools: readonly ToolDefinition[], name: string): ToolDefinition | undefined {
  return tools.find((tool) => tool.name === name);
}
