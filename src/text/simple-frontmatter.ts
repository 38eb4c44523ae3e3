import { trimEndOf } from "./trim-end-of.js";

/**
 * Most SKILL.md frontmatter is a few `key: plain text` lines. Read that form directly and leave
 * everything else to the YAML parser: loading and first running it costs ~14 ms, and every run
 * with skills reads their frontmatter before its first model request.
 *
 * Accepted: one `key: value` per line, each key once, where the value is a plain YAML scalar that
 * reads as text (or exactly `true` / `false`), or text in double or single quotes with no escape
 * and no quote inside. Anything YAML could read differently is declined: escapes, block scalars,
 * lists, flow collections, comments, anchors, tags, directives, numbers, nulls, `: ` inside a
 * plain value, tabs, continuation lines. Declined means `undefined`: parse with YAML.
 */
export function parseSimpleFrontmatter(frontmatter: string): Record<string, string | boolean> | undefined {
  const fields: Record<string, string | boolean> = {};
  for (const line of frontmatter.split("\n")) {
    const match = /^([A-Za-z_][A-Za-z0-9_-]*):[ ]+(\S.*)$/.exec(line);
    if (!match) return undefined;
    const [, key, rawValue] = match as unknown as [string, string, string];
    // Spaces only: YAML trims no other trailing whitespace (a no-break space is part of the value).
    const value = trimEndOf(rawValue, " ");
    // Keys YAML would read as null or a boolean, or that would not become an own property.
    // YAML refuses an implicit key longer than 1024 characters.
    if (
      key.length > 1024 ||
      Object.hasOwn(fields, key) ||
      key === "__proto__" ||
      /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/.test(key)
    )
      return undefined;
    const quoted = /^"([^"\\\t\r]*)"$|^'([^'\t\r]*)'$/.exec(value);
    if (quoted) fields[key] = quoted[1] ?? quoted[2]!;
    else if (isPlainText(value)) fields[key] = value === "true" ? true : value === "false" ? false : value;
    else return undefined;
  }
  return fields;
}

/** A plain scalar YAML's core schema reads as this very string (or as `true` / `false`). */
function isPlainText(value: string): boolean {
  // Indicators that open something other than a plain scalar.
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(value)) return false;
  // A mapping value or a comment inside the line; a trailing colon; tabs and carriage returns.
  if (/: |\s#|:$|[\t\r]/.test(value)) return false;
  // Values the core schema resolves to null, a number or a differently spelt boolean.
  if (/^(?:~|null|Null|NULL|True|TRUE|False|FALSE)$/.test(value)) return false;
  if (/^[-+]?(?:\.?\d|\.(?:inf|Inf|INF|nan|NaN|NAN)$)/.test(value)) return false;
  return true;
}
