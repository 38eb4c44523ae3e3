import type { Style } from "./style.js";
import { wrapText } from "./wrap.js";

/**
 * Light markdown for a terminal: headings in bold, list items with a hanging indent, fenced code
 * kept as it is (indented, not wrapped, dimmed), `inline code` in cyan, **bold** in bold, and
 * every other paragraph line word-wrapped to `width`. Not a full markdown parser: what a model
 * writes in an answer, readable without a renderer library.
 */
export function renderMarkdown(text: string, width: number, style: Style): string[] {
  const out: string[] = [];
  let inFence = false;
  for (const line of text.split("\n")) {
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      out.push(style.dim(`  ${line}`));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      out.push(...wrapText(heading[2]!, width).map((part) => style.bold(part)));
      continue;
    }
    const item = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      const bullet = /\d/.test(item[2]!) ? item[2]! : "•";
      const indent = item[1]!.replace(/\t/g, "  ");
      const first = `${indent}${bullet} `;
      out.push(...wrapText(item[3]!, width, first, " ".repeat(first.length)).map((part) => inline(part, style)));
      continue;
    }
    if (line.trim() === "") {
      out.push("");
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(line);
    if (quote) {
      out.push(...wrapText(quote[1]!, width, "│ ").map((part) => style.dim(part)));
      continue;
    }
    out.push(...wrapText(line, width).map((part) => inline(part, style)));
  }
  return out;
}

/** `code` and **bold** inside one already-wrapped line. */
function inline(line: string, style: Style): string {
  return line.replace(/`([^`]+)`/g, (_, code: string) => style.cyan(code)).replace(/\*\*([^*]+)\*\*/g, (_, bold: string) => style.bold(bold));
}
