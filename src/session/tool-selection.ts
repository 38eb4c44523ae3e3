import { parseRuleList, ruleCoversTool } from "../permissions/rules.js";
import type { ToolDefinition } from "../tools/define-tool.js";
import { COMPACT_TOOL_NAMES, compactTool } from "../tools/compact-profile.js";
import { builtinTools, selectTools } from "../tools/registry.js";
import { SessionSetupError } from "./session-options.js";

/**
 * The tools a session offers — the built-ins (compact ones with `--tool-profile compact`) and
 * `extra` (the Skill tool): `tools` (`--tools`) picks them by name, and a whole-tool
 * deny rule (`--disallowedTools Bash`, `Edit`) removes every tool it covers, since each call of
 * those would be refused anyway. Throws a `SessionSetupError` naming an unknown tool.
 */
export function chooseBuiltinTools(selection: { tools?: string[] | undefined; disallowedTools: string[]; toolProfile?: "default" | "compact" }, extra: readonly ToolDefinition[] = []): ToolDefinition[] {
  // Alphabetical, as Claude Code sends its tools (the Skill tool between Read and TodoWrite).
  const builtins = selection.toolProfile === "compact" ? builtinTools().filter((tool) => COMPACT_TOOL_NAMES.includes(tool.name)).map(compactTool) : builtinTools();
  const available = [...builtins, ...extra].sort((a, b) => (a.name < b.name ? -1 : 1));
  const wholeToolRules = parseRuleList(selection.disallowedTools).filter((rule) => rule.content === undefined || rule.content === "*");
  const disallowedToolNames = available
    .filter((tool) => wholeToolRules.some((rule) => ruleCoversTool(rule.toolName, { name: tool.name, traits: tool })))
    .map((tool) => tool.name);
  const selected = selectTools(available, { tools: selection.tools, disallowedToolNames });
  if ("error" in selected) throw new SessionSetupError(selected.error, "invalid_arguments");
  return selected.tools;
}
