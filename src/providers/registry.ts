import * as z from "zod/mini";
import "../validation/english-issues.js";
import { VENDOR_BASE_URLS } from "./vendor-urls.js";
import { credentialFor, isOpenAICompatible, type OpenAICompatibleProviderId, type ProviderId } from "./credentials.js";
import { chooseOpenAIApi, LOCAL_SERVER_BASE_URLS, type OpenAIApi } from "./openai-settings.js";
import type { Provider, ProviderCapabilities } from "./types.js";

export { PROVIDER_IDS, type ProviderId } from "./credentials.js";

export interface ProviderSettings {
  provider: ProviderId;
  env: Readonly<Record<string, string | undefined>>;
  /** `--base-url`: overrides the provider's endpoint (and its *_BASE_URL variable). */
  baseUrl?: string;
  /** The session's model: decides the OpenAI wire API. */
  model?: string;
  /** `--openai-api`: forces Chat Completions or Responses for the OpenAI-family providers. */
  openaiApi?: OpenAIApi;
  /** `--context-window`: what Ollama is asked to load the model with. */
  contextWindow?: number | undefined;
}

/**
 * Creates the provider for a run. Each provider module (and its SDK) is imported only when the
 * first request is made, so start-up (and `system/init`) never waits for an SDK, and runs that
 * make no request never load one.
 */
export function createProvider(settings: ProviderSettings): Provider {
  let loaded: Promise<Provider> | undefined;
  return {
    id: settings.provider,
    capabilities: providerCapabilities(settings.provider),
    endpoint: endpointOf(settings),
    async *stream(request, signal) {
      loaded ??= loadProvider(settings);
      yield* (await loaded).stream(request, signal);
    },
    async webSearch(request, model, signal) {
      loaded ??= loadProvider(settings);
      return (await loaded).webSearch?.(request, model, signal);
    },
  };
}

async function loadProvider(settings: ProviderSettings): Promise<Provider> {
  const { provider } = settings;
  if (isOpenAICompatible(provider)) return loadOpenAIFamily(settings, provider);
  const credential = credentialFor(provider, settings.env);
  if (credential.kind === "missing") return failingProvider(provider, credential.hint);
  if (provider === "anthropic") {
    const { createAnthropicProvider } = await import("./anthropic.js");
    const baseUrl = settings.baseUrl ?? settings.env.ANTHROPIC_BASE_URL;
    return createAnthropicProvider({
      apiKey: credential.kind === "api-key" ? credential.value : undefined,
      authToken: credential.kind === "bearer" ? credential.value : undefined,
      ...(baseUrl ? { baseUrl } : {}),
    });
  }
  const [{ createGeminiProvider }, { createGcloudTokenSource }] = await Promise.all([import("./gemini.js"), import("./gcloud-token.js")]);
  const baseUrl = settings.baseUrl ?? settings.env.GEMINI_BASE_URL;
  return createGeminiProvider({
    apiKey: credential.kind === "api-key" ? credential.value : undefined,
    ...(baseUrl ? { baseUrl } : {}),
    accessToken: createGcloudTokenSource(settings.env),
    ...(settings.env.GOOGLE_CLOUD_PROJECT ? { quotaProject: settings.env.GOOGLE_CLOUD_PROJECT } : {}),
  });
}

/**
 * OpenAI itself, and the servers that speak its API. Local servers need no key (a placeholder
 * is sent unless OPENAI_API_KEY is set) and get the compatible flavour of the Chat provider.
 */
async function loadOpenAIFamily(settings: ProviderSettings, provider: OpenAICompatibleProviderId): Promise<Provider> {
  const baseUrl = openAIBaseUrl(settings);
  const credential = credentialFor(provider, settings.env);
  if (credential.kind !== "api-key" && credential.kind !== "placeholder")
    return failingProvider(provider, credential.kind === "missing" ? credential.hint : "No credential.");
  const apiKey = credential.value;
  if (chooseOpenAIApi(settings.model ?? "", baseUrl, settings.openaiApi) === "responses") {
    const { createOpenAIResponsesProvider } = await import("./openai-responses.js");
    return createOpenAIResponsesProvider({ id: provider, apiKey, baseUrl, builtinWebSearch: provider === "openai" });
  }
  const [{ createOpenAIChatProvider }, { ollamaToolSupportProbe }] = await Promise.all([
    import("./openai-chat.js"),
    import("./tool-support.js"),
  ]);
  return createOpenAIChatProvider({
    id: provider,
    apiKey,
    baseUrl,
    flavor: provider === "openai" ? "openai" : "compatible",
    ...(provider === "ollama" && baseUrl
      ? { toolSupportProbe: ollamaToolSupportProbe(baseUrl), ollamaNative: ollamaNativeSettings(baseUrl, settings) }
      : {}),
  });
}

