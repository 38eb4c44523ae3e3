import { markdownBlocks, parseInline, type Inline } from "./present/markdown.js";
import type { Style } from "./style.js";
import { wrapText } from "./wrap.js";

/**
 * Markdown for a terminal, over the shared parse (present/markdown.ts): headings in bold, list
 * items with a hanging indent, fenced code kept as it is (indented, not wrapped, dimmed), quotes
 * dimmed behind a bar, and every other line word-wrapped to `width`. Inline markup is styled
 * after wrapping, per wrapped line: `code` in cyan, **bold** in bold; italics and links keep
 * their markers (a terminal link must show its address).
 */
export function renderMarkdown(text: string, width: number, style: Style): string[] {
  return markdownBlocks(text).flatMap((block): string[] => {
    switch (block.type) {
      case "code":
        return block.lines.map((line) => style.dim(`  ${line}`));
      case "heading":
        return wrapText(block.text, width).map((part) => style.bold(part));
      case "item": {
        const first = `${" ".repeat(block.indent)}${block.ordered ? block.marker : "•"} `;
        return wrapText(block.text, width, first, " ".repeat(first.length)).map((part) => inline(part, style));
      }
      case "quote":
        return wrapText(block.text, width, "│ ").map((part) => style.dim(part));
      case "blank":
        return [""];
      case "rule":
      case "line":
        return wrapText(block.text, width).map((part) => inline(part, style));
    }
  });
}

/** The inline markup of one already-wrapped line. */
function inline(line: string, style: Style): string {
  return styled(parseInline(line), style);
}

function styled(nodes: Inline[], style: Style): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case "text":
          return node.text;
        case "code":
          return style.cyan(node.text);
        case "strong":
          return style.bold(styled(node.children, style));
        case "emphasis":
          return `${node.marker}${styled(node.children, style)}${node.marker}`;
        case "link":
          return `[${styled(node.children, style)}](${node.href})`;
      }
    })
    .join("");
}
