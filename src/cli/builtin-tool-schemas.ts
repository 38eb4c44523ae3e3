import { toJSONSchema, type $ZodType } from "zod/v4/core";
import { AGENT_TOOL_NAME, agentInputSchema } from "../session/subagent/agent-tool.js";
import { skillInputSchema } from "../skills/skill-tool.js";
import { TOOL_SEARCH } from "../tools/builtin-tool-traits.js";
import { builtinTools } from "../tools/registry.js";
import { toolSearchInputSchema } from "../tools/tool-search.js";

/**
 * The input JSON Schema of each tool whose schema is fixed by its name, converted as
 * toolInputJsonSchema would: the built-in tools, Skill, ToolSearch and Agent (a single answer
 * offers the last three too). Run by the build (scripts/build.mjs), which hands the result to the
 * bundle (src/tools/tool-json-schema.ts). Converted with zod's core, which both flavours share:
 * this module only reads the schemas, it builds none.
 */
export function convertBuiltinToolSchemas(): Record<string, Record<string, unknown>> {
  const convert = (schema: $ZodType) => toJSONSchema(schema, { io: "input" });
  return {
    ...Object.fromEntries(builtinTools().map((tool) => [tool.name, convert(tool.inputSchema)])),
    Skill: convert(skillInputSchema()),
    [TOOL_SEARCH]: convert(toolSearchInputSchema()),
    [AGENT_TOOL_NAME]: convert(agentInputSchema()),
  };
}
