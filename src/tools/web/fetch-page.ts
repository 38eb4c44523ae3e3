import { forbiddenAddressReason } from "./address-guard.js";
import { fetchTarget, sameSite } from "./fetch-target.js";
import { httpGet, type HttpGetOptions } from "./http-get.js";

/** What one fetch brought back: the page as markdown, or a redirect to another site for the model to decide on. */
export type FetchedPage =
  | { kind: "page"; url: string; code: number; codeText: string; bytes: number; markdown: string; truncated: boolean }
  | { kind: "redirect"; url: string; code: number; codeText: string; location: string }
  | { kind: "failed"; url: string; code: number; codeText: string; message: string };

export interface FetchPageOptions {
  signal: AbortSignal;
  ruleNamesHost: (host: string) => boolean;
  resolve?: HttpGetOptions["resolve"];
}

/** Larger pages are cut here (counted decompressed); Claude Code's cap too. */
const MAX_BYTES = 10 * 1024 * 1024;
const TIMEOUT_MS = 60_000;
/** Same-site redirects followed before giving up (a loop, or a very long chain). */
const MAX_REDIRECTS = 10;

/**
 * Fetches a page, following redirects within its site (each hop's URL and addresses checked
 * again), and turns its body into text: HTML into markdown, other text as it is. Throws only
 * what the tool reports as a failure to fetch (refused address, timeout, network errors).
 */
export async function fetchPage(start: URL, options: FetchPageOptions): Promise<FetchedPage> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    const named = options.ruleNamesHost(host);
    const response = await httpGet(url, {
      signal: options.signal,
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BYTES,
      refuseAddress: (address) => (named ? undefined : forbiddenAddressReason(address)),
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    const status = { url: url.href, code: response.status, codeText: response.statusText };
    if (response.location !== undefined) {
      const next = new URL(response.location, url);
      if (!sameSite(url, next)) return { kind: "redirect", ...status, location: next.href };
      if (hop === MAX_REDIRECTS) return { kind: "failed", ...status, message: `more than ${MAX_REDIRECTS} redirects within ${host}` };
      const target = fetchTarget(next.href, options.ruleNamesHost);
      if ("refusal" in target) return { kind: "failed", ...status, message: `it redirects to ${next.href}: ${target.refusal}` };
      url = target.url;
      continue;
    }
    if (response.status < 200 || response.status > 299)
      return { kind: "failed", ...status, message: `the server answered ${response.status} ${response.statusText}`.trim() };
    const text = await pageText(response.body, response.contentType, options.signal);
    if (text === undefined)
      return { kind: "failed", ...status, message: `the page is ${response.contentType || "binary data"}, not text WebFetch can read` };
    return { kind: "page", ...status, bytes: response.body.length, markdown: text, truncated: response.truncated };
  }
}

/** The body as text: HTML turned into markdown (the converter loads now), other text decoded; undefined for binary content. */
async function pageText(body: Buffer, contentType: string, signal: AbortSignal): Promise<string | undefined> {
  const [mediaType = "", ...parameters] = contentType
    .toLowerCase()
    .split(";")
    .map((part) => part.trim());
  const charset = parameters
    .find((parameter) => parameter.startsWith("charset="))
    ?.slice("charset=".length)
    .replace(/"/g, "");
  const isHtml = mediaType === "text/html" || mediaType === "application/xhtml+xml" || (mediaType === "" && looksLikeHtml(body));
  const isText =
    mediaType.startsWith("text/") ||
    /[/+](json|xml|javascript|yaml|x-yaml|toml)$/.test(mediaType) ||
    (mediaType === "" && !body.includes(0));
  if (!isHtml && !isText) return undefined;
  const text = decode(body, charset);
  if (!isHtml) return text;
  const { htmlToMarkdown } = await import("./html-markdown.js");
  return htmlToMarkdown(text, signal);
}

function looksLikeHtml(body: Buffer): boolean {
  return /^\s*<(!doctype html|html|head|body)/i.test(body.subarray(0, 512).toString("latin1"));
}

function decode(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}
