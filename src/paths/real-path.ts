import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";

/**
 * Dangling symlinks followed before giving up. Linux stops at 40 links in one lookup, so a chain
 * this tool gives up on cannot be opened by anyone either.
 */
const MAX_DANGLING_LINKS = 40;

/**
 * Where the kernel lands for `absolutePath`, symlinks followed — the one place that knows how.
 *
 * - A link is followed before a `..` after it, so `lnk/../x` is the folder above lnk's target,
 *   not `x` beside lnk (`path.resolve` would drop `lnk/..` first). Callers may pass a path joined
 *   but not normalized for that reason.
 * - A link whose target does not exist (dangling) is followed too, read with readlink relative to
 *   the real folder that holds it: writing through `out -> ../outside/new.txt` creates
 *   `../outside/new.txt`, so that, not `out`, is where the write goes.
 * - For a path that does not exist yet (a file about to be written), the nearest existing
 *   ancestor is resolved and the rest appended, so a symlinked parent directory still counts.
 *
 * Contract: never throws; when even the root cannot be resolved, the lexical path comes back.
 */
export function realPathOfNearestAncestor(absolutePath: string): string {
  return resolveLinks(absolutePath, MAX_DANGLING_LINKS);
}

function resolveLinks(absolutePath: string, linksLeft: number): string {
  const segments = absolutePath.split("/");
  // The longest prefix the system's realpath resolves (the native one: it applies `..` after
  // links, where Node's own realpathSync normalizes first), the rest appended as written.
  for (let length = segments.length; length > 1; length--) {
    const prefix = segments.slice(0, length).join("/") || "/";
    const rest = segments.slice(length);
    try {
      return path.resolve(realpathSync.native(prefix), ...rest);
    } catch {
      const target = linksLeft > 0 ? danglingLinkTarget(prefix) : undefined;
      if (target !== undefined) return resolveLinks([target, ...rest].join("/"), linksLeft - 1);
    }
  }
  return path.resolve(absolutePath);
}

/**
 * Where the symlink at `linkPath` points, made absolute against the real folder holding the link
 * (a relative target counts from there, not from the path the link was named by) and left
 * unnormalized for resolveLinks; undefined when `linkPath` is not a symlink.
 */
function danglingLinkTarget(linkPath: string): string | undefined {
  try {
    if (lstatSync(linkPath, { throwIfNoEntry: false })?.isSymbolicLink() !== true) return undefined;
    const target = readlinkSync(linkPath);
    return path.isAbsolute(target) ? target : `${realpathSync.native(path.dirname(linkPath))}/${target}`;
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
