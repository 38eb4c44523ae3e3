import * as z from "zod/mini";
import "../validation/english-issues.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";
import { defineTool, toolError, type ToolContext } from "./define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";
import { sessionSlot } from "./session-state.js";
import type { FetchedPage } from "./web/fetch-page.js";
import { fetchTarget } from "./web/fetch-target.js";
import { pageWindow } from "./web/page-window.js";

const description = `Fetches a web page, turns it into markdown, and answers \`prompt\` about it with a small, fast model (without \`prompt\`, the page itself comes back).

- Public pages only: a page behind a login fails; reach those through an MCP tool that signs in, or \`gh\` for GitHub.
- Local and private addresses (localhost, 127.0.0.1, 10.x, 192.168.x, …) and host names without a dot are refused unless the user allowed the host with a WebFetch(domain:…) rule; for a local server, use curl through Bash.
- http:// is fetched as https:// (except for hosts a rule names). A redirect to another site is not followed: the result names its address, so you can fetch that one if it is right.
- A page is read 100,000 characters at a time; the result says which \`offset\` reads on.
- Answers are kept for 15 minutes per URL, so asking again about the same page is cheap.`;

const inputSchema = lazySchema(() =>
  z.strictObject({
    url: z.url().check(z.describe("The address of the page to fetch")),
    prompt: z.optional(z.string()).check(z.describe("What to find out from the page; leave it out to get the page's text itself")),
    offset: z
      .optional(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER)))
      .check(
        z.describe(
          "Where in the page's text to start reading, in characters: the value a previous result gave, to read on through a long page.",
        ),
      ),
  }),
);

/** How long a fetched page is reused (Claude Code's 15 minutes), and how much is kept: pages or text, whichever bound comes first. */
const CACHE_MS = 15 * 60 * 1000;
const CACHE_ENTRIES = 32;
const CACHE_CHARACTERS = 20_000_000;
const PAGE_CACHE = sessionSlot("webFetchPages", () => new Map<string, { at: number; page: FetchedPage }>());

const EXTRACTION_SYSTEM =
  "You read one web page for a coding agent and answer its question about that page. Use only what the page says; say so when it does not answer the question.";

export const createWebFetchTool = () =>
  defineTool({
    name: "WebFetch",
    description,
    get inputSchema() {
      return inputSchema();
    },
    ...BUILTIN_TOOL_TRAITS.WebFetch,
    async execute(input, context): Promise<ToolResult> {
      const startedAt = Date.now();
      const ruleNamesHost = context.ruleNamesHost ?? (() => false);
      const target = fetchTarget(input.url, ruleNamesHost);
      if ("refusal" in target) return toolError("permission_denied", target.refusal);
      const fetched = await cachedFetch(target.url, context, ruleNamesHost);
      if ("error" in fetched) return fetched.error;
      const page = fetched.page;
      const details = (result: string) => ({
        bytes: page.kind === "page" ? page.bytes : 0,
        code: page.code,
        codeText: page.codeText,
        result,
        durationMs: Date.now() - startedAt,
        url: input.url,
      });
      if (page.kind === "failed") {
        const message = `WebFetch could not read ${page.url}: ${page.message}.`;
        return { content: message, isError: true, code: "io_error", details: details(message) };
      }
      if (page.kind === "redirect") {
        const result = redirectNotice(page, input);
        return { content: result, isError: false, details: details(result) };
      }
      const offset = input.offset ?? 0;
      if (offset > 0 && offset >= page.markdown.length)
        return toolError(
          "invalid_input",
          `offset ${offset} is past the end of the page, whose text is ${page.markdown.length} characters long.`,
        );
      const window = pageWindow(page.markdown, offset);
      const prompt = input.prompt?.trim();
      const body = prompt && context.sideRequest ? await answerFromPage(window, prompt, context) : window.text;
      if (typeof body !== "string") return body.error;
      const cut = page.truncated ? `\n\n[WebFetch note: the page was larger than WebFetch reads (10 MB); its end is missing.]` : "";
      const result = `${body}${window.note ? `\n\n${window.note}` : ""}${cut}`;
      return { content: result, isError: false, details: details(result) };
    },
  });

