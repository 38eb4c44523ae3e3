import { trimEndOf } from "./trim-end-of.js";

/**
 * Skills written for other clients often carry frontmatter that strict YAML refuses but those
 * clients read: an unquoted value with `: ` inside (`description: Clean CSV files: fix
 * encodings`), one that starts with a character YAML reserves (`@Observable…`, `, …`) or with a
 * bracket it never closes (`argument-hint: [date] [reason]`). The Agent Skills client guidance
 * suggests reading such frontmatter again with the values quoted, and Claude Code loads these
 * skills. This is that second reading, one top-level entry at a time: an entry YAML reads on its
 * own stays exactly as written (a list stays a list, `true` a boolean); an entry it cannot read
 * gets its value, with any indented continuation lines folded in as YAML folds a plain scalar,
 * as one double-quoted string — the text the author typed.
 */

export interface QuotedFrontmatter {
  /** The frontmatter with the unreadable values quoted. */
  text: string;
  /** The keys whose values were quoted, in order. */
  keys: string[];
}

/**
 * `key: value` or `key:` at the start of a line; the value keeps its trailing blanks (trimmed
 * by `trimEndOf`). Greedy on purpose: a lazy value before `[ \t]*$` backtracks over
 * every blank of the line, and a SKILL.md with a long run of them stalled the start for minutes.
 */
const TOP_LEVEL_ENTRY = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]+(.*))?$/;

/**
 * The frontmatter with each unreadable top-level value quoted, or `undefined` when no entry
 * could be repaired this way (a second parse would fail the same). `readsAlone` tells whether
 * YAML reads one entry (its lines joined) on its own. Block scalars (`|`, `>`), values that open
 * with a quote (their end is the author's to fix) and entries without a value on the key's line
 * are left alone: quoting could only guess what they meant.
 */
export function quoteUnreadableValues(frontmatter: string, readsAlone: (entry: string) => boolean): QuotedFrontmatter | undefined {
  const output: string[] = [];
  const keys: string[] = [];
  const lines = frontmatter.split("\n").map((line) => line.replace(/\r$/, ""));
  for (let index = 0; index < lines.length; ) {
    const match = TOP_LEVEL_ENTRY.exec(lines[index]!);
    let end = index + 1;
    if (match) while (end < lines.length && (lines[end]!.trim() === "" || /^[ \t]/.test(lines[end]!))) end++;
    const entry = lines.slice(index, end);
    index = end;
    const [, key, written = ""] = match ?? [];
    const value = trimEndOf(written, " \t");
    if (key === undefined || value === "" || /^[|>"']/.test(value) || readsAlone(entry.join("\n"))) {
      output.push(...entry);
      continue;
    }
    keys.push(key);
    output.push(`${key}: ${JSON.stringify(foldPlain(value, entry.slice(1)))}`);
  }
  return keys.length === 0 ? undefined : { text: output.join("\n"), keys };
}

/** A plain scalar over several lines, as YAML reads it: lines joined by a space, a blank line kept as a newline. */
function foldPlain(first: string, continuation: readonly string[]): string {
  let text = first;
  let blankLines = 0;
  for (const line of continuation) {
    const trimmed = line.trim();
    if (trimmed === "") {
      blankLines++;
      continue;
    }
    text += blankLines > 0 ? `${"\n".repeat(blankLines)}${trimmed}` : ` ${trimmed}`;
    blankLines = 0;
  }
  return text;
}
