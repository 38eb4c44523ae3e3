import { lstatSync } from "node:fs";
import path from "node:path";
import { boundedFolderReader, type FolderReader } from "./bounded-folder-reads.js";
import type { ShellWord } from "./shell-syntax.js";

/**
 * The words bash makes of one word before a program sees it: brace expansion (`{a,b}`, `{1..3}`),
 * then pathname expansion (`*`, `?`, `[…]`), read from the filesystem as it is now. Used to see
 * which paths a command will really open or change, so `cat {/elsewhere/x,a}`, `cat lnk/sec*` or
 * `touch {a,~/.bashrc}` cannot hide a path from the checks.
 *
 * Errs toward more: a bracket expression matches any one character, `*` and `?` match names
 * starting with a dot, and `.`/`..` match a pattern that starts with a dot, so the expansion finds
 * every word bash would (and perhaps a few more). Checks of what a command changes go further
 * (charactersOfText, GlobOptions.keepMissing). Anything too large to follow comes back as
 * undefined, which callers treat as "could be anywhere".
 */

/** One character of a word and whether the shell may give it a meaning (unquoted). */
export interface PatternCharacter {
  character: string;
  active: boolean;
}

/** More words than this from one word: the caller stops guessing. */
const MAX_BRACE_WORDS = 256;
/** Directory entries read for one word before giving up. */
const MAX_ENTRIES_READ = 5_000;

/** The word's characters; quoted ones are inert. Expansions (`$X`) must be handled before. */
export function patternCharacters(word: ShellWord): PatternCharacter[] {
  return word.segments.flatMap((segment) =>
    [...segment.text].map((character) => ({ character, active: segment.kind === "plain" || segment.kind === "glob" })),
  );
}

/**
 * Every character of `text` taken as one the shell may give a meaning, quoted or not: for checks
 * that err toward more candidates (a quoted `{` or `*` is expanded too), and for text whose
 * quoting is already gone (a path built from a word).
 */
export function charactersOfText(text: string): PatternCharacter[] {
  return [...text].map((character) => ({ character, active: true }));
}

export function textOf(characters: readonly PatternCharacter[]): string {
  return characters.map((entry) => entry.character).join("");
}

/** Bash's brace expansion; undefined past MAX_BRACE_WORDS. Contract: pure, never throws. */
export function expandBraces(characters: readonly PatternCharacter[]): PatternCharacter[][] | undefined {
  const words: PatternCharacter[][] = [];
  const pending: PatternCharacter[][] = [[...characters]];
  while (pending.length > 0) {
    const word = pending.pop()!;
    const expansion = firstBraceExpansion(word);
    if (expansion === undefined) words.push(word);
    else pending.push(...expansion);
    if (words.length + pending.length > MAX_BRACE_WORDS) return undefined;
  }
  return words.reverse();
}

/** The words the first valid `{…}` of `word` turns into, or undefined when there is none. */
function firstBraceExpansion(word: readonly PatternCharacter[]): PatternCharacter[][] | undefined {
  for (let open = 0; open < word.length; open++) {
    if (!isActive(word[open], "{")) continue;
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let index = open + 1; index < word.length && close === -1; index++) {
      if (isActive(word[index], "{")) depth++;
      else if (isActive(word[index], "}")) {
        if (depth === 0) close = index;
        else depth--;
      } else if (isActive(word[index], ",") && depth === 0) commas.push(index);
    }
    if (close === -1) continue;
    const alternatives = commas.length > 0 ? splitAt(word, open, close, commas) : sequence(textOf(word.slice(open + 1, close)));
    if (alternatives === undefined) continue;
    return alternatives.map((alternative) => [...word.slice(0, open), ...alternative, ...word.slice(close + 1)]);
  }
  return undefined;
}

function splitAt(word: readonly PatternCharacter[], open: number, close: number, commas: number[]): PatternCharacter[][] {
  const bounds = [open, ...commas, close];
  return bounds.slice(1).map((end, index) => word.slice(bounds[index]! + 1, end));
}

/** `{1..5}`, `{10..1..3}`, `{a..e}`: the sequence bash writes out, or undefined when it is none. */
function sequence(inner: string): PatternCharacter[][] | undefined {
  const numbers = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  const letters = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(inner);
  const match = numbers ?? letters;
  if (!match) return undefined;
  const from = numbers ? Number(match[1]) : match[1]!.charCodeAt(0);
  const to = numbers ? Number(match[2]) : match[2]!.charCodeAt(0);
  const step = Math.abs(Number(match[3] ?? 1)) || 1;
  if (Math.abs(to - from) / step > MAX_BRACE_WORDS) return Array.from({ length: MAX_BRACE_WORDS + 1 }, () => []);
  const values: string[] = [];
  for (let value = from; from <= to ? value <= to : value >= to; value += from <= to ? step : -step)
    values.push(numbers ? String(value) : String.fromCharCode(value));
  return values.map((value) => [...value].map((character) => ({ character, active: false })));
}

export function hasWildcard(characters: readonly PatternCharacter[]): boolean {
  return characters.some((entry) => entry.active && (entry.character === "*" || entry.character === "?" || entry.character === "["));
}

export interface GlobExpansion {
  /** The words bash passes on, as written (relative stays relative); empty when nothing matched. */
  matches: string[];
  /** Absolute paths of the folders bash had to list. */
  listedFolders: string[];
}

export interface GlobOptions {
  /**
   * Keep the paths whose fixed components after a wildcard do not exist (bash drops them): an
   * earlier command of the same line may create them before the shell expands this word.
   */
  keepMissing?: boolean;
}

