import { ownEntry } from "../../validation/own-entry.js";

/** Scanning over quoted and bracketed text, for the tokenizer's expansions (shell-parser.ts). */

/**
 * Index of the bracket closing the one at `open` (for `${…}` and `$[…]`), skipping quoted text
 * and escapes; -1 if none. Nested brackets of the same kind balance.
 */
export function findClosing(source: string, open: number, opening: string, closing: string): number {
  let depth = 0;
  for (let index = open; index < source.length; index++) {
    const character = source[index]!;
    if (character === "\\") index++;
    else if (character === "'") {
      const end = source.indexOf("'", index + 1);
      if (end === -1) return -1;
      index = end;
    } else if (character === '"') {
      index = skipDoubleQuoted(source, index);
      if (index === -1) return -1;
    } else if (character === opening) depth++;
    else if (character === closing && --depth === 0) return index;
  }
  return -1;
}

function skipDoubleQuoted(source: string, open: number): number {
  for (let index = open + 1; index < source.length; index++) {
    const character = source[index]!;
    if (character === "\\") index++;
    else if (character === '"') return index;
    else if (character === "$" && source[index + 1] === "(") {
      index = findClosing(source, index + 1, "(", ")");
      if (index === -1) return -1;
    }
  }
  return -1;
}

export function findAnsiQuoteEnd(source: string, from: number): number {
  let index = from;
  while (index < source.length && source[index] !== "'") index += source[index] === "\\" ? 2 : 1;
  return Math.min(index, source.length);
}

const ANSI_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** Bash's `$'…'` escapes, so `$'\x72m'` reads as `rm`. */
export function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)/gs, (whole, sequence: string) => {
    if (/^[xuU]/.test(sequence)) {
      const codePoint = Number.parseInt(sequence.slice(1), 16);
      return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole;
    }
    if (/^[0-7]/.test(sequence)) return String.fromCharCode(Number.parseInt(sequence, 8));
    if (sequence.startsWith("c")) return String.fromCharCode(sequence.charCodeAt(1) & 0x1f);
    return ownEntry(ANSI_ESCAPES, sequence) ?? whole;
  });
}
