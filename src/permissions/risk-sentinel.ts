import { assessCommand } from "./command-risks.js";
import { assessWrite } from "./protected-paths.js";

const FILE_EDIT_TOOLS = ["Write", "Edit", "MultiEdit", "NotebookEdit"];

/**
 * Calls that can do lasting damage outside what a task needs: they always go to the host for
 * approval, whatever the mode or rules say, unless permissions were bypassed explicitly. Returns
 * the human reason, which becomes part of the request and of any denial. `roots` is the working
 * directory followed by the --add-dir roots; relative paths start at the first.
 */
export function assessRisk(toolName: string, input: Record<string, unknown>, roots: readonly string[]): string | undefined {
  if (toolName === "Bash") return assessCommand(String(input.command ?? ""), roots);
  const filePath = input.file_path ?? input.notebook_path;
  if (FILE_EDIT_TOOLS.includes(toolName) && typeof filePath === "string") return assessWrite(filePath, roots[0]!);
  return undefined;
}
