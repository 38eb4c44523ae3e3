/** A link a web search found, as WebSearch's details list it. */
export interface SearchLink {
  title: string;
  url: string;
}

/**
 * The links of a WebSearch result, from its details (Claude Code's `{query, results: [{tool_use_id,
 * content: [{title, url}]}, "text"], …}`), every search's in order; undefined for any other
 * details. Checked by hand, like the other details shapes (no validation library in the page).
 */
export function searchLinks(details: unknown): SearchLink[] | undefined {
  if (typeof details !== "object" || details === null || Array.isArray(details)) return undefined;
  const { query, results } = details as { query?: unknown; results?: unknown };
  if (typeof query !== "string" || !Array.isArray(results)) return undefined;
  const links: SearchLink[] = [];
  for (const entry of results) {
    if (typeof entry === "string") continue;
    const content = (entry as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) return undefined;
    for (const link of content as Array<{ title?: unknown; url?: unknown } | null>) {
      if (typeof link?.url !== "string") return undefined;
      links.push({ title: typeof link.title === "string" && link.title !== "" ? link.title : link.url, url: link.url });
    }
  }
  return links;
}

/** A link as one line of text: its title, then its address. */
export function linkLine(link: SearchLink): string {
  return link.title === link.url ? link.url : `${link.title} — ${link.url}`;
}
