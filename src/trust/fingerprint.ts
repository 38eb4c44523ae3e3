import { readdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { isSameOrInside, realPathOfNearestAncestor } from "../paths/real-path.js";
import { parseShell, type ShellWord } from "../permissions/shell-syntax.js";
import { expandBraces, expandGlob, hasWildcard, textOf, type PatternCharacter } from "../permissions/word-expansion.js";
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
function bytesFingerprint(bytes: Uint8Array): string {
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
    return [server.command, ...(Array.isArray(server.args) ? server.args : [])].flatMap((word) => (typeof word === "string" ? [{ word, base }] : []));
  });
  return withNamedFiles(bytes, words, root);
}

/**
 * The fingerprint of a project's settings file (`.claude/settings.json`, `.claude/settings.local.json`):
 * its bytes, and the content of every file inside the project a hook's command names
 * (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`, `python3 scripts/check.py`), as for `.mcp.json`:
 * trusting the hooks trusts those scripts as they are now. Hooks run in `directory` (the project
 * directory, also `$CLAUDE_PROJECT_DIR`); words that hold other variables or substitutions are
 * not followed (see SECURITY.md). Undefined when its commands name more than can be followed.
 */
export function settingsFingerprint(bytes: Uint8Array, directory: string, root: string): string | undefined {
  const words: string[] = [];
  for (const command of hookCommands(bytes)) {
    const named = commandWords(command, directory);
    if (named === undefined) return undefined;
    words.push(...named);
  }
  return withNamedFiles(bytes, words.map((word) => ({ word, base: directory })), root);
}

/**
 * `bytes` hashed with the state (content, or absence) of each named file inside `root`. A word
 * counts as inside when it is written inside the project or leads there: a link the repository planted (`guard.sh -> /tmp/guard.sh`, or a linked folder) is hashed as what it
 * reaches, and a dangling one as absent, so a file outside that someone else can write still
 * needs trust again once it changes or appears.
 */
function withNamedFiles(bytes: Uint8Array, words: ReadonlyArray<{ word: string; base: string }>, root: string): string {
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

/** The `command` of every hook in a settings document; none when the text is not one. */
function hookCommands(bytes: Uint8Array): string[] {
  try {
    const hooks = (JSON.parse(Buffer.from(bytes).toString("utf8")) as { hooks?: unknown }).hooks;
    if (typeof hooks !== "object" || hooks === null) return [];
    return Object.values(hooks).flatMap((groups) =>
      (Array.isArray(groups) ? groups : []).flatMap((group: unknown) => {
        const entries = (group as { hooks?: unknown } | null)?.hooks;
        return (Array.isArray(entries) ? entries : []).flatMap((hook: unknown) => {
          const command = (hook as { command?: unknown } | null)?.command;
          return typeof command === "string" ? [command] : [];
        });
      }),
    );
  } catch {
    return [];
  }
}

/** Shell text inside a hook's words (`bash -c '…'`, `$(…)`) is read this many levels deep. */
const MAX_NESTED_SHELL = 4;
/** More words than this from one settings file: it is not hashed, so it cannot be trusted. */
const MAX_COMMAND_WORDS = 2_000;

/**
 * The words of a hook's command that could name a file, as bash reads them: quotes and escapes
 * removed (`"a b.sh"`, `a\ b.sh` name one file), braces and globs expanded against the folder as
 * it is now (so a file that later matches `*.sh` changes the fingerprint), `$CLAUDE_PROJECT_DIR`
 * replaced by `projectDirectory`, and shell text inside a word (`bash -c '…'`, `$(…)`) read as
 * commands too. A word with any other expansion is left out: what it names is decided when it
 * runs. Undefined when the words are too many to follow (the file then cannot be trusted).
 */
function commandWords(command: string, projectDirectory: string): string[] | undefined {
  const found: string[] = [];
  const visit = (source: string, depth: number): boolean => {
    for (const simple of parseShell(source).commands) {
      for (const word of [...simple.words, ...simple.redirections.map((redirection) => redirection.target)]) {
        const inner = [...word.segments.flatMap((segment) => segment.commands ?? []), ...(/[\s;&|()<>`$]/.test(word.text) ? [word.text] : [])];
        if (depth < MAX_NESTED_SHELL && !inner.every((text) => visit(text, depth + 1))) return false;
        const named = pathsOfWord(word, projectDirectory);
        if (named === undefined) return false;
        found.push(...named);
        if (found.length > MAX_COMMAND_WORDS) return false;
      }
    }
    return true;
  };
  return visit(command, 0) ? found : undefined;
}

/** The paths one word stands for (see commandWords); undefined when they are too many. */
function pathsOfWord(word: ShellWord, projectDirectory: string): string[] | undefined {
  const characters: PatternCharacter[] = [];
  for (const segment of word.segments) {
    if (segment.kind === "parameter" && segment.name === "CLAUDE_PROJECT_DIR") characters.push(...[...projectDirectory].map((character) => ({ character, active: false })));
    else if (segment.kind === "parameter" || segment.kind === "substitution") return [];
    else characters.push(...[...segment.text].map((character) => ({ character, active: segment.kind !== "quoted" })));
  }
  const alternatives = expandBraces(characters);
  if (alternatives === undefined) return undefined;
  const paths: string[] = [];
  for (const alternative of alternatives) {
    paths.push(textOf(alternative));
    if (!hasWildcard(alternative)) continue;
    const glob = expandGlob(alternative, projectDirectory);
    if (glob === undefined) return undefined;
    paths.push(...glob.matches);
  }
  return paths;
}

/** The `mcpServers` entries that start a program; none when the text is not such a document. */
function stdioServers(bytes: Uint8Array): Array<{ command?: unknown; args?: unknown; cwd?: unknown }> {
  try {
    const servers = (JSON.parse(Buffer.from(bytes).toString("utf8")) as { mcpServers?: unknown }).mcpServers;
    if (typeof servers !== "object" || servers === null) return [];
    return Object.values(servers).filter((server): server is Record<string, unknown> => typeof server === "object" && server !== null && typeof (server as Record<string, unknown>).command === "string");
  } catch {
    return [];
  }
}
