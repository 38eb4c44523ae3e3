import { readdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { isSameOrInside, realPathOfNearestAncestor } from "../paths/real-path.js";
import { sha256Hex } from "../text/sha256.js";
import { readRegularFile } from "./regular-file.js";

/**
 * What a trust record compares: a sha256 of what a project brings, so any change to it needs
 * trust again. A file is hashed as its bytes; a skill as its whole folder (SKILL.md and every
 * script or file beside it), because a grant such as `Bash(${CLAUDE_SKILL_DIR}/scripts/x.sh)` is
 * only as safe as the script it names.
 */

/** A folder with more than this is not hashed at all: it cannot be trusted (say so, never guess). */
const MAX_FOLDER_FILES = 1_000;
const MAX_FOLDER_BYTES = 32 * 1024 * 1024;
const MAX_FOLDER_DEPTH = 8;

/** The fingerprint of content already read (hash what is used, not a second read of the file). */
export function bytesFingerprint(bytes: Uint8Array): string {
  return `sha256:${sha256Hex(bytes)}`;
}

/** Undefined when the file cannot be read, is not a regular file, or is over `maxBytes`. */
export function fileFingerprint(file: string, maxBytes = MAX_FOLDER_BYTES): string | undefined {
  const read = readRegularFile(file, maxBytes);
  return "bytes" in read ? bytesFingerprint(read.bytes) : undefined;
}

/**
 * One hash over every file under `directory` (symlinks followed, as the skill loader follows
 * them): each file's relative path and content hash, in sorted order. Undefined when the folder
 * cannot be read whole, is larger than the limits, or holds a link leading out of it: what such
 * a link reaches (a workspace file nobody protects) could change after the hash was taken.
 */
export function folderFingerprint(directory: string): string | undefined {
  const root = realPathOfNearestAncestor(directory);
  const lines: string[] = [];
  const visited = new Set<string>();
  let bytes = 0;
  const walk = (current: string, depth: number): boolean => {
    let real: string;
    try {
      real = realpathSync(current);
    } catch {
      return false;
    }
    // A symlink loop, or a folder linked twice: hashed once.
    if (visited.has(real)) return true;
    visited.add(real);
    let names: string[];
    try {
      names = readdirSync(current).sort();
    } catch {
      return false;
    }
    for (const name of names) {
      const full = path.join(current, name);
      if (!isSameOrInside(realPathOfNearestAncestor(full), root)) return false;
      let stats;
      try {
        stats = statSync(full);
      } catch {
        // A dangling link inside the folder: its absence is part of the folder as it is.
        lines.push(`${path.relative(directory, full)}\0missing`);
        continue;
      }
      if (stats.isDirectory()) {
        if (depth >= MAX_FOLDER_DEPTH || !walk(full, depth + 1)) return false;
        continue;
      }
      if (!stats.isFile()) return false;
      bytes += stats.size;
      if (lines.length >= MAX_FOLDER_FILES || bytes > MAX_FOLDER_BYTES) return false;
      const hash = fileFingerprint(full);
      if (hash === undefined) return false;
      lines.push(`${path.relative(directory, full)}\0${hash}`);
    }
    return true;
  };
  if (!walk(directory, 0)) return undefined;
  return `sha256:${sha256Hex(lines.join("\n"))}`;
}

/**
 * The fingerprint of a project's `.mcp.json`: its bytes, and the content of every file inside
 * the project that a stdio server's command or arguments name (`./server.sh`, `node srv.js`).
 * Trusting the configuration trusts those programs as they are; a later edit of one (which
 * nothing else asks about) needs trust again. `directory` is where the file lies (relative
 * words start there unless a server names its own `cwd`); `root` is the project's root.
 */
export function mcpConfigFingerprint(bytes: Uint8Array, directory: string, root: string): string {
  const words = stdioServers(bytes).flatMap((server) => {
    const base = typeof server.cwd === "string" ? path.resolve(directory, server.cwd) : directory;
    return [server.command, ...(Array.isArray(server.args) ? server.args : [])].flatMap((word) =>
      typeof word === "string" ? [{ word, base }] : [],
    );
  });
  return withNamedFiles(bytes, words, root);
}

/**
 * `bytes` hashed with the state (content, or absence) of each named file inside `root`. A word
 * counts as inside when it is written inside the project or leads there: a link the repository planted (`guard.sh -> /tmp/guard.sh`, or a linked folder) is hashed as what it
 * reaches, and a dangling one as absent, so a file outside that someone else can write still
 * needs trust again once it changes or appears.
 */
export function withNamedFiles(bytes: Uint8Array, words: ReadonlyArray<{ word: string; base: string }>, root: string): string {
  const named: string[] = [];
  const realRoot = realPathOfNearestAncestor(root);
  for (const { word, base } of words) {
    if (word === "" || word.startsWith("-")) continue;
    const candidate = path.resolve(base, word);
    const written = path.resolve(realPathOfNearestAncestor(base), path.relative(base, candidate));
    if (!isSameOrInside(written, realRoot) && !isSameOrInside(realPathOfNearestAncestor(candidate), realRoot)) continue;
    let isFile = false;
    try {
      isFile = statSync(candidate).isFile();
    } catch {
      // Not there (yet): a file planted later under that name changes the fingerprint then.
    }
    named.push(`${word}\0${isFile ? (fileFingerprint(candidate) ?? "unreadable") : "absent"}`);
  }
  return named.length === 0 ? bytesFingerprint(bytes) : `sha256:${sha256Hex(Buffer.concat([bytes, Buffer.from(`\n${named.join("\n")}`)]))}`;
}

/** The `mcpServers` entries that start a program; none when the text is not such a document. */
function stdioServers(bytes: Uint8Array): Array<{ command?: unknown; args?: unknown; cwd?: unknown }> {
  try {
    const servers = (JSON.parse(Buffer.from(bytes).toString("utf8")) as { mcpServers?: unknown }).mcpServers;
    if (typeof servers !== "object" || servers === null) return [];
    return Object.values(servers).filter(
      (server): server is Record<string, unknown> =>
        typeof server === "object" && server !== null && typeof (server as Record<string, unknown>).command === "string",
    );
  } catch {
    return [];
  }
}
