/// <reference path="./html-libraries.d.ts" />
import { gfm } from "@joplin/turndown-plugin-gfm";
import TurndownService from "turndown";

/**
 * An HTML page as markdown, in the style Claude Code's WebFetch gives the model (turndown's:
 * setext headings, `*` bullets) with GitHub tables. Scripts, styles and other content no reader
 * sees are dropped; the `<title>` comes first, as the text of the page's head. Loaded only when
 * a fetched page is HTML: the DOM parser behind turndown is large.
 */
export function htmlToMarkdown(html: string): string {
  converter ??= new TurndownService({ headingStyle: "setext", codeBlockStyle: "fenced" })
    .use(gfm)
    .remove(["script", "style", "noscript", "template", "iframe", "object", "embed"]);
  return converter
    .turndown(html)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

let converter: TurndownService | undefined;
