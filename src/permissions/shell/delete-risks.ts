import os from "node:os";
import path from "node:path";
import { isSameOrInside, realPathOfNearestAncestor } from "../../paths/real-path.js";
import { programName } from "./command-runners.js";
import type { ShellWord } from "./shell-syntax.js";

/**
 * Whether deleting what a word names stays inside the workspace. Anything that cannot be placed
 * — a variable other than `$HOME` and `$PWD`, `~user`, a path relative to a directory `cd` made unknown —
 * counts as possibly outside, and so do patterns that can match `..` (`.*`).
 */

/** Where a shell word points, or undefined when only the running shell knows. */
export function resolveWordPath(word: ShellWord, cwd: string | undefined): string | undefined {
  const [first, ...rest] = word.segments;
  if (rest.some((segment) => segment.kind === "parameter" || segment.kind === "substitution")) return undefined;
  let text = word.text;
  if (first?.kind === "parameter" && first.name === "HOME") text = os.homedir() + rest.map((segment) => segment.text).join("");
  else if (first?.kind === "parameter" && first.name === "PWD" && cwd !== undefined)
    text = cwd + rest.map((segment) => segment.text).join("");
  else if (first?.kind === "parameter" || first?.kind === "substitution") return undefined;
  if (text === "~" || text.startsWith("~/")) text = path.join(os.homedir(), text.slice(1));
  else if (text.startsWith("~")) return undefined;
  if (path.isAbsolute(text)) return path.normalize(text);
  return cwd === undefined ? undefined : path.resolve(cwd, text);
}

/** The working directory after `cd`/`pushd`; undefined when it cannot be known. */
export function directoryAfter(words: ShellWord[], cwd: string | undefined): string | undefined {
  const name = programName(words);
  if (name !== "cd" && name !== "pushd" && name !== "popd") return cwd;
  if (name === "popd") return undefined;
  const operand = words.slice(1).find((word) => !/^-[LPe@]+$/.test(word.text));
  if (operand === undefined) return os.homedir();
  if (operand.text === "-") return undefined;
  return resolveWordPath(operand, cwd);
}

export interface DeleteContext {
  /** Where relative paths start; undefined after `cd -` or `cd $X`. */
  cwd: string | undefined;
  roots: readonly string[];
}

/**
 * The reason deleting what `word` names needs approval, or undefined when it stays inside the
 * workspace. `verb` words the reason ("recursively deletes", "deletes files under");
 * `rootMayBeTarget` is for `find . -delete`, which deletes matches under a root, not the root.
 */
export function assessDeleteTarget(
  word: ShellWord,
  context: DeleteContext,
  options: { rootMayBeTarget: boolean; verb: string },
): string | undefined {
  const target = resolveWordPath(word, context.cwd);
  if (target === undefined)
    return `This command ${options.verb} ${word.text}, a path only known when it runs (it may be outside the workspace).`;
  if (target.split(path.sep).some((segment) => segment.startsWith(".") && /[*?[]/.test(segment))) {
    return `This command ${options.verb} ${word.text}, a pattern that can match "..", outside the workspace.`;
  }
  // A trailing slash makes rm follow a symlinked directory; otherwise only the link itself goes.
  const real = word.text.endsWith("/")
    ? realPathOfNearestAncestor(target)
    : path.join(realPathOfNearestAncestor(path.dirname(target)), path.basename(target));
  const roots = context.roots.map((root) => path.resolve(root));
  const realRoots = roots.map(realPathOfNearestAncestor);
  const root = roots.find((candidate, index) => target === candidate || real === realRoots[index]);
  if (root !== undefined) return options.rootMayBeTarget ? undefined : `This command ${options.verb} ${root}, the whole workspace.`;
  const inside =
    roots.some((candidate) => isSameOrInside(target, candidate)) && realRoots.some((candidate) => isSameOrInside(real, candidate));
  const shown = path.isAbsolute(word.text) && path.normalize(word.text) === target ? word.text : `${word.text} (${target})`;
  if (!inside) return `This command ${options.verb} ${shown}, outside the workspace.`;
  if (!options.rootMayBeTarget && /^\*+$/.test(path.basename(target)) && roots.includes(path.dirname(target))) {
    return `This command ${options.verb} everything in the workspace (${word.text}).`;
  }
  return undefined;
}
