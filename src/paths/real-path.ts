import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";

/**
 * Dangling symlinks followed before giving up. Linux stops at 40 links in one lookup, so a chain
 * this tool gives up on cannot be opened by anyone either.
 */
const MAX_DANGLING_LINKS = 40;

/**
 * The path with symlinks resolved. For a path that does not exist yet (a file about to be
 * written), the nearest existing ancestor is resolved and the rest appended, so a symlinked
 * parent directory still counts. A symlink whose target does not exist is followed too (read with
 * readlink, relative to the folder that holds it): writing through `out -> ../outside/new.txt`
 * creates `../outside/new.txt`, so that, not `out`, is where the write goes.
 *
 * Contract: never throws; when even the root cannot be resolved, the lexical path comes back.
 */
export function realPathOfNearestAncestor(absolutePath: string): string {
  return resolveFollowingDanglingLinks(absolutePath, MAX_DANGLING_LINKS);
}

function resolveFollowingDanglingLinks(absolutePath: string, linksLeft: number): string {
  const missingSegments: string[] = [];
  let current = absolutePath;
  for (;;) {
    try {
      return path.join(realpathSync(current), ...missingSegments);
    } catch {
      const target = linksLeft > 0 ? danglingLinkTarget(current) : undefined;
      if (target !== undefined) return resolveFollowingDanglingLinks(path.join(target, ...missingSegments), linksLeft - 1);
      const parent = path.dirname(current);
      if (parent === current) return absolutePath;
      missingSegments.unshift(path.basename(current));
      current = parent;
    }
  }
}

/**
 * Where the symlink at `linkPath` points, made absolute against the real folder holding the link
 * (a relative target counts from there, not from the path the link was named by); undefined when
 * `linkPath` is not a symlink.
 */
function danglingLinkTarget(linkPath: string): string | undefined {
  try {
    if (lstatSync(linkPath, { throwIfNoEntry: false })?.isSymbolicLink() !== true) return undefined;
    return path.resolve(realpathSync(path.dirname(linkPath)), readlinkSync(linkPath));
  } catch {
    return undefined;
  }
}

/** Lexical containment of two absolute, normalized paths (a path is inside itself). */
export function isSameOrInside(candidate: string, root: string): boolean {
  const relative = path.relative(root, candidate);
  // `..foo` is a folder inside the root; only `..` itself or `../…` leaves it.
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}
