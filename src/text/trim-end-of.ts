/**
 * `text` without the characters of `blanks` at its end, in one pass. A pattern such as
 * `/[ \t]+$/` retries from every blank of an inner run and is quadratic in it: a repository's
 * SKILL.md with a line of a million spaces stalled agentwire's start for hours. Pure.
 */
export function trimEndOf(text: string, blanks: string): string {
  let end = text.length;
  while (end > 0 && blanks.includes(text[end - 1]!)) end--;
  return text.slice(0, end);
}
