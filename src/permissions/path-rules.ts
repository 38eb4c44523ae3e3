import os from "node:os";
import path from "node:path";
import { realPathOfNearestAncestor } from "../paths/real-path.js";
import { compileGlob, globMatches } from "./path-glob.js";

/**
 * Path rules follow Claude Code: `//abs/path` is absolute, `~/x` is in the home directory,
 * `/x` and `./x` are relative to the working directory; `**` spans directories, `*` does not, and
 * `dir/**` also covers `dir` itself (so `Read(./secret/**)` covers `LS secret`).
 *
 * A call is compared by what it names and by what that really is: the path with symlinks
 * resolved is compared with the rule, and with the rule's own literal directory resolved the same
 * way. A restricting rule (deny, ask) matches when any of these matches, so a symlinked alias
 * cannot slip past it; an allow rule matches only when the resolved path is covered, so a
 * symlink inside an allowed directory cannot lead out of it.
 */
export function pathRuleMatches(pattern: string, filePath: string, cwd: string, effect: "allow" | "restrict"): boolean {
  const lexicalPattern = path.normalize(
    pattern.startsWith("//")
      ? pattern.slice(1)
      : pattern.startsWith("~/")
        ? path.join(os.homedir(), pattern.slice(2))
        : path.join(cwd, pattern.replace(/^\.?\//, "")),
  );
  const patterns = [compileGlob(lexicalPattern), compileGlob(resolveLiteralDirectory(lexicalPattern))];
  const realPath = realPathOfNearestAncestor(path.normalize(filePath));
  const candidates = effect === "allow" ? [realPath] : [path.normalize(filePath), realPath];
  return candidates.some((candidate) => patterns.some((glob) => globMatches(glob, candidate)));
}

/** `/a/link/*.ts` → `<realpath of /a/link>/*.ts`: the part before the first wildcard, resolved. */
function resolveLiteralDirectory(pattern: string): string {
  const wildcard = pattern.search(/[*?]/);
  if (wildcard === -1) return realPathOfNearestAncestor(pattern);
  const directoryEnd = pattern.lastIndexOf("/", wildcard);
  const directory = pattern.slice(0, directoryEnd) || "/";
  return path.join(realPathOfNearestAncestor(directory), pattern.slice(directoryEnd + 1));
}
