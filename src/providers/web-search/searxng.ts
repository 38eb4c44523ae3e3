import * as z from "zod";
import { nodeHttpFetch } from "../node-http-fetch.js";
import { linkAllowed, uniqueLinks, type WebSearchOutcome, type WebSearchRequest } from "./web-search.js";

/** Results passed on from one search: a model reads the first page of results, not fifty. */
const MAX_RESULTS = 10;
const TIMEOUT_MS = 30_000;

/** The part of SearXNG's JSON answer (`/search?format=json`) that is used. */
const SearxngAnswerSchema = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().optional(),
      content: z.string().nullable().optional(),
    }),
  ),
});

/**
 * A search through a SearXNG instance's JSON API, for providers without a search of their own.
 * No model is involved: the answer's text is the results' own snippets. SearXNG has no domain
 * filter that works across its engines, so both lists are applied to the results here.
 *
 * Contract: rejects with an Error naming the instance and what went wrong (unreachable, HTTP
 * status — SearXNG answers 403 when its `search.formats` setting lacks `json` — or a body that
 * is not its JSON answer).
 */
export async function searchWithSearxng(baseUrl: string, request: WebSearchRequest, signal: AbortSignal): Promise<WebSearchOutcome> {
  const url = new URL("search", baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  url.searchParams.set("q", request.query);
  url.searchParams.set("format", "json");
  let body: unknown;
  try {
    const response = await nodeHttpFetch(url, {
      headers: { accept: "application/json" },
      signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
    });
    if (!response.ok) {
      const hint = response.status === 403 ? " (is `json` listed in the instance's search.formats setting?)" : "";
      throw new Error(`HTTP ${response.status}${hint}`);
    }
    body = await response.json();
  } catch (error) {
    throw new Error(`The SearXNG search at ${url.origin} failed: ${(error as Error).message}`);
  }
  const parsed = SearxngAnswerSchema.safeParse(body);
  if (!parsed.success) throw new Error(`The SearXNG search at ${url.origin} answered with something other than its JSON results.`);
  const kept = parsed.data.results.filter((result) => linkAllowed(result.url, request)).slice(0, MAX_RESULTS);
  const links = uniqueLinks(kept.map((result) => ({ title: result.title || result.url, url: result.url })));
  const snippets = kept
    .filter((result) => result.content)
    .map((result, index) => `${index + 1}. ${result.title || result.url}: ${result.content!.trim()}`)
    .join("\n");
  return {
    results: [{ toolUseId: "searxng", links }, ...(snippets ? [`Snippets from the results:\n${snippets}`] : [])],
    searchCount: 1,
  };
}
