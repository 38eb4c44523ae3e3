import type { ResponseTurn, ScriptedWebSearch } from "./scenario.js";

/**
 * What the fake search services share: the domain filters a real service applies (Anthropic's
 * `allowed_domains` / `blocked_domains`, OpenAI's `filters.allowed_domains`), read from the
 * request so a test sees whether they were sent, and SearXNG's JSON answer.
 */

interface DomainFilters {
  allowed?: readonly string[] | undefined;
  blocked?: readonly string[] | undefined;
}

/** The filters the request's search tool carries: Anthropic's `web_search_*` or OpenAI's `web_search`. */
export function requestedDomainFilters(body: Record<string, unknown>): DomainFilters {
  const tools = Array.isArray(body.tools) ? (body.tools as Array<Record<string, unknown>>) : [];
  const tool = tools.find((candidate) => typeof candidate.type === "string" && candidate.type.startsWith("web_search"));
  if (!tool) return {};
  const list = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined);
  const filters = (tool.filters ?? {}) as Record<string, unknown>;
  return { allowed: list(tool.allowed_domains) ?? list(filters.allowed_domains), blocked: list(tool.blocked_domains) };
}

/** The turn with its search results narrowed to what the filters let through. Pure. */
export function withFilteredSearch(turn: ResponseTurn, filters: DomainFilters): ResponseTurn {
  if (!turn.web_search || (!filters.allowed?.length && !filters.blocked?.length)) return turn;
  const matches = (url: string, domain: string) => {
    const host = new URL(url).hostname;
    return host === domain || host.endsWith(`.${domain}`);
  };
  const results = turn.web_search.results.filter(
    (result) =>
      (!filters.allowed?.length || filters.allowed.some((domain) => matches(result.url, domain))) &&
      !filters.blocked?.some((domain) => matches(result.url, domain)),
  );
  return { ...turn, web_search: { ...turn.web_search, results } };
}

/** A SearXNG instance's `/search?format=json` answer for a scripted search. */
export function encodeSearxngAnswer(query: string, search: ScriptedWebSearch): Record<string, unknown> {
  return {
    query,
    number_of_results: search.results.length,
    results: search.results.map((result, index) => ({
      url: result.url,
      title: result.title,
      content: result.snippet ?? "",
      engine: "mock",
      engines: ["mock"],
      positions: [index + 1],
      score: 1 / (index + 1),
      category: "general",
    })),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  };
}
