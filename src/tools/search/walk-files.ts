import type { Stats } from "node:fs";
import path from "node:path";
import { isSameOrInside, realPathOfNearestAncestor } from "../../paths/real-path.js";
import { GitignoreFilter } from "./gitignore-filter.js";

export interface WalkedFile {
  absolutePath: string;
  /** Modification time in ms (0 when stats were not requested). */
  mtimeMs: number;
}

export interface WalkOptions {
  /** Absolute folder to search. */
  root: string;
  /** fast-glob patterns relative to `root`. */
  patterns: string[];
  signal: AbortSignal;
  /** Also fetch each file's mtime (one stat per file). */
  withModificationTime: boolean;
}

/**
 * Streams the regular files under `root` that match `patterns`, skipping what git would ignore
 * (see GitignoreFilter) and never following symbolic links, so a link inside the workspace
 * cannot lead the walk outside it. Hidden files are included; `.git` never is.
 *
 * A pattern is the model's text, and fast-glob starts listing at its fixed folders: `lnk/*`
 * lists where the link `lnk` leads, `../x/*` the folder beside the root, `{lnk,a}/*` both. So
 * every file whose folder does not really lie under `root` (symlinks resolved) is dropped: what
 * this yields is under `root`, whatever the pattern says.
 *
 * Contract: unreadable folders are skipped silently (fast-glob `suppressErrors`); throws the
 * abort reason when `signal` aborts. fast-glob is loaded on first use.
 */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<WalkedFile> {
  const { default: fastGlob } = await import("fast-glob");
  const filter = await GitignoreFilter.forSearchRoot(options.root);
  const realRoot = realPathOfNearestAncestor(path.resolve(options.root));
  // One realpath per folder, not per file.
  const folderIsUnderRoot = new Map<string, boolean>();
  const isUnderRoot = (folder: string): boolean => {
    let under = folderIsUnderRoot.get(folder);
    if (under === undefined) folderIsUnderRoot.set(folder, (under = isSameOrInside(realPathOfNearestAncestor(folder), realRoot)));
    return under;
  };
  const stream = fastGlob.stream(options.patterns, {
    cwd: options.root,
    absolute: true,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    suppressErrors: true,
    // Many directory reads and stats in flight hide I/O latency (fast-glob's default is the CPU count).
    concurrency: 64,
    stats: options.withModificationTime,
    objectMode: true,
    ignore: filter.pruningPatterns(options.root),
  });
  try {
    for await (const entry of stream as AsyncIterable<{ path: string; stats?: Stats }>) {
      options.signal.throwIfAborted();
      const absolutePath = path.normalize(entry.path);
      if (!isUnderRoot(path.dirname(absolutePath))) continue;
      if (filter.isIgnored(absolutePath, false)) continue;
      yield { absolutePath, mtimeMs: entry.stats?.mtimeMs ?? 0 };
    }
  } finally {
    // Stops the walk when the consumer leaves early (a cap was reached, or an abort).
    (stream as unknown as { destroy(): void }).destroy();
  }
}

/**
 * Splits an absolute glob pattern into its static folder and the rest (`/repo/src/**\/*.ts` →
 * `/repo/src` + `**\/*.ts`), so the folder can go through the workspace check and the walk starts
 * there instead of at `/`.
 */
export function splitAbsolutePattern(pattern: string): { base: string; pattern: string } {
  const segments = pattern.split("/");
  const firstDynamic = segments.findIndex((segment) => /[*?[\]{}()!]/.test(segment));
  if (firstDynamic === -1) return { base: path.dirname(pattern), pattern: path.basename(pattern) };
  return { base: segments.slice(0, firstDynamic).join("/") || "/", pattern: segments.slice(firstDynamic).join("/") };
}
