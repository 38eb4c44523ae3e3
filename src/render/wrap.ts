/**
 * Word-wraps one line of plain text to `width` columns: the first line starts after `firstIndent`,
 * the following ones after `restIndent` (a hanging indent for list items and tool results).
 * A word longer than a line is cut. Styling is applied by the caller after wrapping, so widths
 * are counted on plain text.
 */
export function wrapText(text: string, width: number, firstIndent = "", restIndent = firstIndent): string[] {
  const lines: string[] = [];
  let current = firstIndent;
  let indent = firstIndent;
  const room = (prefix: string) => Math.max(10, width - prefix.length);
  for (const word of text.split(/ +/)) {
    if (word === "") continue;
    let rest = word;
    while (rest.length > room(restIndent) && current === indent) {
      // A word that cannot fit any line: cut it.
      lines.push(indent + rest.slice(0, room(indent)));
      rest = rest.slice(room(indent));
      indent = restIndent;
      current = indent;
    }
    if (current === indent) current += rest;
    else if (current.length + 1 + rest.length <= width) current += ` ${rest}`;
    else {
      lines.push(current);
      indent = restIndent;
      current = indent + rest;
    }
  }
  lines.push(current);
  return lines;
}
