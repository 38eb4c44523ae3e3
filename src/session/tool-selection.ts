import { parseRuleList, wholeToolRuleCovers } from "../permissions/rule-syntax.js";
import {
  builtinToolDescriptors,
  COMPACT_TOOL_NAMES,
  TOOL_SEARCH,
  TOOL_SEARCH_TRAITS,
  type ToolDescriptor,
} from "../tools/builtin-tool-traits.js";
import { selectTools } from "../tools/select-tools.js";
import { SessionSetupError } from "./session-options.js";

export interface ToolChoice {
  tools?: string[] | undefined;
  disallowedTools: string[];
  toolProfile?: "default" | "compact";
}

/**
 * The names of the tools a session offers, in the order it offers them — the built-ins and
 * ToolSearch (the compact ones alone with `--tool-profile compact`) and `extra` (the Skill tool): `tools` (`--tools`)
 * picks them by name, and a whole-tool deny rule (`--disallowedTools Bash`, `Edit`) removes every
 * tool it covers, since each call of those would be refused anyway. Throws a `SessionSetupError`
 * naming an unknown tool. Works on names and traits only, so the CLI can announce the tools
 * before their code loads; `chooseBuiltinTools` builds the same list.
 */
export function chooseToolNames(selection: ToolChoice, extra: readonly ToolDescriptor[] = []): string[] {
  // The compact profile sends no deferral machinery: its few tools all go whole.
  const builtins =
    selection.toolProfile === "compact"
      ? builtinToolDescriptors().filter((tool) => COMPACT_TOOL_NAMES.includes(tool.name))
      : [...builtinToolDescriptors(), { name: TOOL_SEARCH, traits: TOOL_SEARCH_TRAITS }];
  // Alphabetical, as Claude Code sends its tools (the Skill tool between Read and TodoWrite).
  const available = [...builtins, ...extra].sort((a, b) => (a.name < b.name ? -1 : 1));
  const denials = parseRuleList(selection.disallowedTools);
  const disallowedToolNames = available.filter((tool) => wholeToolRuleCovers(denials, tool)).map((tool) => tool.name);
  const selected = selectTools(available, { tools: selection.tools, disallowedToolNames });
  if ("error" in selected) throw new SessionSetupError(selected.error, "invalid_arguments");
  return selected.tools.map((tool) => tool.name);
}
