import stringWidth from "string-width";

/**
 * Word-wraps one line of plain text to `width` columns: the first line starts after `firstIndent`,
 * the following ones after `restIndent` (a hanging indent for list items and tool results).
 * A word longer than a line is cut. Styling is applied by the caller after wrapping, so widths
 * are counted on plain text, in terminal columns: a CJK character or an emoji takes two, a
 * combining mark none (counting UTF-16 units overflowed lines of wide text and cut emoji apart).
 */
export function wrapText(text: string, width: number, firstIndent = "", restIndent = firstIndent): string[] {
  const lines: string[] = [];
  let current = firstIndent;
  let indent = firstIndent;
  const room = (prefix: string) => Math.max(10, width - stringWidth(prefix));
  for (const word of text.split(/ +/)) {
    if (word === "") continue;
    let rest = word;
    while (stringWidth(rest) > room(restIndent) && current === indent) {
      // A word that cannot fit any line: cut it.
      const [head, tail] = cutAtColumns(rest, room(indent));
      lines.push(indent + head);
      rest = tail;
      indent = restIndent;
      current = indent;
    }
    if (current === indent) current += rest;
    else if (stringWidth(current) + 1 + stringWidth(rest) <= width) current += ` ${rest}`;
    else {
      lines.push(current);
      indent = restIndent;
      current = indent + rest;
    }
  }
  lines.push(current);
  return lines;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The longest start of `text` that fits `columns` (at least one character), and the rest; never splits a character. */
function cutAtColumns(text: string, columns: number): [string, string] {
  let used = 0;
  let end = 0;
  for (const { segment } of graphemes.segment(text)) {
    const segmentWidth = stringWidth(segment);
    if (end > 0 && used + segmentWidth > columns) break;
    used += segmentWidth;
    end += segment.length;
  }
  return [text.slice(0, end), text.slice(end)];
}
