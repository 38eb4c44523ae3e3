import { statSync } from "node:fs";
import path from "node:path";
import { isSameOrInside, realPathOfNearestAncestor } from "../../paths/real-path.js";
import { boundedFolderReader } from "./bounded-folder-reads.js";
import { namesOption } from "./lenient-options.js";
import { ownEntry } from "../../validation/own-entry.js";

/**
 * Recursive reads that follow symbolic links found on the way (`grep -R`, `rg -L`, `find -L`,
 * `ls -LR`, `du -L`, `tree -l`, and `diff` on folders, which always follows them): a link inside
 * the workspace that leads out makes such a walk read outside, though every word of the command
 * names something inside. Such a command stays free of questions only when the walk provably
 * stays inside: every link under the folders it walks (and under the folders those links reach)
 * resolves inside the roots.
 */

/** How one program's walk is switched to following links. */
interface LinkFollowing {
  /** Short option letters that turn it on (in any cluster). */
  letters?: string;
  /** Long options that turn it on; GNU tools also take any abbreviation of them. */
  longOptions?: readonly string[];
  /** Whole words that turn it on (find's own syntax). */
  words?: readonly string[];
  /** Follows links whatever the options (diff on folders). */
  always?: boolean;
  /** Without a folder operand, it walks the working directory. */
  walksCwdByDefault: boolean;
}

const GREP: LinkFollowing = { letters: "R", longOptions: ["--dereference-recursive"], walksCwdByDefault: true };

const LINK_FOLLOWING: Record<string, LinkFollowing> = {
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: { letters: "L", longOptions: ["--follow"], walksCwdByDefault: true },
  find: { words: ["-L", "-follow"], walksCwdByDefault: true },
  ls: { letters: "L", longOptions: ["--dereference"], walksCwdByDefault: true },
  du: { letters: "L", longOptions: ["--dereference"], walksCwdByDefault: true },
  tree: { letters: "l", walksCwdByDefault: true },
  diff: { always: true, walksCwdByDefault: false },
};

/** Entries read before the walk counts as unprovable (and the command asks). */
const MAX_ENTRIES = 20_000;

/** Whether `program` with these argument texts follows links while it walks folders. */
export function followsLinksWhileWalking(program: string, texts: readonly string[]): boolean {
  const following = ownEntry(LINK_FOLLOWING, program);
  if (!following) return false;
  if (following.always) return true;
  for (const text of texts) {
    if (text === "--") break;
    if (following.words?.includes(text) || namesOption(text, following)) return true;
  }
  return false;
}

/** Whether the program walks the working directory when no folder is named. */
export function walksCwdByDefault(program: string): boolean {
  return ownEntry(LINK_FOLLOWING, program)?.walksCwdByDefault ?? false;
}

/**
 * The first link under `folders` (absolute) that resolves outside `realRoots`, as a path relative
 * to `cwd` when inside it; "too many entries" when the walk was too large to finish.
 *
 * Contract: never throws; unreadable folders are skipped.
 */
export function linkLeadingOut(folders: readonly string[], realRoots: readonly string[], cwd: string): string | undefined {
  const pending = [...folders];
  const visited = new Set<string>();
  const read = boundedFolderReader(MAX_ENTRIES);
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    const real = realPathOfNearestAncestor(folder);
    if (visited.has(real)) continue;
    visited.add(real);
    if (!realRoots.some((root) => isSameOrInside(real, root))) return shown(cwd, folder);
    const children = read(folder);
    if (children === "too many") return `${shown(cwd, folder)} (too many files to check for links leading out)`;
    for (const child of children ?? []) {
      const childPath = path.join(folder, child.name);
      if (child.isDirectory()) pending.push(childPath);
      else if (child.isSymbolicLink()) {
        const target = realPathOfNearestAncestor(childPath);
        if (!realRoots.some((root) => isSameOrInside(target, root))) return shown(cwd, childPath);
        // A link to a folder inside is walked too: what it holds may lead out.
        if (isDirectory(target)) pending.push(target);
      }
    }
  }
  return undefined;
}

function shown(cwd: string, absolute: string): string {
  return isSameOrInside(absolute, cwd) && absolute !== cwd ? path.relative(cwd, absolute) : absolute;
}

/** Whether `absolute` is a folder (through links); false for anything unreadable. Never throws. */
export function isDirectory(absolute: string): boolean {
  try {
    return statSync(absolute).isDirectory();
  } catch {
    return false;
  }
}
