/** Names (and lists of names) that Claude Code compares as they are, not as expressions. */
const PLAIN_NAMES = /^[\w\s,|-]+$/;

/**
 * A hook matcher as Claude Code reads one: absent, null, `""` or `*` match everything; a name, or
 * names joined by `|` or `,` (`Edit|Write`), match exactly; anything else is a regular expression
 * that must match the whole value (`mcp__github__.*`). A pattern that is not a valid expression
 * matches only itself. An event without a value to match (Stop, UserPromptSubmit) matches every
 * hook. Pure.
 */
export function compileHookMatcher(pattern: string | null | undefined): (value: string | undefined) => boolean {
  if (pattern === undefined || pattern === null || pattern.trim() === "" || pattern.trim() === "*") return () => true;
  const trimmed = pattern.trim();
  if (PLAIN_NAMES.test(trimmed)) {
    const names = new Set(
      trimmed
        .split(/[|,]/)
        .map((name) => name.trim())
        .filter((name) => name !== ""),
    );
    return (value) => value === undefined || names.has(value);
  }
  let expression: RegExp;
  try {
    expression = new RegExp(`^(?:${trimmed})$`);
  } catch {
    return (value) => value === undefined || value === trimmed;
  }
  return (value) => value === undefined || expression.test(value);
}
