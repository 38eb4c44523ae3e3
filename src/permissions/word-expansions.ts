import { readdirSync } from "node:fs";
import path from "node:path";
import type { ShellWord } from "./shell-syntax.js";

/**
 * The paths a word can stand for once bash has expanded it, for checks on what a command
 * changes: brace alternatives (`{~/.bashrc,x}` is two words) and the existing files a pattern
 * matches (`.g?t/config` is `.git/config`). Both err toward more candidates: a `{` or `*` that
 * was quoted is expanded too, and a pattern may match names starting with a dot.
 */

/** How many alternatives or matches are looked at for one word; beyond that the word counts as unknown. */
export const MAX_EXPANSIONS = 64;

/**
 * `a{b,c}d` → `abd`, `acd`; `{1..3}` is left alone (numbers and letters only name nothing
 * dangerous by themselves). An alternative holding `$` or a backquote is only known at run time.
 * Undefined when there are more than MAX_EXPANSIONS.
 */
export function braceAlternatives(word: ShellWord): ShellWord[] | undefined {
  if (!word.segments.some((segment) => segment.kind === "glob" && segment.text === "{")) return [word];
  const texts = expandBraces(word.text);
  if (texts.length > MAX_EXPANSIONS) return undefined;
  if (texts.length === 1) return [word];
  return texts.map((text) => ({ text, segments: [/[$`]/.test(text) ? { kind: "parameter" as const, text } : { kind: "quoted" as const, text }] }));
}

function expandBraces(text: string): string[] {
  const open = text.indexOf("{");
  if (open === -1) return [text];
  let depth = 0;
  const commas: number[] = [];
  for (let index = open; index < text.length; index++) {
    const character = text[index];
    if (character === "{") depth++;
    else if (character === "}" && --depth === 0) {
      if (commas.length === 0) return expandBraces(text.slice(index + 1)).map((rest) => text.slice(0, index + 1) + rest);
      const bounds = [open, ...commas, index];
      const prefix = text.slice(0, open);
      const alternatives = bounds.slice(0, -1).map((start, position) => text.slice(start + 1, bounds[position + 1]));
      const suffixes = expandBraces(text.slice(index + 1));
      const expanded: string[] = [];
      for (const alternative of alternatives) {
        for (const inner of expandBraces(alternative)) {
          for (const suffix of suffixes) {
            expanded.push(prefix + inner + suffix);
            if (expanded.length > MAX_EXPANSIONS) return expanded;
          }
        }
      }
      return expanded;
    } else if (character === "," && depth === 1) commas.push(index);
  }
  return [text];
}

/**
 * Existing paths an absolute pattern matches, level by level (`/home/u/.b*rc` → `/home/u/.bashrc`).
 * Empty when the path has no pattern characters or nothing matches. Contract: never throws.
 */
export function globMatches(absolute: string): string[] {
  if (!/[*?[]/.test(absolute)) return [];
  let candidates = ["/"];
  for (const segment of absolute.split("/").filter((part) => part !== "")) {
    const next: string[] = [];
    for (const directory of candidates) {
      if (!/[*?[]/.test(segment)) {
        next.push(path.join(directory, segment));
        continue;
      }
      const pattern = globPattern(segment);
      let names: string[] = [];
      try {
        names = readdirSync(directory);
      } catch {
        // Not a directory, or unreadable: nothing matches there.
      }
      next.push(...names.filter((name) => pattern.test(name)).map((name) => path.join(directory, name)));
    }
    candidates = next.slice(0, MAX_EXPANSIONS);
    if (candidates.length === 0) return [];
  }
  return candidates;
}

function globPattern(segment: string): RegExp {
  let source = "";
  for (let index = 0; index < segment.length; index++) {
    const character = segment[index]!;
    if (character === "*") source += ".*";
    else if (character === "?") source += ".";
    else if (character === "[") {
      const close = segment.indexOf("]", index + 2);
      if (close === -1) source += "\\[";
      else {
        source += `[${segment.slice(index + 1, close).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
        index = close;
      }
    } else source += character.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  try {
    return new RegExp(`^${source}$`, "s");
  } catch {
    return /^/;
  }
}
