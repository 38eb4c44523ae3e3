/**
 * Choosing a session's tools by name, apart from the tools' code: the CLI names them in its early
 * `system/init` before the implementations load.
 */
import { didYouMean } from "../text/closest-name.js";

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
export function selectTools<Tool extends { name: string }>(
  available: readonly Tool[],
  selection: ToolSelection,
): { tools: Tool[] } | { error: string } {
  let chosen = [...available];
  if (selection.tools !== undefined && !(selection.tools.length === 1 && selection.tools[0] === "default")) {
    const unknown = selection.tools.filter((name) => !available.some((tool) => tool.name === name));
    if (unknown.length > 0) {
      const availableNames = available.map((tool) => tool.name).join(", ");
      const hint = didYouMean(
        unknown,
        available.map((tool) => tool.name),
      );
      return {
        error: `Unknown tool name${unknown.length > 1 ? "s" : ""} in --tools: ${unknown.join(", ")}.${hint} Available tools: ${availableNames}.`,
      };
    }
    chosen = available.filter((tool) => selection.tools!.includes(tool.name));
  }
  return { tools: chosen.filter((tool) => !selection.disallowedToolNames.includes(tool.name)) };
}

/** `--tools "Bash,Read"` or `--tools Bash Read` → ["Bash", "Read"]; `--tools ""` → []. */
export function parseToolNames(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(/[\s,]+/)).filter((name) => name !== "");
}