/**
 * Pathname expansion of one word against the filesystem, as bash does it: folder by folder,
 * listing each folder a wildcard component needs (following symlinks, as bash does). Undefined
 * when the word needs more than MAX_ENTRIES_READ entries read.
 *
 * Contract: never throws; unreadable folders match nothing.
 */
export function expandGlob(characters: readonly PatternCharacter[], cwd: string, options: GlobOptions = {}): GlobExpansion | undefined {
  const components = splitComponents(characters);
  const absolute = characters[0]?.character === "/";
  let frontier: string[] = [absolute ? "/" : ""];
  const listedFolders: string[] = [];
  const read = boundedFolderReader(MAX_ENTRIES_READ);
  for (const [position, component] of components.entries()) {
    if (absolute && position === 0) continue;
    if (!hasWildcard(component)) {
      frontier = frontier.map((prefix) => joinComponent(prefix, textOf(component)));
      continue;
    }
    // zsh (and bash with globstar) read a lone `**` as any depth of folders, links not followed
    // (`***` follows them); plain bash reads it as `*`, links followed. Both are taken.
    const text = textOf(component);
    if (/^\*{3,}$/.test(text)) return undefined;
    const descendants = text === "**" ? foldersBelow(frontier, cwd, read) : [];
    if (descendants === undefined) return undefined;
    listedFolders.push(...descendants.map((prefix) => folderOf(prefix, cwd)));
    const matcher = componentMatcher(component);
    const next: string[] = [];
    for (const prefix of frontier) {
      const folder = folderOf(prefix, cwd);
      listedFolders.push(folder);
      const entries = read(folder);
      if (entries === "too many") return undefined;
      if (entries === undefined) continue;
      const names = entries.map((entry) => entry.name);
      if (component[0]?.character === ".") names.push(".", "..");
      for (const name of names) if (matcher.test(name)) next.push(joinComponent(prefix, name));
    }
    frontier = [...new Set([...descendants, ...next])];
    if (frontier.length === 0) break;
  }
  // Literal components after a wildcard: bash keeps only the paths that exist.
  const matches = options.keepMissing ? frontier : frontier.filter((match) => pathExists(path.resolve(cwd, match)));
  return { matches, listedFolders };
}

/**
 * Each prefix and every folder below it, links not followed (as `**` does), for a `**`
 * component; undefined when the reads pass their limit.
 */
function foldersBelow(prefixes: readonly string[], cwd: string, read: FolderReader): string[] | undefined {
  const folders: string[] = [];
  const pending = [...prefixes];
  for (let prefix = pending.pop(); prefix !== undefined; prefix = pending.pop()) {
    folders.push(prefix);
    const entries = read(folderOf(prefix, cwd));
    if (entries === "too many") return undefined;
    for (const entry of entries ?? []) if (entry.isDirectory()) pending.push(joinComponent(prefix, entry.name));
  }
  return folders;
}

/** The absolute folder a prefix names; the empty prefix is the working directory. */
function folderOf(prefix: string, cwd: string): string {
  return path.resolve(cwd, prefix === "" ? "." : prefix);
}

/** `prefix/name` as the word will read; the empty prefix is the working directory. */
function joinComponent(prefix: string, name: string): string {
  return prefix === "" || prefix.endsWith("/") ? prefix + name : `${prefix}/${name}`;
}

function splitComponents(characters: readonly PatternCharacter[]): PatternCharacter[][] {
  const components: PatternCharacter[][] = [[]];
  for (const entry of characters) {
    if (entry.character === "/") components.push([]);
    else components.at(-1)!.push(entry);
  }
  return components;
}

/** One component as a regular expression: `*` any run, `?` and a whole `[…]` any one character. */
function componentMatcher(component: readonly PatternCharacter[]): RegExp {
  let source = "";
  for (let index = 0; index < component.length; index++) {
    const entry = component[index]!;
    if (entry.active && entry.character === "*") source += ".*";
    else if (entry.active && entry.character === "?") source += ".";
    else if (entry.active && entry.character === "[") {
      const close = bracketEnd(component, index);
      if (close === -1) source += "\\[";
      else {
        source += ".";
        index = close;
      }
    } else source += entry.character.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "s");
}

/**
 * Where the bracket expression opened at `open` ends, or -1 when it does not (a literal `[`). The
 * first member may be `]` (`[]a]`, `[!]a]`), and `[:alpha:]`, `[=a=]`, `[.a.]` inside hold their
 * own `]`: ending the expression there would match fewer names than bash does.
 */
function bracketEnd(component: readonly PatternCharacter[], open: number): number {
  let index = open + 1;
  if (component[index]?.character === "!" || component[index]?.character === "^") index++;
  if (component[index]?.character === "]") index++;
  for (; index < component.length; index++) {
    const entry = component[index]!;
    const kind = component[index + 1]?.character ?? "";
    if (entry.character === "[" && (kind === ":" || kind === "=" || kind === ".")) {
      const end = component.findIndex(
        (candidate, position) => position > index + 1 && candidate.character === kind && component[position + 1]?.character === "]",
      );
      if (end === -1) return -1;
      index = end + 1;
    } else if (isActive(entry, "]")) return index;
  }
  return -1;
}

function isActive(entry: PatternCharacter | undefined, character: string): boolean {
  return entry?.active === true && entry.character === character;
}

/** lstat's answer, without throwing (ENOENT, ENOTDIR, ELOOP alike mean "not there"). */
function pathExists(absolute: string): boolean {
  try {
    lstatSync(absolute);
    return true;
  } catch {
    return false;
  }
}
