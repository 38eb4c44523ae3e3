import { isIP } from "node:net";

/** A URL WebFetch may request, or why not. Pure. */
export type FetchTarget = { url: URL; host: string } | { refusal: string };

/**
 * Checks the URL the model gave and decides what to request:
 * - only http and https, no user name or password in the URL (they would reach the server);
 * - a host name without a dot (`localhost`, a machine on the local network) is refused, as in
 *   Claude Code, unless an allow rule names it;
 * - `http://` is upgraded to `https://` as Claude Code does, except for a host an allow rule
 *   names: that is how a user opens a local plain-HTTP server to the model (protocol/README.md).
 * The host's address is checked later, when it is resolved (see http-get.ts).
 */
export function fetchTarget(text: string, ruleNamesHost: (host: string) => boolean): FetchTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { refusal: `"${text}" is not a valid URL; give a full address such as https://example.com/page.` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { refusal: `WebFetch fetches http and https pages only, not ${url.protocol.slice(0, -1)} URLs.` };
  if (url.username !== "" || url.password !== "")
    return { refusal: "WebFetch does not send credentials: remove the user name and password from the URL." };
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const named = ruleNamesHost(host);
  if (!named && isIP(host) === 0 && !host.includes("."))
    return {
      refusal: `WebFetch does not fetch ${host} or other host names without a dot (local machines). Use Bash with curl for a local server, or allow the host with a WebFetch(domain:${host}) rule.`,
    };
  if (url.protocol === "http:" && !named) url.protocol = "https:";
  url.hash = "";
  return { url, host };
}

/**
 * Whether a redirect stays on the same site and is followed: the same host, or the host with
 * or without a leading `www.`. Anything else goes back to the model to decide.
 */
export function sameSite(from: URL, to: URL): boolean {
  const bare = (host: string) => host.toLowerCase().replace(/^www\./, "");
  return bare(from.hostname) === bare(to.hostname);
}
