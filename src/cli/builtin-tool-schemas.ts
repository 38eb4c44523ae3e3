import * as z from "zod";
import { builtinTools } from "./registry.js";

/**
 * The input JSON Schema of each built-in tool, by name, converted as toolInputJsonSchema would.
 * Run by the build (scripts/build.mjs), which hands the result to the bundle.
 */
export function convertBuiltinToolSchemas(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(builtinTools().map((tool) => [tool.name, z.toJSONSchema(tool.inputSchema, { io: "input" })]));
}
