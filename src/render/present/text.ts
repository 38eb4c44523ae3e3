/** Small wording helpers every view of a transcript shares (terminal, chat, web page). */

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** One line of at most `max` characters: newlines become spaces, the cut is marked with "…". */
export function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s*\n\s*/g, " ");
  return oneLine.length > max ? `${oneLine.slice(0, Math.max(1, max - 1))}…` : oneLine;
}

/** Lines of a text, a final newline not counting as the start of another. */
export function countLines(text: string): number {
  return text.replace(/\n$/, "").split("\n").length;
}

/** Token counts and the like, grouped by thousands whatever the reader's locale. */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}
