import type { Stats } from "node:fs";

// Built-ins as code-cache.ts takes them, and for the same reason.
const {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} = process.getBuiltinModule("node:fs");
const { dirname, join, relative, sep } = process.getBuiltinModule("node:path");

/**
 * The code cache's files are code agentwire runs, so nobody else may be able to put one there:
 * not by owning a folder on the way (swapping in a link between a check and a read), not by
 * planting a file or a link where agentwire reads or writes. Every decision is taken on what was
 * opened (the folder resolved once, then each file checked through its open descriptor), never on
 * a name looked up again later.
 */

/** The cache folder, resolved through links once; `exists` is false while part of it is still to be made. */
export interface CacheFolder {
  path: string;
  exists: boolean;
}

/**
 * `directory` (under the agentwire home `home`, both absolute) with the home's links resolved,
 * when the home is this user's and others cannot write to it, and each folder below it up to
 * `directory` is a real folder (no link) private to this user; undefined otherwise. The home may
 * be group-writable: a umask of 002 makes it so, and a group member still cannot give agentwire
 * a file it reads (each file must be this user's, see readPrivateFile).
 */
export function privateCacheFolder(home: string, directory: string): CacheFolder | undefined {
  let realHome: string;
  try {
    realHome = realpathSync(home);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? { path: directory, exists: false } : undefined;
  }
  try {
    const homeStats = lstatSync(realHome);
    if (!homeStats.isDirectory() || !ownedByMe(homeStats) || (homeStats.mode & 0o002) !== 0) return undefined;
    const path = join(realHome, relative(home, directory));
    let folder = realHome;
    for (const name of relative(home, directory).split(sep)) {
      folder = join(folder, name);
      const stats = lstatSync(folder, { throwIfNoEntry: false });
      if (stats === undefined) return { path, exists: false };
      if (!stats.isDirectory() || !privateToMe(stats)) return undefined;
    }
    return { path, exists: true };
  } catch {
    return undefined;
  }
}

/** Makes the cache folder (private) and checks it as privateCacheFolder does. */
export function makePrivateCacheFolder(home: string, directory: string, folder: CacheFolder): CacheFolder | undefined {
  mkdirSync(folder.path, { recursive: true, mode: 0o700 });
  return privateCacheFolder(home, directory);
}

/**
 * The content of `file` when it is a regular file of this user's that nobody else can write;
 * undefined for anything else (absent, a link, a folder, a FIFO, someone else's, writable by others).
 * O_NONBLOCK: a FIFO put there must not block the start.
 */
export function readPrivateFile(file: string): Buffer | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    const stats = fstatSync(descriptor);
    if (!stats.isFile() || !privateToMe(stats)) return undefined;
    // A Buffer of its own (never a shared pool's slice): V8's data then starts aligned.
    const content = Buffer.allocUnsafeSlow(stats.size);
    let filled = 0;
    while (filled < content.byteLength) {
      const read = readSync(descriptor, content, filled, content.byteLength - filled, filled);
      if (read === 0) return undefined;
      filled += read;
    }
    return content;
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/**
 * Replaces `file` with `content`: written whole under a new name no one can have made first
 * ("wx": O_EXCL, which also refuses a link there), then renamed over it, so a run starting
 * meanwhile reads the old file or the new one. The new name is not guessable (Math.random, since
 * node:crypto costs ~4 ms to load and O_EXCL already makes a guessed name harmless); a rename that
 * fails leaves no temporary file behind.
 */
export function replaceFile(file: string, content: Uint8Array): void {
  const temporary = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600, flag: "wx" });
  try {
    renameSync(temporary, file);
  } catch (error) {
    unlinkSync(temporary);
    throw error;
  }
}

/** Folders kept: this build's and the two made last before it (two installs used in turn keep theirs). */
const KEPT_BUILDS = 3;

/**
 * Caches of older builds or other Node versions (the siblings of `directory`): all but the newest
 * few go. Only this user's own folders are removed; a link is never followed, and `rmSync` does
 * not follow the links inside a folder either.
 */
export function removeOtherBuilds(directory: string): void {
  const parent = dirname(directory);
  const others = readdirSync(parent)
    .map((name) => join(parent, name))
    .filter((path) => path !== directory)
    .map((path) => ({ path, stats: lstatSync(path) }))
    .filter(({ stats }) => stats.isDirectory() && ownedByMe(stats))
    .sort((left, right) => right.stats.mtimeMs - left.stats.mtimeMs);
  for (const { path } of others.slice(KEPT_BUILDS - 1)) rmSync(path, { recursive: true, force: true });
}

function ownedByMe(stats: Stats): boolean {
  return process.getuid === undefined || stats.uid === process.getuid();
}

/** This user's, and neither its group nor others can write to it. */
function privateToMe(stats: Stats): boolean {
  return ownedByMe(stats) && (stats.mode & 0o022) === 0;
}
