/**
 * Where values sit in a JSON text, so an edit can replace one value and leave every other byte
 * as the file had it (its indentation, key order, escapes, number forms). Re-serializing the
 * whole document would rewrite all of that: JavaScript and Python's json module differ on
 * floats (`1.0`), on escaping non-ASCII text, and on integer-like keys, which JSON.parse moves
 * to the front of an object.
 *
 * Contract: the text has already been accepted by JSON.parse; on other text the spans are
 * meaningless (never an exception loop: every scan advances or stops at the end).
 */

/** A value's place in the text: `start` is its first character, `end` the one after its last. */
export interface Span {
  start: number;
  end: number;
}

/** One member of an object: its decoded key and its value's span. */
export interface MemberSpan {
  key: string;
  keyStart: number;
  value: Span;
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

export function skipWhitespace(text: string, index: number): number {
  let position = index;
  while (position < text.length && WHITESPACE.has(text[position]!)) position += 1;
  return position;
}

/** The span of the value starting at `index` (after any whitespace). */
export function valueSpan(text: string, index: number): Span {
  const start = skipWhitespace(text, index);
  return { start, end: valueEnd(text, start) };
}

function valueEnd(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first === "{" || first === "[") return containerEnd(text, start);
  // A number, true, false or null: runs until a delimiter.
  let position = start;
  while (position < text.length && !WHITESPACE.has(text[position]!) && !",]}".includes(text[position]!)) position += 1;
  return position;
}

// Scans jump from quote to quote and bracket to bracket (indexOf, a regex) rather than stepping
// through every character: most of a notebook is long strings (outputs, base64 images), and a
// character loop took ~100 ms per pass over a 5 MB notebook.

const BACKSLASH = 0x5c;

function stringEnd(text: string, start: number): number {
  let position = start + 1;
  for (;;) {
    const quote = text.indexOf('"', position);
    if (quote === -1) return text.length;
    // A quote after an odd number of backslashes is escaped, part of the string.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    position = quote + 1;
  }
}

function containerEnd(text: string, start: number): number {
  const structure = /["[\]{}]/g;
  structure.lastIndex = start;
  let depth = 0;
  let match: RegExpExecArray | null;
  while ((match = structure.exec(text)) !== null) {
    const character = match[0];
    if (character === '"') structure.lastIndex = stringEnd(text, match.index);
    else if (character === "{" || character === "[") depth += 1;
    else {
      depth -= 1;
      if (depth === 0) return match.index + 1;
    }
  }
  return text.length;
}

/** The members of the object whose `{` is at `object.start`, in the order the text has them. */
export function memberSpans(text: string, object: Span): MemberSpan[] {
  const members: MemberSpan[] = [];
  let position = skipWhitespace(text, object.start + 1);
  while (position < object.end && text[position] === '"') {
    const keyEnd = stringEnd(text, position);
    const key = JSON.parse(text.slice(position, keyEnd)) as string;
    const colon = skipWhitespace(text, keyEnd);
    const value = valueSpan(text, colon + 1);
    members.push({ key, keyStart: position, value });
    position = skipWhitespace(text, value.end);
    if (text[position] === ",") position = skipWhitespace(text, position + 1);
  }
  return members;
}

/** The elements of the array whose `[` is at `array.start`. */
export function elementSpans(text: string, array: Span): Span[] {
  const elements: Span[] = [];
  let position = skipWhitespace(text, array.start + 1);
  while (position < array.end && text[position] !== "]") {
    const element = valueSpan(text, position);
    elements.push(element);
    position = skipWhitespace(text, element.end);
    if (text[position] === ",") position = skipWhitespace(text, position + 1);
  }
  return elements;
}

/**
 * The member named `key`; the last one when the key repeats, as JSON.parse keeps the last, so
 * the text edited is the value the notebook was validated with.
 */
export function findMember(members: readonly MemberSpan[], key: string): MemberSpan | undefined {
  return members.findLast((member) => member.key === key);
}

/** The blanks between the start of the line holding `index` and the first non-blank on it. */
export function lineIndent(text: string, index: number): string {
  const lineStart = text.lastIndexOf("\n", index - 1) + 1;
  const match = /^[ \t]*/.exec(text.slice(lineStart, index));
  return match?.[0] ?? "";
}
