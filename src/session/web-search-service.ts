import type { Provider } from "../providers/types.js";
import { WebSearchUnavailable, type WebSearchCapability } from "../tools/define-tool.js";
import type { SessionAccounting } from "./turn-accounting.js";

/** The environment variable (or settings `env` entry) naming a SearXNG instance for WebSearch. */
export const SEARXNG_URL_VARIABLE = "AGENTWIRE_SEARXNG_URL";

const NOT_CONFIGURED = `Web search is not available with this provider: its API has no search of its own. To search, point ${SEARXNG_URL_VARIABLE} at a SearXNG instance whose settings allow the json format (search.formats), in the environment or in a settings file's "env" (e.g. {"env": {"${SEARXNG_URL_VARIABLE}": "http://localhost:8888"}}), or use a provider with a search of its own (anthropic, gemini, or openai with --openai-api responses).`;

export interface WebSearchServiceOptions {
  provider: Provider;
  model: string;
  maxOutputTokens: number;
  /** SEARXNG_URL_VARIABLE's value: the backend for providers without a search of their own. */
  searxngUrl: string | undefined;
  accounting: SessionAccounting;
}

/**
 * WebSearch's capability for one turn: the provider's own search when its API has one, else the
 * configured SearXNG instance, else a WebSearchUnavailable saying how to configure one. A search
 * that ran a model is counted beside the conversation (modelUsage, cost and webSearchRequests,
 * not the result's usage), as Claude Code counts it.
 */
export function webSearchService(options: WebSearchServiceOptions): WebSearchCapability {
  return async (query, signal) => {
    const { provider, accounting } = options;
    const native = await provider.webSearch?.(query, { model: options.model, maxOutputTokens: options.maxOutputTokens }, signal);
    if (native) {
      if (native.usage) accounting.addSideUsage(native.usage.usage, native.usage.model, native.searchCount);
      return native;
    }
    if (!options.searxngUrl) throw new WebSearchUnavailable(NOT_CONFIGURED);
    if (!/^https?:\/\/[^/]/i.test(options.searxngUrl))
      throw new WebSearchUnavailable(
        `${SEARXNG_URL_VARIABLE} must be an http(s) URL of a SearXNG instance; it is "${options.searxngUrl}".`,
      );
    const { searchWithSearxng } = await import("../providers/web-search/searxng.js");
    return searchWithSearxng(options.searxngUrl, query, signal);
  };
}
