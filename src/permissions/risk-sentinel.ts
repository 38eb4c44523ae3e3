import type { ToolTraits } from "../conversation/tool-traits.js";
import { assessCommand } from "./shell/command-risks.js";
import { assessWrite } from "./protected-paths.js";
import { commandOf } from "./rules.js";

/**
 * Calls that can do lasting damage outside what a task needs: they always go to the host for
 * approval, whatever the mode or rules say, unless permissions were bypassed explicitly. Returns
 * the human reason, which becomes part of the request and of any denial. `roots` is the working
 * directory followed by the --add-dir roots; relative paths start at the first. `agentwireHome`:
 * the agentwire home, protected like ~/.agentwire wherever it is.
 */
export function assessRisk(
  call: { input: Record<string, unknown>; traits: ToolTraits },
  roots: readonly string[],
  agentwireHome?: string,
): string | undefined {
  const command = commandOf(call);
  if (command !== undefined) return assessCommand(command, roots, agentwireHome);
  const filePath = call.traits.pathField === undefined ? undefined : call.input[call.traits.pathField];
  if (call.traits.kind === "edit" && typeof filePath === "string") return assessWrite(filePath, roots[0]!, agentwireHome);
  return undefined;
}
