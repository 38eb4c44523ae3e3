import type { BaseAnthropic } from "@anthropic-ai/sdk/client";
import type { Stream } from "@anthropic-ai/sdk/core/streaming";
import type { RawMessageStreamEvent, WebSearchTool20250305 } from "@anthropic-ai/sdk/resources/messages/messages";
import { toErrorEvent, toUsage, usageUpdate } from "../anthropic-wire.js";
import { emptyUsage, mergeUsage, type Usage } from "../types.js";
import {
  appendText,
  filterLinks,
  SEARCH_SYSTEM_PROMPT,
  searchFailure,
  searchPrompt,
  type SearchModel,
  type WebSearchOutcome,
  type WebSearchRequest,
} from "./web-search.js";

/** Searches a request may run: the limit Claude Code sets on its search requests. */
const MAX_SEARCHES = 8;

/**
 * Anthropic's server-side search: one streamed Messages request that offers only the
 * `web_search_20250305` tool, as Claude Code makes it. The API runs the searches itself and
 * streams `server_tool_use` and `web_search_tool_result` blocks between the model's text.
 */
export async function searchWithAnthropic(
  client: BaseAnthropic,
  request: WebSearchRequest,
  model: SearchModel,
  signal: AbortSignal,
): Promise<WebSearchOutcome> {
  const tool: WebSearchTool20250305 = {
    type: "web_search_20250305",
    name: "web_search",
    ...(request.allowedDomains?.length ? { allowed_domains: [...request.allowedDomains] } : {}),
    ...(request.blockedDomains?.length ? { blocked_domains: [...request.blockedDomains] } : {}),
    max_uses: MAX_SEARCHES,
  };
  const collector = new SearchStreamCollector(request);
  try {
    const stream = await client.post<Stream<RawMessageStreamEvent>>("/v1/messages", {
      body: {
        model: model.model,
        max_tokens: model.maxOutputTokens,
        stream: true,
        system: SEARCH_SYSTEM_PROMPT,
        messages: [{ role: "user", content: searchPrompt(request.query) }],
        tools: [tool],
        tool_choice: { type: "auto" },
      },
      stream: true,
      signal,
    });
    for await (const event of stream) collector.add(event);
  } catch (error) {
    throw searchFailure(toErrorEvent(error, signal, `${client.baseURL}/v1/messages`) as { message: string });
  }
  if (!collector.finished) throw new Error("The search response ended before message_stop.");
  return collector.outcome(model.model);
}

/** Gathers the search results and the answer's text from the stream, in order. */
class SearchStreamCollector {
  finished = false;
  private readonly results: WebSearchOutcome["results"] = [];
  private usage: Usage = emptyUsage();
  private searchRequests: number | undefined;
  private startedSearches = 0;

  constructor(private readonly request: WebSearchRequest) {}

  add(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case "message_start":
        this.usage = toUsage(event.message.usage);
        return;
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "server_tool_use" && block.name === "web_search") this.startedSearches += 1;
        else if (block.type === "web_search_tool_result") {
          if (Array.isArray(block.content)) {
            const links = block.content.map((hit) => ({ title: hit.title, url: hit.url }));
            this.results.push({ toolUseId: block.tool_use_id, links: filterLinks(links, this.request) });
          } else appendText(this.results, `Web search error: ${block.content.error_code}`);
        } else if (block.type === "text") appendText(this.results, block.text);
        return;
      }
      case "content_block_delta":
        if (event.delta.type === "text_delta") appendText(this.results, event.delta.text);
        return;
      case "message_delta":
        this.usage = mergeUsage(this.usage, usageUpdate(event.usage));
        if (event.usage.server_tool_use) this.searchRequests = event.usage.server_tool_use.web_search_requests;
        return;
      case "message_stop":
        this.finished = true;
        return;
    }
  }

  outcome(model: string): WebSearchOutcome {
    return {
      results: this.results,
      // The billed count when the API reports one, else the searches the stream showed.
      searchCount: this.searchRequests ?? this.startedSearches,
      usage: { usage: this.usage, model },
    };
  }
}
