import { describe, expect, it } from "vitest";
import { htmlToMarkdown, PageConversionError } from "../../../src/tools/web/html-markdown.js";

// A table whose GFM conversion takes minutes (its time grows much faster than its size), though
// the page is only ~150 KB: what a hostile site serves to stall a session.
const SLOW_TABLE = `<table>${"<tr><td>a</td><td>b</td></tr>".repeat(5000)}</table>`;

describe("htmlToMarkdown", () => {
  it("converts a page in a worker: title first, GFM tables, scripts dropped", async () => {
    const markdown = await htmlToMarkdown(
      "<html><head><title>T</title><script>var X=1</script></head><body><h1>H</h1><table><tr><th>a</th></tr><tr><td>b</td></tr></table></body></html>",
      new AbortController().signal,
    );
    expect(markdown.startsWith("T")).toBe(true);
    expect(markdown).toContain("H\n=");
    expect(markdown).toContain("| a   |\n| --- |\n| b   |");
    expect(markdown).not.toContain("var X");
  });

  it("gives up on a page whose conversion outlasts its time, and the main thread stays free meanwhile", async () => {
    const startedAt = Date.now();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    try {
      await expect(htmlToMarkdown(SLOW_TABLE, new AbortController().signal, 1500)).rejects.toThrow(PageConversionError);
    } finally {
      clearInterval(ticker);
    }
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(ticks).toBeGreaterThan(10);
  });

  it("stops at once when aborted", async () => {
    const controller = new AbortController();
    const converting = htmlToMarkdown(SLOW_TABLE, controller.signal);
    setTimeout(() => controller.abort(new Error("interrupted")), 300);
    const startedAt = Date.now();
    await expect(converting).rejects.toThrow("interrupted");
    expect(Date.now() - startedAt).toBeLessThan(5_000);
  });
});
