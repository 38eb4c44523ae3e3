import path from "node:path";

/**
 * Turns a path the model gave a tool into an absolute, normalized path.
 *
 * Contract: never throws and never touches the filesystem. Relative paths resolve against the
 * session working directory (not `process.cwd()`, which belongs to the agentwire process);
 * absolute paths are only normalized. No workspace containment is enforced here yet.
 */
export function resolveToolPath(cwd: string, filePath: string): string {
  return path.resolve(cwd, filePath);
}
