/**
 * `WebFetch(domain:example.com)`: a rule naming the host a URL points at. The host must be the
 * one named, exactly (letter case aside; any port): `domain:example.com` does not cover
 * `api.example.com`, so a rule never reaches further than the user wrote it.
 */
const DOMAIN_PREFIX = "domain:";

/** The host of a URL as rules compare it: lowercase, an IPv6 address without brackets. Undefined for no URL. */
export function urlHost(url: string): string | undefined {
  try {
    return normalHost(new URL(url).hostname);
  } catch {
    return undefined;
  }
}

/** Whether one rule's content (`domain:example.com`) names this host. */
export function domainRuleMatches(content: string, host: string): boolean {
  if (!content.startsWith(DOMAIN_PREFIX)) return false;
  return normalHost(content.slice(DOMAIN_PREFIX.length).trim()) === normalHost(host);
}

function normalHost(host: string): string {
  const lower = host.toLowerCase().replace(/\.$/, "");
  return lower.startsWith("[") && lower.endsWith("]") ? lower.slice(1, -1) : lower;
}
