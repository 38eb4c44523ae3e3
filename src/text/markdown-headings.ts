/**
 * Moves every ATX heading of a markdown document `levels` deeper (at most `######`), so it can be
 * nested in another document. Lines inside fenced code blocks are left alone: a `# comment` in a
 * shell example is not a heading.
 */
export function shiftHeadings(markdown: string, levels: number): string {
  let fence: string | undefined;
  return markdown
    .split("\n")
    .map((line) => {
      const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (opening && (fence === undefined || (opening[0] === fence[0] && opening.length >= fence.length && line.trim() === opening))) {
        fence = fence === undefined ? opening : undefined;
        return line;
      }
      if (fence !== undefined) return line;
      const heading = /^(#{1,6})(\s)/.exec(line);
      if (!heading) return line;
      return `${"#".repeat(Math.min(6, heading[1]!.length + levels))}${line.slice(heading[1]!.length)}`;
    })
    .join("\n");
}
