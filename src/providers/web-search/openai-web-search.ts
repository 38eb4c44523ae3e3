import type OpenAI from "openai";
import type { Response, ResponseCreateParamsNonStreaming } from "openai/resources/responses/responses";
import { toOpenAIErrorEvent } from "../openai-client.js";
import { toUsage } from "../openai-responses-stream.js";
import {
  filterLinks,
  SEARCH_SYSTEM_PROMPT,
  searchFailure,
  searchPrompt,
  type SearchModel,
  type WebSearchHits,
  type WebSearchLink,
  type WebSearchOutcome,
  type WebSearchRequest,
} from "./web-search.js";

/**
 * OpenAI's built-in `web_search` tool through the Responses API: one request (not streamed: only
 * the finished answer is used) offering that tool alone. The API takes an allow-list
 * (`filters.allowed_domains`) but no block-list, so blocked domains are filtered out here.
 */
export async function searchWithOpenAIResponses(
  client: OpenAI,
  request: WebSearchRequest,
  model: SearchModel,
  signal: AbortSignal,
): Promise<WebSearchOutcome> {
  const params: ResponseCreateParamsNonStreaming = {
    model: model.model,
    store: false,
    instructions: SEARCH_SYSTEM_PROMPT,
    input: searchPrompt(request.query),
    tools: [
      {
        type: "web_search",
        ...(request.allowedDomains?.length ? { filters: { allowed_domains: request.allowedDomains.map(bareDomain) } } : {}),
      },
    ],
    tool_choice: "auto",
    // Every page the search read, not only the ones the answer cites.
    include: ["web_search_call.action.sources"],
    max_output_tokens: model.maxOutputTokens,
  };
  let response: Response;
  try {
    response = await client.responses.create(params, { signal });
  } catch (error) {
    throw searchFailure(toOpenAIErrorEvent(error, signal, `${client.baseURL}/responses`) as { message: string });
  }
  return outcomeOf(response, request, model.model);
}

/** OpenAI wants domains without a scheme or path ("openai.com", not "https://openai.com/"). */
function bareDomain(domain: string): string {
  return domain.replace(/^https?:\/\//, "").replace(/\/.*$/, "");
}

/**
 * The searches (`web_search_call` items) and the answer (message text), in output order. A
 * search lists the sources it read when the API returns them, else the answer's citations.
 */
function outcomeOf(response: Response, request: WebSearchRequest, model: string): WebSearchOutcome {
  const citations: WebSearchLink[] = [];
  const texts: string[] = [];
  for (const item of response.output) {
    if (item.type !== "message") continue;
    for (const part of item.content) {
      if (part.type !== "output_text") continue;
      texts.push(part.text);
      for (const note of part.annotations) if (note.type === "url_citation") citations.push({ title: note.title, url: note.url });
    }
  }
  const titleOf = (url: string): string => citations.find((link) => link.url === url)?.title ?? url;
  const searches: WebSearchHits[] = [];
  let searchCount = 0;
  for (const item of response.output) {
    if (item.type !== "web_search_call") continue;
    if (item.action?.type === "search") searchCount += 1;
    const sources = item.action?.type === "search" ? (item.action.sources ?? []) : [];
    searches.push({ toolUseId: item.id, links: sources.map((source) => ({ title: titleOf(source.url), url: source.url })) });
  }
  if (citations.length > 0 && searches.every((search) => search.links.length === 0)) {
    if (searches.length === 0) searches.push({ toolUseId: `ws_${response.id}`, links: [] });
    searches[searches.length - 1]!.links = citations;
  }
  const text = texts.join("\n\n");
  return {
    results: [
      ...searches.map((search) => ({ toolUseId: search.toolUseId, links: filterLinks(search.links, request) })),
      ...(text ? [text] : []),
    ],
    searchCount,
    usage: { usage: toUsage(response.usage), model },
  };
}
