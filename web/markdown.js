/**
 * Light markdown → HTML for model answers: headings, lists (nested by indentation), fenced code,
 * block quotes, rules, paragraphs, `inline code`, **bold**, *italic*, and [links](https://…).
 * Every piece of the source text is HTML-escaped before tags are added around it, and a link
 * keeps its href only for http(s) and mailto, so model text can never inject markup or script.
 * Not a full CommonMark parser: what a model writes in an answer. An unclosed fence (an answer
 * still streaming) renders as code to the end.
 */

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
  /** @type {{ marker: string, language: string, lines: string[] } | undefined} */
  let fence;

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

  for (const line of String(text).replace(/\r\n?/g, "\n").split("\n")) {
    if (fence) {
      if (line.trim().startsWith(fence.marker)) {
        out.push(codeBlock(fence));
        fence = undefined;
      } else {
        fence.lines.push(line);
      }
      continue;
    }
    const fenceStart = /^\s*(```+|~~~+)\s*([\w+-]*)/.exec(line);
    if (fenceStart) {
      flushAll();
      fence = { marker: fenceStart[1], language: fenceStart[2], lines: [] };
      continue;
    }
    if (line.trim() === "") {
      // A blank line ends a paragraph or quote; a list survives it (loose lists), closed by other blocks.
      flushParagraph();
      flushQuote();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flushAll();
      const level = heading[1].length;
      out.push(`<h${level}>${renderInline(heading[2])}</h${level}>`);
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flushAll();
      out.push("<hr>");
      continue;
    }
    const item = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/.exec(line);
    if (item) {
      flushParagraph();
      flushQuote();
      const indent = item[1].replace(/\t/g, "  ").length;
      const tag = /\d/.test(item[2]) ? "ol" : "ul";
      closeLists(indent);
      const current = lists.at(-1);
      if (current && current.indent === indent && current.tag !== tag) closeLists(indent - 1);
      const open = lists.at(-1);
      if (open && open.indent === indent) {
        out.push(`</li><li>${renderInline(item[3])}`);
      } else {
        const start = tag === "ol" && parseInt(item[2], 10) !== 1 ? ` start="${parseInt(item[2], 10)}"` : "";
        out.push(`<${tag}${start}><li>${renderInline(item[3])}`);
        lists.push({ tag, indent });
      }
      continue;
    }
    const quoted = /^\s*>\s?(.*)$/.exec(line);
    if (quoted) {
      flushParagraph();
      closeLists();
      quote.push(quoted[1]);
      continue;
    }
    if (lists.length > 0 && /^\s+/.test(line) && paragraph.length === 0) {
      // An indented line under a list item continues that item.
      out.push(`<br>${renderInline(line.trim())}`);
      continue;
    }
    flushQuote();
    closeLists();
    paragraph.push(line);
  }
  if (fence) out.push(codeBlock(fence));
  flushAll();
  return out.join("");
}

function codeBlock({ language, lines }) {
  const label = language ? ` data-language="${escapeHtml(language)}"` : "";
  return `<pre${label}><code>${escapeHtml(lines.join("\n"))}</code></pre>`;
}

/** Inline markup of one line: code spans first (their text is literal), then links, then emphasis. */
export function renderInline(text) {
  return String(text)
    .split(/(`[^`\n]+`)/)
    .map((part, index) => (index % 2 === 1 ? `<code>${escapeHtml(part.slice(1, -1))}</code>` : renderLinks(part)))
    .join("");
}

function renderLinks(text) {
  const out = [];
  let last = 0;
  for (const match of text.matchAll(/\[([^\]\n]+)\]\(([^()\s]+)\)/g)) {
    out.push(emphasis(escapeHtml(text.slice(last, match.index))));
    const href = safeHref(match[2]);
    out.push(href ? `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${emphasis(escapeHtml(match[1]))}</a>` : emphasis(escapeHtml(match[0])));
    last = match.index + match[0].length;
  }
  out.push(emphasis(escapeHtml(text.slice(last))));
  return out.join("");
}

/** Only schemes that navigate: `javascript:`, `data:` and the like are dropped (the link shows as text). */
function safeHref(url) {
  return /^(https?:\/\/|mailto:)/i.test(url) ? url : undefined;
}

/** Bold and italic on already-escaped text (the markers are plain characters, so tags cannot leak in). */
function emphasis(escaped) {
  return escaped
    .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[^\w])__(?=\S)(.+?)(?<=\S)__(?!\w)/g, "$1<strong>$2</strong>")
    .replace(/(^|[^*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?!\*)/g, "$1<em>$2</em>")
    .replace(/(^|[^\w])_(?=[^\s_])(.+?)(?<=[^\s_])_(?!\w)/g, "$1<em>$2</em>");
}