/** Ollama is asked through its native API at the server's root (the OpenAI path without `/v1`). */
function ollamaNativeSettings(baseUrl: string, settings: ProviderSettings) {
  return {
    root: baseUrl.replace(/\/+$/, "").replace(/\/v1$/, ""),
    // Ollama's own default is 5 minutes; an agent that runs tools between requests would pay a reload.
    keepAlive: settings.env.AGENTWIRE_OLLAMA_KEEP_ALIVE || "30m",
    contextWindow: settings.contextWindow,
  };
}

/** `--base-url`, else OPENAI_BASE_URL (OpenAI and generic servers), else the local server's usual address. */
export function openAIBaseUrl(settings: ProviderSettings): string | undefined {
  if (settings.baseUrl) return settings.baseUrl;
  if (settings.provider === "openai" || settings.provider === "openai-compatible") return settings.env.OPENAI_BASE_URL || undefined;
  return settings.provider in LOCAL_SERVER_BASE_URLS
    ? LOCAL_SERVER_BASE_URLS[settings.provider as keyof typeof LOCAL_SERVER_BASE_URLS]
    : undefined;
}

/** The base URL requests go to: the override, the provider's *_BASE_URL variable, or the vendor's default. */
function endpointOf(settings: ProviderSettings): string {
  switch (settings.provider) {
    case "anthropic":
      return settings.baseUrl ?? (settings.env.ANTHROPIC_BASE_URL || VENDOR_BASE_URLS.anthropic);
    case "gemini":
      return settings.baseUrl ?? (settings.env.GEMINI_BASE_URL || VENDOR_BASE_URLS.gemini);
    default:
      return openAIBaseUrl(settings) ?? VENDOR_BASE_URLS.openai;
  }
}

/** A setup problem found when the first request is made, reported like any non-retryable failure. */
function failingProvider(id: string, message: string): Provider {
  return {
    id,
    async *stream() {
      yield { type: "error", kind: "auth", status: null, retryable: false, message };
    },
  };
}

/**
 * Only the Anthropic Messages API takes images inside tool results (the others' tool results are
 * text); local servers bill nothing per token, so a cost of 0 is exact for them.
 */
export function providerCapabilities(provider: ProviderId): ProviderCapabilities {
  const anthropic = provider === "anthropic";
  return { imagesInToolResults: anthropic, meteredBilling: !isLocalServer(provider), ...(anthropic ? { toolReferences: true } : {}) };
}

/** Local servers bill nothing per token: a cost of 0 is exact for them, not a missing price. */
export function isLocalServer(provider: ProviderId): boolean {
  return provider in LOCAL_SERVER_BASE_URLS;
}

/** A reason the settings cannot work at all (checked at start-up), or undefined. */
export function providerSettingsError(settings: ProviderSettings): string | undefined {
  const variable = settings.baseUrl ? undefined : BASE_URL_VARIABLES[settings.provider];
  const value = variable === undefined ? undefined : settings.env[variable];
  // Checked as --base-url is: a bad value would otherwise surface as a connection error per retry.
  if (variable !== undefined && value && !HTTP_URL.safeParse(value).success) {
    return `${variable} is not an http(s) URL: ${JSON.stringify(value)}. Set it to the API's address (e.g. http://127.0.0.1:8080${settings.provider === "anthropic" || settings.provider === "gemini" ? "" : "/v1"}) or unset it.`;
  }
  if (settings.provider === "openai-compatible" && !openAIBaseUrl(settings)) {
    return "--provider openai-compatible needs the server's address: pass --base-url URL or set OPENAI_BASE_URL.";
  }
  return undefined;
}

/** The environment variable each provider takes its address from when `--base-url` is absent. */
const BASE_URL_VARIABLES: Partial<Record<ProviderId, string>> = {
  anthropic: "ANTHROPIC_BASE_URL",
  gemini: "GEMINI_BASE_URL",
  openai: "OPENAI_BASE_URL",
  "openai-compatible": "OPENAI_BASE_URL",
};

const HTTP_URL = z.url({ protocol: /^https?$/ });

/** Where the API key came from, for `system/init.apiKeySource`. */
export function apiKeySource(provider: ProviderId, env: Readonly<Record<string, string | undefined>>): string {
  return credentialFor(provider, env).source;
}
