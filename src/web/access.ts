import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** Who may talk to the server: the bearer of its token, through a Host name that is its own. */
export interface AccessPolicy {
  token: string;
  /** The host the server listens on (`127.0.0.1`, `0.0.0.0`, a name). */
  boundHost: string;
  port: number;
}

export type AccessDecision = { allowed: true } | { allowed: false; status: 401 | 403; error: string };

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);
const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]"]);

/** Whether the server listens on every address (`0.0.0.0`, `::`). */
export function isWildcardHost(host: string): boolean {
  return WILDCARD_HOSTS.has(host);
}

/**
 * Every request is checked, whatever the address it came from:
 * - `Host` must name this server (a loopback name, the bound host, or, on a wildcard bind, an IP
 *   literal): a DNS name pointing at it is how a rebinding attack reaches a local server;
 * - an `Origin`, when sent, must be this server's own, and a request that changes state must
 *   either come with that Origin or carry the token in `Authorization` (a script, not a page):
 *   another site's page can make the browser send a request, never with our Origin;
 * - the token must come in `Authorization: Bearer` (the page sends it from its tab's storage) or
 *   as `?token=` on a GET (the printed link, and the page's event stream, which cannot set
 *   headers). Never in a cookie: cookies are not kept apart by port, so any other server on
 *   127.0.0.1 that the browser is made to open would receive it.
 * `withoutToken`: the page's own files, which hold no secret and load before it has the token.
 */
export function checkAccess(request: IncomingMessage, url: URL, policy: AccessPolicy, withoutToken = false): AccessDecision {
  const host = request.headers.host ?? "";
  if (!hostIsOurs(host, policy)) return { allowed: false, status: 403, error: `Host "${host}" is not this server.` };
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`)
    return { allowed: false, status: 403, error: "Cross-origin requests are not accepted." };
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
  const changesState = request.method !== "GET" && request.method !== "HEAD";
  if (changesState && origin === undefined && bearer === undefined)
    return { allowed: false, status: 403, error: "A request that changes state needs this server's Origin or an Authorization header." };
  if (withoutToken && request.method === "GET") return { allowed: true };
  const queryToken = request.method === "GET" ? (url.searchParams.get("token") ?? undefined) : undefined;
  const presented = bearer ?? queryToken;
  if (presented === undefined || !sameSecret(presented, policy.token))
    return { allowed: false, status: 401, error: "The access token is missing or wrong: open the URL agentwire web printed." };
  return { allowed: true };
}

function hostIsOurs(hostHeader: string, policy: AccessPolicy): boolean {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hostHeader);
  if (!match || Number(match[2] ?? 80) !== policy.port) return false;
  const name = match[1]!.toLowerCase();
  if (LOOPBACK_NAMES.has(name) || name === policy.boundHost.toLowerCase()) return true;
  return WILDCARD_HOSTS.has(policy.boundHost) && (/^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.startsWith("["));
}

function sameSecret(presented: string, token: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase());
}