/** The page from the session's cache when fetched in the last 15 minutes, else from the web. */
async function cachedFetch(
  url: URL,
  context: ToolContext,
  ruleNamesHost: (host: string) => boolean,
): Promise<{ page: FetchedPage } | { error: ToolResult }> {
  // A slot's initial value is made anew at each read until it is set: keep this one.
  const cache = context.sessionState.get(PAGE_CACHE);
  context.sessionState.set(PAGE_CACHE, cache);
  const now = Date.now();
  for (const [key, entry] of cache) if (now - entry.at > CACHE_MS) cache.delete(key);
  const hit = cache.get(url.href);
  if (hit) return { page: hit.page };
  try {
    // The fetching code (node:https, zlib, the HTML converter) loads on the first fetch, not at start.
    const { fetchPage } = await import("./web/fetch-page.js");
    const page = await fetchPage(url, { signal: context.signal, ruleNamesHost });
    if (page.kind !== "failed") {
      cache.set(url.href, { at: now, page });
      // Oldest first in a Map: drop from the front past either bound.
      while (cache.size > CACHE_ENTRIES || cachedCharacters(cache) > CACHE_CHARACTERS) cache.delete(cache.keys().next().value!);
    }
    return { page };
  } catch (error) {
    return { error: await fetchFailure(url, error, context.signal) };
  }
}

function cachedCharacters(cache: Map<string, { page: FetchedPage }>): number {
  let total = 0;
  for (const { page } of cache.values()) total += page.kind === "page" ? page.markdown.length : 0;
  return total;
}

async function fetchFailure(url: URL, error: unknown, signal: AbortSignal): Promise<ToolResult> {
  if (signal.aborted) throw error;
  const { RefusedAddressError, FetchTimeoutError } = await import("./web/http-get.js");
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RefusedAddressError)
    return toolError(
      "permission_denied",
      `WebFetch does not fetch ${url.href}: ${message}. Local and private addresses are reached only for hosts the user allowed with a WebFetch(domain:${url.hostname}) rule.`,
    );
  if (error instanceof FetchTimeoutError) return toolError("timeout", `WebFetch gave up on ${url.href}: ${message}.`);
  return toolError("io_error", `WebFetch could not fetch ${url.href}: ${message}.`);
}

/** The model's answer about one window of the page, from the side request. */
async function answerFromPage(
  window: ReturnType<typeof pageWindow>,
  prompt: string,
  context: ToolContext,
): Promise<string | { error: ToolResult }> {
  const text = [
    window.preface,
    `The page, as markdown:\n---\n${window.text}\n---`,
    prompt,
    "Answer briefly, from the page above only. Quote sparingly (a sentence or two at most), and never reproduce song lyrics.",
  ]
    .filter((part) => part !== undefined)
    .join("\n\n");
  try {
    const answer = await context.sideRequest!({ system: EXTRACTION_SYSTEM, text }, context.signal);
    return answer.text;
  } catch (error) {
    if (context.signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { error: toolError("io_error", `The page was fetched, but the model request that reads it failed: ${message}`) };
  }
}

/** A redirect to another site, told the model the way Claude Code tells it, in our words: not an error. */
function redirectNotice(page: Extract<FetchedPage, { kind: "redirect" }>, input: { url: string; prompt?: string | undefined }): string {
  return [
    "REDIRECT DETECTED: the page moved to another site, which WebFetch does not follow on its own.",
    "",
    `Original URL: ${page.url}`,
    `Redirect URL (the server's Location header, not checked): ${page.location}`,
    `Status: ${page.code} ${page.codeText}`.trim(),
    "",
    "If that site is the right one, call WebFetch again with:",
    `- url: "${page.location}"`,
    ...(input.prompt === undefined ? [] : [`- prompt: "${input.prompt}"`]),
  ].join("\n");
}
