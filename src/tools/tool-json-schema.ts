import * as z from "zod";
import type { ToolDefinition } from "./define-tool.js";

/** Each tool's input JSON Schema, converted once (or taken from the build). */
const jsonSchemas = new WeakMap<ToolDefinition, Record<string, unknown>>();

/**
 * The schemas the build converted (scripts/build.mjs, from src/cli/builtin-tool-schemas.ts): the
 * built-in tools' and those of Skill, ToolSearch and Agent, by name; undefined where the sources
 * run unbuilt (the tests).
 */
declare const __AGENTWIRE_BUILTIN_TOOL_SCHEMAS__: Record<string, Record<string, unknown>> | undefined;
const BUILT_SCHEMAS = typeof __AGENTWIRE_BUILTIN_TOOL_SCHEMAS__ === "object" ? __AGENTWIRE_BUILTIN_TOOL_SCHEMAS__ : undefined;

/**
 * Gives `tool` the schema the build converted for its name, so its first request converts
 * nothing. Only for a tool whose schema is its name's fixed one: remembered for this very object,
 * so a tool made from it with a schema of its own (a compact-profile variant) is converted.
 */
export function withBuiltSchema<Tool extends ToolDefinition>(tool: Tool): Tool {
  const built = BUILT_SCHEMAS?.[tool.name];
  if (built !== undefined) jsonSchemas.set(tool, built);
  return tool;
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
