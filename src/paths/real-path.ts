import { realpathSync } from "node:fs";
import path from "node:path";

/**
 * The path with symlinks resolved. For a path that does not exist yet (a file about to be
 * written), the nearest existing ancestor is resolved and the rest appended, so a symlinked
 * parent directory still counts.
 *
 * Contract: never throws; when even the root cannot be resolved, the lexical path comes back.
 */
export function realPathOfNearestAncestor(absolutePath: string): string {
  const missingSegments: string[] = [];
  let current = absolutePath;
  for (;;) {
    try {
      return path.join(realpathSync(current), ...missingSegments.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolutePath;
      missingSegments.push(path.basename(current));
      current = parent;
    }
  }
}

/** Lexical containment of two absolute, normalized paths (a path is inside itself). */
export function isSameOrInside(candidate: string, root: string): boolean {
  const relative = path.relative(root, candidate);
  // `..foo` is a folder inside the root; only `..` itself or `../…` leaves it.
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}
