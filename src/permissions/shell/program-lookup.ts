import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { isSameOrInside, realPathOfNearestAncestor } from "../../paths/real-path.js";
import { parseShell, type SimpleCommand } from "./shell-syntax.js";

/**
 * Where bash finds a program: the first folder on PATH that holds an executable of that name. A
 * PATH with a relative or empty entry (`.`, `node_modules/.bin`, a leading `:`), or with a folder
 * inside the workspace, lets a repository's own `cat` or `ls` run in place of the system's; a
 * command "only reading" through such a program runs the repository's code. Builtins are not
 * looked up.
 */

/** Bash builtins among the read-only programs: never looked up on PATH. */
const BUILTINS = new Set(["echo", "printf", "pwd", "test", "[", "true", "false", "type"]);

/**
 * The programs of `command` that bash would run from inside `roots`, as paths relative to the
 * first root when inside it. Reads the filesystem. Contract: never throws.
 */
export function programsInsideRoots(command: string, roots: readonly string[], searchPath = process.env.PATH ?? ""): string[] {
  return parseShell(command).commands.flatMap((simple) => {
    const found = programInsideRoots(simple, roots, searchPath);
    return found === undefined ? [] : [found];
  });
}

/** The same for one command of a parsed line. */
export function programInsideRoots(
  command: SimpleCommand,
  roots: readonly string[],
  searchPath = process.env.PATH ?? "",
): string | undefined {
  const name = command.words[0]?.text;
  if (name === undefined || name.includes("/") || BUILTINS.has(name)) return undefined;
  const cwd = roots[0]!;
  for (const entry of searchPath.split(":")) {
    const candidate = path.resolve(cwd, entry === "" ? "." : entry, name);
    if (!isExecutableFile(candidate)) continue;
    const real = realPathOfNearestAncestor(candidate);
    const inside = roots.some((root) => isSameOrInside(real, realPathOfNearestAncestor(root)));
    return inside ? (isSameOrInside(candidate, cwd) ? path.relative(cwd, candidate) : candidate) : undefined;
  }
  return undefined;
}

function isExecutableFile(candidate: string): boolean {
  try {
    accessSync(candidate, constants.X_OK);
    return statSync(candidate).isFile();
  } catch {
    return false;
  }
}
