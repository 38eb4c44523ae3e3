import { Bm25Index, tokenize } from "../text/bm25.js";

/** What ToolSearch knows of a deferred tool. */
export interface SearchableTool {
  name: string;
  description: string;
}

/** A name part counts this much more than a word of the description: names are short and say what the tool is. */
const NAME_WEIGHT = 3;

/**
 * A tool name as words: `mcp__github__create_issue` → "github create issue", `NotebookEdit` →
 * "Notebook Edit", `list-pull-requests` → "list pull requests". The `mcp` prefix names no
 * purpose, so it is left out.
 */
export function nameWords(name: string): string {
  return name
    .replace(/^mcp__/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== "")
    .join(" ");
}

/**
 * The query's parts: `select:A,B` names tools exactly; otherwise keywords, where a `+word` must
 * occur in the tool's name (`+slack send`: Slack's tools, ranked by "send").
 */
export type ParsedQuery = { select: string[] } | { keywords: string; requiredInName: string[] };

export function parseToolQuery(query: string): ParsedQuery {
  const trimmed = query.trim();
  const select = /^select:(.*)$/is.exec(trimmed);
  if (select) {
    return {
      select: select[1]!
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== ""),
    };
  }
  const requiredInName = trimmed
    .split(/\s+/)
    .filter((word) => word.startsWith("+") && word.length > 1)
    .map((word) => word.slice(1).toLowerCase());
  return { keywords: trimmed.replace(/(^|\s)\+/g, "$1"), requiredInName };
}

/**
 * The tools that best match `keywords`, best first, at most `limit`: BM25 over each tool's
 * name words (weighted up) and description. Tools matching no keyword are left out, and so are
 * tools whose name lacks a required word. Pure.
 */
export function rankTools(tools: readonly SearchableTool[], keywords: string, requiredInName: readonly string[], limit: number): string[] {
  const candidates = tools.filter((tool) => {
    const name = tool.name.toLowerCase();
    return requiredInName.every((word) => name.includes(word));
  });
  if (tokenize(keywords).length === 0) return candidates.slice(0, limit).map((tool) => tool.name);
  const index = new Bm25Index(
    candidates.map((tool) => [
      { text: nameWords(tool.name), weight: NAME_WEIGHT },
      { text: tool.description, weight: 1 },
    ]),
  );
  return index
    .rank(keywords)
    .filter((entry) => entry.score > 0)
    .slice(0, limit)
    .map((entry) => candidates[entry.index]!.name);
}
