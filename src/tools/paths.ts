import path from "node:path";
import { isSameOrInside, realPathOfNearestAncestor } from "../paths/real-path.js";
import { toolError } from "./define-tool.js";
import type { ToolContext } from "./define-tool.js";
import type { ToolResult } from "../conversation/tool-result.js";

/**
 * Turns a path the model gave a tool into an absolute, normalized path.
 *
 * Contract: never throws and never touches the filesystem. Relative paths resolve against the
 * session working directory (not `process.cwd()`, which belongs to the agentwire process);
 * absolute paths are only normalized (`..` is resolved lexically).
 */
export function resolveToolPath(cwd: string, filePath: string): string {
  return path.resolve(cwd, filePath);
}

export type ResolvedToolPath =
  | { path: string; realPath: string; refusal?: undefined }
  | { path?: undefined; realPath?: undefined; refusal: ToolResult };

/**
 * Resolves a tool's path argument and applies the workspace policy: the path must lie inside one
 * of the roots (or the session's output directory) after symlinks are resolved, unless the policy
 * allows paths outside.
 *
 * Contract: never throws. A refused path comes back as an `outside_workspace` error result whose
 * message names the roots and how to widen them. `path` is the lexical path (what the model asked
 * for, made absolute), for messages and details; `realPath` is where it leads through symlinks
 * (dangling ones too), the path that was checked, so a tool that changes the file opens that one.
 */
export async function resolveWorkspacePath(context: ToolContext, rawPath: string): Promise<ResolvedToolPath> {
  const absolutePath = resolveToolPath(context.cwd, rawPath);
  const realPath = realPathOfNearestAncestor(absolutePath);
  if (context.workspace.allowOutside) return { path: absolutePath, realPath };
  const allowedRoots = [...context.workspace.roots, context.outputDirectory];
  if (isRealPathInsideRoots(realPath, allowedRoots)) return { path: absolutePath, realPath };
  const rootList = context.workspace.roots.filter((root) => root !== context.outputDirectory).join(", ");
  return {
    refusal: toolError(
      "outside_workspace",
      `${absolutePath} is outside the directories this session may use (${rootList}). ` +
        "Work with files inside them; if the task needs this path, tell the user to start agentwire with " +
        `--add-dir ${path.dirname(absolutePath)} (or --dangerously-skip-permissions).`,
    ),
  };
}

/**
 * Whether `absolutePath` lies inside (or is) one of `roots`, comparing real paths: a symlink
 * inside a root that points elsewhere is outside, dangling or not. For a path that does not exist
 * yet (a file Write will create), the nearest existing ancestor is resolved and the rest
 * appended, so a symlinked parent directory cannot smuggle a new file out either.
 *
 * Contract: never throws; an unreadable root simply matches nothing.
 */
export function isInsideRoots(absolutePath: string, roots: readonly string[]): boolean {
  return isRealPathInsideRoots(realPathOfNearestAncestor(absolutePath), roots);
}

function isRealPathInsideRoots(realTarget: string, roots: readonly string[]): boolean {
  return roots.some((root) => isSameOrInside(realTarget, realPathOfNearestAncestor(path.resolve(root))));
}

/** How tools show a path: relative to the working directory when inside it (as Claude Code does), else absolute. */
export function displayPath(cwd: string, absolutePath: string): string {
  return isSameOrInside(absolutePath, cwd) && absolutePath !== cwd ? path.relative(cwd, absolutePath) : absolutePath;
}
