/**
 * Model answers as HTML, over the markdown parse every view shares (src/render/present/):
 * paragraphs (lines joined by <br>), block quotes, lists nested by indentation, code blocks and
 * inline markup. Every piece of text is HTML-escaped where it is written out, and the parse only
 * makes links of http(s) and mailto targets, so model text can never inject markup or script.
 */
import { markdownBlocks, parseInline } from "../src/render/present/index.ts";

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

export function renderMarkdown(text) {
  const out = [];
  let paragraph = [];
  let quote = [];
  /** Open lists, outermost first: { tag: "ul" | "ol", indent }. */
  const lists = [];

  const flushParagraph = () => {
    if (paragraph.length > 0) out.push(`<p>${paragraph.map(renderInline).join("<br>")}</p>`);
    paragraph = [];
  };
  const flushQuote = () => {
    if (quote.length > 0) out.push(`<blockquote>${quote.map(renderInline).join("<br>")}</blockquote>`);
    quote = [];
  };
  const closeLists = (deeperThan = -1) => {
    while (lists.length > 0 && lists.at(-1).indent > deeperThan) out.push(`</li></${lists.pop().tag}>`);
  };
  const flushAll = () => {
    flushParagraph();
    flushQuote();
    closeLists();
  };

  for (const block of markdownBlocks(String(text))) {
    switch (block.type) {
      case "code": {
        flushAll();
        const label = block.language ? ` data-language="${escapeHtml(block.language)}"` : "";
        out.push(`<pre${label}><code>${escapeHtml(block.lines.join("\n"))}</code></pre>`);
        break;
      }
      case "blank":
        // A blank line ends a paragraph or quote; a list survives it (loose lists), closed by other blocks.
        flushParagraph();
        flushQuote();
        break;
      case "heading":
        flushAll();
        out.push(`<h${block.level}>${renderInline(block.text)}</h${block.level}>`);
        break;
      case "rule":
        flushAll();
        out.push("<hr>");
        break;
      case "item":
        flushParagraph();
        flushQuote();
        listItem(out, lists, block, closeLists);
        break;
      case "quote":
        flushParagraph();
        closeLists();
        quote.push(block.text);
        break;
      case "line":
        if (lists.length > 0 && /^\s+/.test(block.text) && paragraph.length === 0) {
          // An indented line under a list item continues that item.
          out.push(`<br>${renderInline(block.text.trim())}`);
          break;
        }
        flushQuote();
        closeLists();
        paragraph.push(block.text);
        break;
    }
  }
  flushAll();
  return out.join("");
}

/** An item opens a list deeper than the open ones, or continues the open list at its indent. */
function listItem(out, lists, { indent, ordered, marker, text }, closeLists) {
  const tag = ordered ? "ol" : "ul";
  closeLists(indent);
  const current = lists.at(-1);
  if (current && current.indent === indent && current.tag !== tag) closeLists(indent - 1);
  const open = lists.at(-1);
  if (open && open.indent === indent) {
    out.push(`</li><li>${renderInline(text)}`);
    return;
  }
  const number = parseInt(marker, 10);
  const start = ordered && number !== 1 ? ` start="${number}"` : "";
  out.push(`<${tag}${start}><li>${renderInline(text)}`);
  lists.push({ tag, indent });
}

/** One line's inline markup as HTML. */
export function renderInline(text) {
  return inlineHtml(parseInline(String(text)));
}

/** @param {import("../src/render/present/index.ts").Inline[]} nodes */
function inlineHtml(nodes) {
  return nodes
    .map((node) => {
      switch (node.type) {
        case "text":
          return escapeHtml(node.text);
        case "code":
          return `<code>${escapeHtml(node.text)}</code>`;
        case "strong":
          return `<strong>${inlineHtml(node.children)}</strong>`;
        case "emphasis":
          return `<em>${inlineHtml(node.children)}</em>`;
        case "link":
          return `<a href="${escapeHtml(node.href)}" target="_blank" rel="noopener noreferrer">${inlineHtml(node.children)}</a>`;
        default:
          return "";
      }
    })
    .join("");
}
