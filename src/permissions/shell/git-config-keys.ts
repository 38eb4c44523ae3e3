import { ownEntry } from "../../validation/own-entry.js";

/**
 * The keys a git configuration file sets, read with git's own grammar (config.c): section
 * headers `[section]`, `[section "subsection"]` and the old `[section.subsection]`, a key on the
 * header's line or its own, values with quotes, escapes, comments and backslash-newline
 * continuations. Sections and keys are
 * case-insensitive and come back lowercased, subsections as written, values as git reads them
 * (quotes and escapes resolved, unquoted whitespace runs kept but trimmed at the ends).
 *
 * A repository's config is written by whoever made the repository, so text this reader does not
 * understand is not guessed at: it returns the problem, and the caller treats the file as one
 * that may run code.
 */
export type GitConfigKeys = { keys: GitConfigKey[] } | { problem: string };

export interface GitConfigKey {
  section: string;
  subsection: string | undefined;
  name: string;
  /** Undefined for a key without `=` (a boolean true). */
  value: string | undefined;
}

export function gitConfigKeys(text: string): GitConfigKeys {
  const reader = new Reader(text.startsWith("\uFEFF") ? text.slice(1) : text);
  const keys: GitConfigKey[] = [];
  let section: { name: string; subsection: string | undefined } | undefined;
  for (;;) {
    const char = reader.next();
    if (char === undefined) return { keys };
    if (char === "\n" || isSpace(char)) continue;
    if (char === "#" || char === ";") {
      reader.skipLine();
      continue;
    }
    if (char === "[") {
      const header = readSectionHeader(reader);
      if (typeof header === "string") return { problem: `${header} (line ${reader.line})` };
      section = header;
      continue;
    }
    if (!isAlpha(char)) return { problem: `unexpected character ${JSON.stringify(char)} (line ${reader.line})` };
    if (section === undefined) return { problem: `a key before any section (line ${reader.line})` };
    const name = readKeyName(reader, char);
    const value = readValue(reader);
    if (typeof value === "object") return { problem: `${value.problem} (line ${reader.line})` };
    keys.push({ section: section.name, subsection: section.subsection, name, value });
  }
}

class Reader {
  private index = 0;
  line = 1;
  constructor(private readonly text: string) {}

  /** The next character, with `\r\n` read as `\n` (as git does). */
  next(): string | undefined {
    let char = this.text[this.index];
    if (char === undefined) return undefined;
    this.index++;
    if (char === "\r" && this.text[this.index] === "\n") {
      this.index++;
      char = "\n";
    }
    if (char === "\n") this.line++;
    return char;
  }

  peek(): string | undefined {
    const char = this.text[this.index];
    return char === "\r" && this.text[this.index + 1] === "\n" ? "\n" : char;
  }

  skipLine(): void {
    for (let char = this.next(); char !== undefined && char !== "\n"; char = this.next());
  }
}

/** After `[`: the section (lowercased) and the subsection, or what is wrong with the header. */
function readSectionHeader(reader: Reader): { name: string; subsection: string | undefined } | string {
  let name = "";
  for (;;) {
    const char = reader.next();
    if (char === undefined || char === "\n") return "an unfinished section header";
    if (char === "]") return sectionName(name, undefined);
    if (isSpace(char)) return readSubsection(reader, name);
    if (!isKeyChar(char) && char !== ".") return `a section name git would not accept`;
    name += char.toLowerCase();
  }
}

/** `[section "sub"]`: the quoted subsection, where a backslash keeps the next character. */
function readSubsection(reader: Reader, name: string): { name: string; subsection: string | undefined } | string {
  let char = reader.next();
  while (char !== undefined && isSpace(char)) char = reader.next();
  if (char !== '"') return "a section header git would not accept";
  let subsection = "";
  for (;;) {
    char = reader.next();
    if (char === undefined || char === "\n") return "an unfinished subsection";
    if (char === '"') break;
    if (char === "\\") {
      char = reader.next();
      if (char === undefined || char === "\n") return "an unfinished subsection";
    }
    subsection += char;
  }
  if (reader.next() !== "]") return "a section header git would not accept";
  return sectionName(name, subsection);
}

/** `[a.b]` is the old spelling of `[a "b"]` (lowercased as a whole). */
function sectionName(written: string, subsection: string | undefined): { name: string; subsection: string | undefined } | string {
  if (written === "") return "an empty section name";
  const dot = written.indexOf(".");
  if (subsection !== undefined || dot === -1) return { name: written, subsection };
  return { name: written.slice(0, dot), subsection: written.slice(dot + 1) };
}

function readKeyName(reader: Reader, first: string): string {
  let name = first.toLowerCase();
  for (let char = reader.peek(); char !== undefined && isKeyChar(char); char = reader.peek()) {
    name += char.toLowerCase();
    reader.next();
  }
  return name;
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", b: "\b", "\\": "\\", '"': '"' };

/** After a key's name: nothing (a boolean: undefined), or `= value` up to the end of its (last) line. */
function readValue(reader: Reader): string | undefined | { problem: string } {
  let char = reader.next();
  while (char !== undefined && isSpace(char)) char = reader.next();
  if (char === undefined || char === "\n") return undefined;
  if (char === "#" || char === ";") {
    reader.skipLine();
    return undefined;
  }
  if (char !== "=") return { problem: "a key followed by something other than a value" };
  let value = "";
  let pendingSpaces = 0;
  let quoted = false;
  for (;;) {
    char = reader.next();
    if (char === undefined || char === "\n") return quoted ? { problem: "an unfinished quoted value" } : value;
    if (!quoted && isSpace(char)) {
      if (value !== "") pendingSpaces++;
      continue;
    }
    if (!quoted && (char === "#" || char === ";")) {
      reader.skipLine();
      return value;
    }
    value += " ".repeat(pendingSpaces);
    pendingSpaces = 0;
    if (char === '"') quoted = !quoted;
    else if (char === "\\") {
      const escaped = reader.next();
      if (escaped === undefined) return { problem: "a value ending in a backslash" };
      // A backslash at the end of a line continues the value on the next one.
      if (escaped === "\n") continue;
      const replacement = ownEntry(ESCAPES, escaped);
      if (replacement === undefined) return { problem: "an escape git would not accept in a value" };
      value += replacement;
    } else value += char;
  }
}

function isSpace(char: string): boolean {
  return char === " " || char === "\t" || char === "\v" || char === "\f" || char === "\r";
}

function isAlpha(char: string): boolean {
  return /^[A-Za-z]$/.test(char);
}

function isKeyChar(char: string): boolean {
  return /^[A-Za-z0-9-]$/.test(char);
}
