import type { GenerateContentResponseUsageMetadata, GoogleGenAI, GroundingChunkWeb, GroundingMetadata } from "@google/genai";
import { geminiTransport, toErrorEvent, toUsage, type GeminiProviderOptions } from "../gemini-wire.js";
import { emptyUsage } from "../types.js";
import { VENDOR_BASE_URLS } from "../vendor-urls.js";
import {
  appendText,
  hostAllowed,
  SEARCH_SYSTEM_PROMPT,
  searchFailure,
  searchPrompt,
  type SearchModel,
  type WebSearchLink,
  type WebSearchOutcome,
  type WebSearchRequest,
  uniqueLinks,
} from "./web-search.js";

/**
 * Gemini's Google Search grounding: one streamed request with the `googleSearch` tool alone. The
 * answer's sources arrive as `groundingMetadata.groundingChunks`; the Gemini API has no domain
 * filter, so both domain lists are applied here, to each source's domain.
 */
export async function searchWithGemini(
  client: GoogleGenAI,
  options: GeminiProviderOptions,
  request: WebSearchRequest,
  model: SearchModel,
  signal: AbortSignal,
): Promise<WebSearchOutcome> {
  const transport = await geminiTransport(options);
  if ("error" in transport) throw searchFailure(transport.error as { message: string });
  const results: WebSearchOutcome["results"] = [];
  let grounding: GroundingMetadata | undefined;
  let usage: GenerateContentResponseUsageMetadata | undefined;
  let responseId = "";
  try {
    const stream = await client.models.generateContentStream({
      model: model.model,
      contents: [{ role: "user", parts: [{ text: searchPrompt(request.query) }] }],
      config: {
        systemInstruction: SEARCH_SYSTEM_PROMPT,
        tools: [{ googleSearch: {} }],
        maxOutputTokens: model.maxOutputTokens,
        abortSignal: signal,
        automaticContinuation: false,
        httpOptions: { fetch: transport.sendRequest },
      },
    });
    for await (const chunk of stream) {
      const candidate = chunk.candidates?.[0];
      for (const part of candidate?.content?.parts ?? []) if (part.text && !part.thought) appendText(results, part.text);
      // Each chunk that carries grounding carries all of it so far: the last one is complete.
      if (candidate?.groundingMetadata) grounding = candidate.groundingMetadata;
      if (chunk.usageMetadata) usage = chunk.usageMetadata;
      responseId ||= chunk.responseId ?? "";
    }
  } catch (error) {
    const endpoint = `${options.baseUrl ?? VENDOR_BASE_URLS.gemini}/v1beta/models/${model.model}:streamGenerateContent`;
    throw searchFailure(toErrorEvent(error, signal, transport.failedResponseHeaders(), endpoint) as { message: string });
  }
  const sources = (grounding?.groundingChunks ?? []).flatMap((chunk) => (chunk.web?.uri ? [chunk.web] : []));
  const links: WebSearchLink[] = sources
    .filter((web) => hostAllowed(domainOf(web), request))
    .map((web) => ({ title: web.title || web.uri!, url: web.uri! }));
  const queries = grounding?.webSearchQueries ?? [];
  if (queries.length > 0 || links.length > 0) results.unshift({ toolUseId: `grounding_${responseId}`, links: uniqueLinks(links) });
  return {
    results,
    searchCount: queries.length,
    usage: { usage: usage ? toUsage(usage) : emptyUsage(), model: model.model },
  };
}

/**
 * The site a grounding source belongs to. Google returns its own redirect URLs
 * (vertexaisearch.cloud.google.com/…) with the site's domain as the title, so the `domain` field,
 * then a title that is a host name, come before the URL's own host.
 */
function domainOf(web: GroundingChunkWeb): string | undefined {
  if (web.domain) return web.domain;
  if (web.title && /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(web.title)) return web.title;
  try {
    return new URL(web.uri ?? "").hostname;
  } catch {
    return undefined;
  }
}
