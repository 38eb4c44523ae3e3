import type { ToolDefinition } from "../tools/define-tool.js";
import { COMPACT_TOOL_NAMES } from "../tools/builtin-tool-traits.js";
import { compactTool } from "../tools/compact-profile.js";
import { builtinTools } from "../tools/registry.js";
import { createToolSearchTool } from "../tools/tool-search.js";
import { chooseToolNames, type ToolChoice } from "./tool-selection.js";

/**
 * The tools `chooseToolNames` names, built: the built-ins (compact forms if asked; ToolSearch
 * otherwise, finding its tools among `deferredTools`) and `extra`.
 */
export function chooseBuiltinTools(
  selection: ToolChoice,
  extra: readonly ToolDefinition[] = [],
  deferredTools: () => readonly ToolDefinition[] = () => [],
): ToolDefinition[] {
  const names = chooseToolNames(
    selection,
    extra.map((tool) => ({ name: tool.name, traits: tool })),
  );
  const builtins =
    selection.toolProfile === "compact"
      ? builtinTools()
          .filter((tool) => COMPACT_TOOL_NAMES.includes(tool.name))
          .map(compactTool)
      : [...builtinTools(), createToolSearchTool(deferredTools)];
  const byName = new Map([...builtins, ...extra].map((tool) => [tool.name, tool]));
  return names.map((name) => byName.get(name)!);
}
