import { parseRuleList, ruleCoversTool } from "../permissions/rules.js";
import type { ToolDefinition } from "../tools/define-tool.js";
import { builtinTools, selectTools } from "../tools/registry.js";
import { SessionSetupError } from "./session-options.js";

/**
 * The built-in tools a session offers: `tools` (`--tools`) picks them by name, and a whole-tool
 * deny rule (`--disallowedTools Bash`, `Edit`) removes every tool it covers, since each call of
 * those would be refused anyway. Throws a `SessionSetupError` naming an unknown tool.
 */
export function chooseBuiltinTools(selection: { tools?: string[] | undefined; disallowedTools: string[] }): ToolDefinition[] {
  const available = builtinTools();
  const wholeToolRules = parseRuleList(selection.disallowedTools).filter((rule) => rule.content === undefined || rule.content === "*");
  const disallowedToolNames = available
    .filter((tool) => wholeToolRules.some((rule) => ruleCoversTool(rule.toolName, { name: tool.name, traits: tool })))
    .map((tool) => tool.name);
  const selected = selectTools(available, { tools: selection.tools, disallowedToolNames });
  if ("error" in selected) throw new SessionSetupError(selected.error, "invalid_arguments");
  return selected.tools;
}
