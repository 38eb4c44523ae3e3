import type { WebSearchHits, WebSearchLink, WebSearchRequest } from "../types.js";

export type { SearchModel, WebSearchHits, WebSearchLink, WebSearchOutcome, WebSearchRequest } from "../types.js";

/** The side request's instructions (in agentwire's words): search once, then summarise briefly. */
export const SEARCH_SYSTEM_PROMPT =
  "You are searching the web on behalf of another AI model, which is waiting for your answer and may search again itself. Run one search, then reply with a short summary of what the results say.";

export function searchPrompt(query: string): string {
  return `Search the web for: ${query}`;
}

/** The host of a URL, lower-cased; undefined for text that is not an absolute URL. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** A host matches a domain when it is the domain or one of its subdomains ("docs.x.org" matches "x.org"). */
function hostMatches(host: string, domain: string): boolean {
  const wanted = domain
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/\/.*$/, "")
    .replace(/^\*?\./, "");
  return wanted !== "" && (host === wanted || host.endsWith(`.${wanted}`));
}

/**
 * Whether a link passes the request's domain filters. Pure. A link whose URL has no host never
 * passes an allow-list. Used for every service, also the ones that filter themselves: the filter
 * is a promise to the user, so it is kept here whatever a vendor does.
 */
export function linkAllowed(url: string, request: Pick<WebSearchRequest, "allowedDomains" | "blockedDomains">): boolean {
  return hostAllowed(hostOf(url), request);
}

/** The domain filters applied to a host name (undefined: not known). Pure. */
export function hostAllowed(host: string | undefined, request: Pick<WebSearchRequest, "allowedDomains" | "blockedDomains">): boolean {
  const name = host?.toLowerCase();
  if (request.allowedDomains && request.allowedDomains.length > 0) {
    if (!name || !request.allowedDomains.some((domain) => hostMatches(name, domain))) return false;
  }
  if (name && request.blockedDomains?.some((domain) => hostMatches(name, domain))) return false;
  return true;
}

/** The links that pass the filters, each URL once (the first title wins). Pure. */
export function filterLinks(links: readonly WebSearchLink[], request: WebSearchRequest): WebSearchLink[] {
  return uniqueLinks(links.filter((link) => linkAllowed(link.url, request)));
}

/** Each URL once, the first title kept. Pure. */
export function uniqueLinks(links: readonly WebSearchLink[]): WebSearchLink[] {
  const seen = new Set<string>();
  return links.filter((link) => !seen.has(link.url) && seen.add(link.url));
}

/** An Error for a failed search request, from the provider's own error event. */
export function searchFailure(event: { message: string }): Error {
  return new Error(event.message);
}

/**
 * Appends text to the outcome's results: consecutive pieces (a cited answer arrives as many
 * small text blocks) become one string.
 */
export function appendText(results: Array<WebSearchHits | string>, text: string): void {
  if (text === "") return;
  const last = results.length - 1;
  if (typeof results[last] === "string") results[last] += text;
  else results.push(text);
}
