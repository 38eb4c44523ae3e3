import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isSameOrInside, realPathOfNearestAncestor } from "../paths/real-path.js";
import { parseShell, type ShellWord } from "./shell-syntax.js";

/**
 * The paths a shell command names that lie outside the workspace roots, so that a read-only
 * command (`cat ~/.ssh/id_rsa`, `grep -r key /etc`) asks like the Read tool does for the same
 * file. A word counts as a path when it is absolute, starts with `~`, or has a `..` segment (an
 * option's value after `=` too), or when it names an existing file or folder, whose real path
 * (symlinks resolved) must then be inside. A word whose location is only known at run time
 * (`$HOME/.ssh`, `"$DIR"/x`) and that names a directory level counts as outside.
 */
export function pathsOutsideRoots(command: string, roots: readonly string[]): string[] {
  const cwd = roots[0]!;
  const words = parseShell(command).commands.flatMap((simple) => [
    ...simple.words.slice(1),
    ...simple.redirections.filter((redirection) => redirection.operator === "<").map((redirection) => redirection.target),
  ]);
  return words.flatMap((word) => {
    const candidate = pathCandidate(word);
    if (candidate.kind === "none") return [];
    if (candidate.kind === "dynamic") return [candidate.text];
    const absolute = path.resolve(cwd, candidate.text.startsWith("~") ? path.join(os.homedir(), candidate.text.slice(1)) : candidate.text);
    // A plain relative word is only a path if it exists; through a symlink it may still lead out.
    if (candidate.kind === "relative" && !existsSync(absolute)) return [];
    const real = realPathOfNearestAncestor(absolute);
    const inside = roots.some((root) => isSameOrInside(absolute, root) && isSameOrInside(real, realPathOfNearestAncestor(root)));
    return inside ? [] : [candidate.text];
  });
}

function pathCandidate(word: ShellWord): { kind: "none" } | { kind: "dynamic" | "named" | "relative"; text: string } {
  const text = word.text.startsWith("-") ? word.text.slice(word.text.indexOf("=") + 1 || word.text.length) : word.text;
  if (text === "" || text === "/dev/null") return { kind: "none" };
  if (word.segments.some((segment) => segment.kind === "parameter" || segment.kind === "substitution")) return text.includes("/") ? { kind: "dynamic", text } : { kind: "none" };
  if (text.startsWith("/") || text.startsWith("~") || text.split("/").includes("..")) return { kind: "named", text };
  return word.text.startsWith("-") ? { kind: "none" } : { kind: "relative", text };
}
