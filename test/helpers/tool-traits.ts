import type { ToolTraits } from "../../src/conversation/tool-traits.js";
import { builtinTools } from "../../src/tools/registry.js";

/**
 * A tool's traits as its definition declares them, for permission tests that name tools.
 * NotebookEdit is Claude Code's notebook editor: agentwire has none, but a host's tool of that
 * shape must be covered by `Edit(…)` rules like any file editor.
 */
export function traitsOf(toolName: string): ToolTraits {
  if (toolName === "NotebookEdit") return { kind: "edit", pathField: "notebook_path" };
  return builtinTools().find((tool) => tool.name === toolName) ?? { kind: "other" };
}
