import { readdirSync } from "node:fs";
import type { Dirent } from "node:fs";
import path from "node:path";
import { GitignoreFilter } from "./gitignore-filter.js";

export interface SearchTreeWalk {
  /** Absolute folder to search. */
  root: string;
  /** Keeps a file by its path relative to `root` (posix separators); every file when absent. */
  includesFile?: (relativePath: string) => boolean;
  signal: AbortSignal;
}

/**
 * Streams the regular files under `root`, one folder's files at a time, skipping what git would
 * ignore (see GitignoreFilter) and never following symbolic links, so a link inside the workspace
 * cannot lead the walk outside it. Hidden files are included; `.git` never is. The same files as
 * `walkFiles` with `**\/*`, found with plain synchronous directory reads: on a source tree of
 * small folders that is about four times faster than fast-glob's asynchronous walk, and an
 * ignored folder is never read at all.
 *
 * Contract: unreadable folders are skipped silently; throws the abort reason when `signal` aborts.
 * Each folder is one synchronous read, so the consumer's awaits between batches keep the event
 * loop turning.
 */
export async function* walkSearchTree(walk: SearchTreeWalk): AsyncGenerator<string[]> {
  const filter = await GitignoreFilter.forSearchRoot(walk.root);
  if (filter.isIgnored(walk.root, true)) return;
  // Folders still to read, each with its path relative to the root ("" for the root itself).
  const pending: { absolute: string; relative: string }[] = [{ absolute: walk.root, relative: "" }];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    walk.signal.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = readdirSync(folder.absolute, { withFileTypes: true });
    } catch {
      continue; // unreadable (or gone since it was listed): skipped, as fast-glob's suppressErrors did
    }
    const isIgnored = filter.entryCheck(
      folder.absolute,
      entries.some((entry) => entry.name === ".gitignore"),
    );
    // Plain concatenation: path.join's normalising was a visible share of the walk.
    const prefix = folder.absolute.endsWith(path.sep) ? folder.absolute : folder.absolute + path.sep;
    const files: string[] = [];
    for (const entry of entries) {
      // Symbolic links, sockets and the like are neither: links are not followed, the rest is not text.
      const isDirectory = entry.isDirectory();
      if (!isDirectory && !entry.isFile()) continue;
      if (isIgnored(entry.name, isDirectory)) continue;
      const absolute = prefix + entry.name;
      // The relative path only where it is read: folders, and files when there is a filter.
      if (isDirectory) pending.push({ absolute, relative: childPath(folder.relative, entry.name) });
      else if (walk.includesFile === undefined || walk.includesFile(childPath(folder.relative, entry.name))) files.push(absolute);
    }
    if (files.length > 0) yield files;
  }
}

/** `name` inside the folder at relative path `folder` ("" for the root), posix separators. */
function childPath(folder: string, name: string): string {
  return folder === "" ? name : `${folder}/${name}`;
}
