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
import { createWriteTool } from "./write.js";

/**
 * The built-in tools, alphabetical as Claude Code 2.1.330 sends its tools to the API (Bash,
 * Edit, Glob, Grep, Read, Write), with agentwire's additions in their alphabetical places, so
 * prompts and cache keys line up with it where the sets overlap.
 */
export function builtinTools(): ToolDefinition[] {
  return [createBashTool(), createEditTool(), createGlobTool(), createGrepTool({ backend: "auto" }), createLsTool(), createMultiEditTool(), createReadTool(), createTodoWriteTool(), createWriteTool()] as ToolDefinition[];
}

export interface ToolSelection {
  /**
   * `--tools`: undefined = the default set; otherwise exactly these names (`"default"` = the
   * default set, an empty list = no tools).
   */
  tools: string[] | undefined;
  /** Tool names from `--disallowedTools` rules that name a whole tool (no `(…)` specifier). */
  disallowedToolNames: string[];
}

/**
 * The tools a session offers the model, and so the list `system/init.tools` reports.
 * `--disallowedTools Bash` removes Bash, as in Claude Code; a rule with a specifier, such as
 * `Bash(rm:*)`, leaves the tool in the set and is enforced per call by the permission system.
 * `--allowedTools` never changes the set: in Claude Code it pre-approves calls, it does not hide
 * the other tools (Read still works with `--allowedTools Bash`).
 *
 * Contract: never throws; an unknown name in `tools` is reported as `{ error }` naming the
 * available tools (Claude Code ignores such names, but a typo silently dropping a tool is worse).
 */
export function selectTools(available: readonly ToolDefinition[], selection: ToolSelection): { tools: ToolDefinition[] } | { error: string } {
  let chosen = [...available];
  if (selection.tools !== undefined && !(selection.tools.length === 1 && selection.tools[0] === "default")) {
    const unknown = selection.tools.filter((name) => findTool(available, name) === undefined);
    if (unknown.length > 0) {
      const availableNames = available.map((tool) => tool.name).join(", ");
      return { error: `Unknown tool name${unknown.length > 1 ? "s" : ""} in --tools: ${unknown.join(", ")}. Available tools: ${availableNames}.` };
    }
    chosen = available.filter((tool) => selection.tools!.includes(tool.name));
  }
  return { tools: chosen.filter((tool) => !selection.disallowedToolNames.includes(tool.name)) };
}

/** `--tools "Bash,Read"` or `--tools Bash Read` → ["Bash", "Read"]; `--tools ""` → []. */
export function parseToolNames(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(/[\s,]+/)).filter((name) => name !== "");
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
