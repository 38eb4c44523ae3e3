import type { ToolDefinition } from "../tools/define-tool.js";
import { toolInputJsonSchema } from "../tools/tool-json-schema.js";

/**
 * `--list-tools` output. Text: one line per tool, its name and the first line of its description.
 * JSON (`--output-format json` or `stream-json`): one line, `[{name, description, input_schema}]`
 * with the exact JSON Schema providers receive, for programs that build UIs or prompts from it.
 */
export function formatToolList(tools: readonly ToolDefinition[], outputFormat: string): string {
  if (outputFormat === "text") {
    const width = Math.max(0, ...tools.map((tool) => tool.name.length));
    return tools.map((tool) => `${tool.name.padEnd(width)}  ${tool.description.split("\n")[0]}\n`).join("");
  }
  const listing = tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: toolInputJsonSchema(tool) }));
  return `${JSON.stringify(listing)}\n`;
}
