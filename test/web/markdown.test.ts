import { describe, expect, it } from "vitest";
import { escapeHtml, renderMarkdown } from "../../web/markdown.js";

describe("web page markdown", () => {
  it("renders headings, lists, code, emphasis and links", () => {
    const html = renderMarkdown(
      [
        "# Title",
        "",
        "Some **bold**, *italic* and `code`.",
        "",
        "- one",
        "- two",
        "  - nested",
        "1. first",
        "",
        "```ts",
        "const a = 1 < 2;",
        "```",
        "[docs](https://example.com/a?b=1&c=2)",
      ].join("\n"),
    );
    expect(html).toBe(
      [
        "<h1>Title</h1>",
        "<p>Some <strong>bold</strong>, <em>italic</em> and <code>code</code>.</p>",
        "<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>",
        "<ol><li>first</li></ol>",
        '<pre data-language="ts"><code>const a = 1 &lt; 2;</code></pre>',
        '<p><a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">docs</a></p>',
      ].join(""),
    );
  });

  it("never lets model text inject markup", () => {
    const attacks = [
      "<script>alert(1)</script>",
      '<img src=x onerror="alert(1)">',
      "**<b onmouseover=alert(1)>x</b>**",
      "`</code><script>alert(1)</script>`",
      "[click](javascript:alert(1))",
      '[x](https://a.example/"onmouseover="alert(1))',
      "# <iframe src=//evil>",
      "- <style>body{}</style>",
      "> <a href=javascript:alert(1)>q</a>",
      "```\n</pre><script>alert(1)</script>\n```",
    ];
    for (const attack of attacks) {
      const html = renderMarkdown(attack);
      // Only the renderer's own tags appear; every `<` from the source is escaped.
      const tags = [...html.matchAll(/<\/?([a-z0-9]+)/g)].map((match) => match[1]);
      expect(
        tags.every((tag) => ["p", "br", "strong", "em", "code", "pre", "a", "h1", "ul", "li", "blockquote"].includes(tag!)),
        `${attack} → ${html}`,
      ).toBe(true);
      expect(html).not.toMatch(/href="javascript/i);
      expect(html).not.toMatch(/<a [^>]*on\w+=/i);
    }
    expect(renderMarkdown("[click](javascript:alert(1))")).toBe("<p>[click](javascript:alert(1))</p>");
  });

  it("keeps an unclosed fence as code (a streaming answer) and leaves snake_case alone", () => {
    expect(renderMarkdown("```\nlet x")).toBe("<pre><code>let x</code></pre>");
    expect(renderMarkdown("call read_file_now and 2*3*4")).toBe("<p>call read_file_now and 2*3*4</p>");
  });

  it("escapes quotes and ampersands", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  });
});
