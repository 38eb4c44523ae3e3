import path from "node:path";
import type { ToolContext } from "../../src/tools/define-tool.js";
import { SessionState } from "../../src/tools/session-state.js";

/**
 * A ToolContext for calling a tool directly: the workspace is `cwd` alone, paths outside it are
 * refused, tool output files go to `<cwd>/.agentwire-output`, and images are accepted.
 */
export function makeToolContext(cwd: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    cwd,
    signal: new AbortController().signal,
    sessionState: new SessionState(),
    workspace: { roots: [cwd], allowOutside: false },
    outputDirectory: path.join(cwd, ".agentwire-output"),
    imageInput: true,
    ...overrides,
  };
}
