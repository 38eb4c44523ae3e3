import * as z from "zod/mini";
import "../validation/english-issues.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";
import { defineTool, toolError, WebSearchUnavailable, type WebSearchAnswer } from "./define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";

const description = `Searches the web and answers with the links found (titles and URLs) and a short summary of the results.

- Use it for anything newer than your training data or that needs a current source; today's date is given in the conversation.
- \`allowed_domains\` keeps only results from those sites, \`blocked_domains\` drops results from those sites (one or the other, not both).
- When you answer from the results, finish with a "Sources:" list of the pages you used, as markdown links.`;

const inputSchema = lazySchema(() =>
  z.strictObject({
    query: z.string().check(z.minLength(2), z.describe("What to search for")),
    allowed_domains: z.optional(z.array(z.string())).check(z.describe("Keep only results from these domains")),
    blocked_domains: z.optional(z.array(z.string())).check(z.describe("Drop results from these domains")),
  }),
);

export const createWebSearchTool = () =>
  defineTool({
    name: "WebSearch",
    description,
    get inputSchema() {
      return inputSchema();
    },
    ...BUILTIN_TOOL_TRAITS.WebSearch,
    async execute(input, context): Promise<ToolResult> {
      if (input.allowed_domains?.length && input.blocked_domains?.length)
        return toolError("invalid_input", "Give allowed_domains or blocked_domains, not both in one search.");
      if (!context.webSearch) return toolError("not_configured", "Web search is not available here.");
      const startedAt = Date.now();
      let answer: WebSearchAnswer;
      try {
        answer = await context.webSearch(
          {
            query: input.query,
            ...(input.allowed_domains?.length ? { allowedDomains: input.allowed_domains } : {}),
            ...(input.blocked_domains?.length ? { blockedDomains: input.blocked_domains } : {}),
          },
          context.signal,
        );
      } catch (error) {
        if (context.signal.aborted) return toolError("aborted", "The search was interrupted.");
        return toolError(error instanceof WebSearchUnavailable ? "not_configured" : "io_error", (error as Error).message);
      }
      return {
        content: searchResultText(input.query, answer),
        isError: false,
        // Claude Code's WebSearch output shape.
        details: {
          query: input.query,
          results: answer.results.map((entry) =>
            typeof entry === "string" ? entry : { tool_use_id: entry.toolUseId, content: entry.links },
          ),
          durationSeconds: (Date.now() - startedAt) / 1000,
          searchCount: answer.searchCount,
        },
      };
    },
  });

/**
 * What the model reads, laid out as Claude Code lays it out: a heading with the query, each
 * search's links as a JSON list, the summary, then a reminder to cite. Pure.
 */
export function searchResultText(query: string, answer: WebSearchAnswer): string {
  const parts = answer.results.map((entry) => (typeof entry === "string" ? entry.trim() : `Links: ${JSON.stringify(entry.links)}`));
  const body = parts.filter((part) => part !== "").join("\n\n") || "The search found nothing.";
  return `Web search results for query: "${query}"\n\n${body}\n\n\nREMINDER: Cite the sources above in your reply to the user, as markdown links.`;
}
