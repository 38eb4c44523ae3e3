import { chooseOpenAIApi, LOCAL_SERVER_BASE_URLS, PLACEHOLDER_API_KEY, type OpenAIApi } from "./openai-settings.js";
import type { Provider, ProviderCapabilities } from "./types.js";

export const PROVIDER_IDS = ["anthropic", "gemini", "openai", "ollama", "llamacpp", "vllm", "lmstudio", "openai-compatible"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export interface ProviderSettings {
  provider: ProviderId;
  env: NodeJS.ProcessEnv;
  /** `--base-url`: overrides the provider's endpoint (and its *_BASE_URL variable). */
  baseUrl?: string;
  /** The session's model: decides the OpenAI wire API. */
  model?: string;
  /** `--openai-api`: forces Chat Completions or Responses for the OpenAI-family providers. */
  openaiApi?: OpenAIApi;
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
  };
}

async function loadProvider(settings: ProviderSettings): Promise<Provider> {
  switch (settings.provider) {
    case "anthropic": {
      const apiKey = settings.env.ANTHROPIC_API_KEY || undefined;
      const authToken = settings.env.ANTHROPIC_AUTH_TOKEN || undefined;
      if (!apiKey && !authToken) return failingProvider("anthropic", "ANTHROPIC_API_KEY is not set. Export it, or choose another provider with --provider.");
      const { createAnthropicProvider } = await import("./anthropic.js");
      return createAnthropicProvider({
        apiKey,
        authToken,
        ...((settings.baseUrl ?? settings.env.ANTHROPIC_BASE_URL) ? { baseUrl: settings.baseUrl ?? settings.env.ANTHROPIC_BASE_URL } : {}),
      });
    }
    case "gemini": {
      const [{ createGeminiProvider }, { createGcloudTokenSource }] = await Promise.all([import("./gemini.js"), import("./gcloud-token.js")]);
      const baseUrl = settings.baseUrl ?? settings.env.GEMINI_BASE_URL;
      return createGeminiProvider({
        apiKey: settings.env.GEMINI_API_KEY || settings.env.GOOGLE_API_KEY,
        ...(baseUrl ? { baseUrl } : {}),
        accessToken: createGcloudTokenSource(settings.env),
        ...(settings.env.GOOGLE_CLOUD_PROJECT ? { quotaProject: settings.env.GOOGLE_CLOUD_PROJECT } : {}),
      });
    }
    case "openai":
    case "ollama":
    case "llamacpp":
    case "vllm":
    case "lmstudio":
    case "openai-compatible":
      return loadOpenAIFamily(settings, settings.provider);
  }
}

/**
 * OpenAI itself, and the servers that speak its API. Local servers need no key (a placeholder
 * is sent unless OPENAI_API_KEY is set) and get the compatible flavour of the Chat provider.
 */
async function loadOpenAIFamily(settings: ProviderSettings, provider: "openai" | keyof typeof LOCAL_SERVER_BASE_URLS | "openai-compatible"): Promise<Provider> {
  const baseUrl = openAIBaseUrl(settings);
  const apiKey = settings.env.OPENAI_API_KEY || (provider === "openai" ? undefined : PLACEHOLDER_API_KEY);
  if (!apiKey) return failingProvider(provider, "OPENAI_API_KEY is not set. Export it, or use --provider ollama / openai-compatible for a server that needs no key.");
  if (chooseOpenAIApi(settings.model ?? "", baseUrl, settings.openaiApi) === "responses") {
    const { createOpenAIResponsesProvider } = await import("./openai-responses.js");
    return createOpenAIResponsesProvider({ id: provider, apiKey, baseUrl });
  }
  const [{ createOpenAIChatProvider }, { ollamaToolSupportProbe }] = await Promise.all([import("./openai-chat.js"), import("./tool-support.js")]);
  return createOpenAIChatProvider({
    id: provider,
    apiKey,
    baseUrl,
    flavor: provider === "openai" ? "openai" : "compatible",
    ...(provider === "ollama" && baseUrl ? { toolSupportProbe: ollamaToolSupportProbe(baseUrl) } : {}),
  });
}

/** `--base-url`, else OPENAI_BASE_URL (OpenAI and generic servers), else the local server's usual address. */
export function openAIBaseUrl(settings: ProviderSettings): string | undefined {
  if (settings.baseUrl) return settings.baseUrl;
  if (settings.provider === "openai" || settings.provider === "openai-compatible") return settings.env.OPENAI_BASE_URL || undefined;
  return settings.provider in LOCAL_SERVER_BASE_URLS ? LOCAL_SERVER_BASE_URLS[settings.provider as keyof typeof LOCAL_SERVER_BASE_URLS] : undefined;
}

/** The base URL requests go to: the override, the provider's *_BASE_URL variable, or the vendor's default. */
function endpointOf(settings: ProviderSettings): string {
  switch (settings.provider) {
    case "anthropic":
      return settings.baseUrl ?? (settings.env.ANTHROPIC_BASE_URL || "https://api.anthropic.com");
    case "gemini":
      return settings.baseUrl ?? (settings.env.GEMINI_BASE_URL || "https://generativelanguage.googleapis.com");
    default:
      return openAIBaseUrl(settings) ?? "https://api.openai.com/v1";
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
  return { imagesInToolResults: provider === "anthropic", meteredBilling: !isLocalServer(provider) };
}

/** Local servers bill nothing per token: a cost of 0 is exact for them, not a missing price. */
export function isLocalServer(provider: ProviderId): boolean {
  return provider in LOCAL_SERVER_BASE_URLS;
}

/** A reason the settings cannot work at all (checked at start-up), or undefined. */
export function providerSettingsError(settings: ProviderSettings): string | undefined {
  if (settings.provider === "openai-compatible" && !openAIBaseUrl(settings)) {
    return "--provider openai-compatible needs the server's address: pass --base-url URL or set OPENAI_BASE_URL.";
  }
  return undefined;
}

/** Where the API key came from, for `system/init.apiKeySource`. */
export function apiKeySource(provider: ProviderId, env: NodeJS.ProcessEnv): string {
  switch (provider) {
    case "anthropic":
      if (env.ANTHROPIC_API_KEY) return "ANTHROPIC_API_KEY";
      return env.ANTHROPIC_AUTH_TOKEN ? "ANTHROPIC_AUTH_TOKEN" : "none";
    case "gemini":
      if (env.GEMINI_API_KEY) return "GEMINI_API_KEY";
      // Without a key, each request asks `gcloud auth print-access-token` for a bearer token.
      return env.GOOGLE_API_KEY ? "GOOGLE_API_KEY" : "gcloud";
    case "openai":
    case "ollama":
    case "llamacpp":
    case "vllm":
    case "lmstudio":
    case "openai-compatible":
      return env.OPENAI_API_KEY ? "OPENAI_API_KEY" : "none";
  }
}
