/**
 * Light markdown, parsed once for every view: what a model writes in an answer (headings, lists,
 * fenced code, quotes, rules, `code`, **bold**, *italic*, [links](https://…)), not CommonMark.
 * The result is neutral: the terminal (render/markdown.ts) and the page (web/markdown.js) each
 * style it. Lines stay lines: paragraphs are not joined and lists are not nested here, since the
 * terminal wraps each source line and the page groups them itself.
 */

/** One line of the answer, or one fenced code block (an unclosed fence runs to the end: a streaming answer). */
export type MarkdownBlock =
  | { type: "code"; language: string; lines: string[] }
  | { type: "heading"; level: number; text: string }
  | { type: "rule"; text: string }
  /** A list item: `indent` in columns (a tab counts two), `marker` as written ("-", "2."). */
  | { type: "item"; indent: number; marker: string; ordered: boolean; text: string }
  | { type: "quote"; text: string }
  | { type: "blank" }
  /** Any other line, leading spaces kept (under a list item they continue it). */
  | { type: "line"; text: string };

export function markdownBlocks(text: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  let fence: { marker: string; block: { type: "code"; language: string; lines: string[] } } | undefined;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (fence) {
      if (line.trim().startsWith(fence.marker)) fence = undefined;
      else fence.block.lines.push(line);
      continue;
    }
    const fenceStart = /^\s*(```+|~~~+)\s*([\w+-]*)/.exec(line);
    if (fenceStart) {
      fence = { marker: fenceStart[1]!, block: { type: "code", language: fenceStart[2]!, lines: [] } };
      blocks.push(fence.block);
      continue;
    }
    blocks.push(lineBlock(line));
  }
  return blocks;
}

function lineBlock(line: string): MarkdownBlock {
  if (line.trim() === "") return { type: "blank" };
  // A closing run of #s needs a space before it: "# C#" keeps its #.
  const heading = /^(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
  if (heading) return { type: "heading", level: heading[1]!.length, text: heading[2]! };
  if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return { type: "rule", text: line };
  const item = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/.exec(line);
  if (item)
    return { type: "item", indent: item[1]!.replace(/\t/g, "  ").length, marker: item[2]!, ordered: /\d/.test(item[2]!), text: item[3]! };
  const quote = /^\s*>\s?(.*)$/.exec(line);
  if (quote) return { type: "quote", text: quote[1]! };
  return { type: "line", text: line };
}

/** Inline markup: `marker` is how the source wrote it, for views that show it rather than style it. */
export type Inline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "strong"; marker: "**" | "__"; children: Inline[] }
  | { type: "emphasis"; marker: "*" | "_"; children: Inline[] }
  | { type: "link"; href: string; children: Inline[] };

const CODE = /`([^`\n]+)`/g;
// The target cannot hold a placeholder (below): a code span inside it leaves the link as text.
const LINK = /\[([^\]\n]+)\]\(([^()\s\uE000]+)\)/g;
/** Only targets that navigate somewhere: `javascript:`, `data:` and the like stay text. */
const SAFE_TARGET = /^(https?:\/\/|mailto:)/i;
const PLACEHOLDER = /\uE000(\d+)\uE001/;

/** The emphasis forms, tried at every position; at the same position the first listed wins. */
const EMPHASIS: ReadonlyArray<{ pattern: RegExp; node: (children: Inline[]) => Inline }> = [
  { pattern: /\*\*(?=\S)(.+?)(?<=\S)\*\*/, node: (children) => ({ type: "strong", marker: "**", children }) },
  { pattern: /(^|[^\w])__(?=\S)(.+?)(?<=\S)__(?!\w)/, node: (children) => ({ type: "strong", marker: "__", children }) },
  { pattern: /(^|[^*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?!\*)/, node: (children) => ({ type: "emphasis", marker: "*", children }) },
  { pattern: /(^|[^\w])_(?=[^\s_])(.+?)(?<=[^\s_])_(?!\w)/, node: (children) => ({ type: "emphasis", marker: "_", children }) },
];

/**
 * The inline markup of one line. Code spans are literal and links take only safe targets; both
 * are set aside as placeholders first, so emphasis can span them ("**see `x`**") but never
 * reach into them.
 */
export function parseInline(text: string): Inline[] {
  const atoms: Inline[] = [];
  const hold = (node: Inline): string => `\uE000${atoms.push(node) - 1}\uE001`;
  const masked = text
    // The placeholders' own characters (private use) cannot come from the text.
    .replace(/[\uE000\uE001]/g, "\uFFFD")
    .replace(CODE, (_, code: string) => hold({ type: "code", text: code }))
    .replace(LINK, (whole, label: string, href: string) =>
      SAFE_TARGET.test(href) ? hold({ type: "link", href, children: emphasis(label, atoms) }) : whole,
    );
  return emphasis(masked, atoms);
}

/** Emphasis, the leftmost first; its inside parsed the same way. */
function emphasis(text: string, atoms: readonly Inline[]): Inline[] {
  let first: { start: number; end: number; inner: string; node: (children: Inline[]) => Inline } | undefined;
  for (const { pattern, node } of EMPHASIS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const prefix = match.length > 2 ? match[1]!.length : 0;
    const start = match.index + prefix;
    if (!first || start < first.start) first = { start, end: match.index + match[0].length, inner: match[match.length - 1]!, node };
  }
  if (!first) return unmask(text, atoms);
  return [
    ...unmask(text.slice(0, first.start), atoms),
    first.node(emphasis(first.inner, atoms)),
    ...emphasis(text.slice(first.end), atoms),
  ];
}

/** Text with its placeholders put back as the code spans and links they stand for. */
function unmask(text: string, atoms: readonly Inline[]): Inline[] {
  const out: Inline[] = [];
  const parts = text.split(PLACEHOLDER);
  parts.forEach((part, index) => {
    if (index % 2 === 1) out.push(atoms[Number(part)]!);
    else if (part !== "") out.push({ type: "text", text: part });
  });
  return out;
}
