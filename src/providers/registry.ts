import type { Provider } from "./types.js";

export const PROVIDER_IDS = ["anthropic"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export interface ProviderSettings {
  provider: ProviderId;
  env: NodeJS.ProcessEnv;
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
    async *stream(request, signal) {
      loaded ??= loadProvider(settings);
      yield* (await loaded).stream(request, signal);
    },
  };
}

async function loadProvider(settings: ProviderSettings): Promise<Provider> {
  switch (settings.provider) {
    case "anthropic": {
      const { createAnthropicProvider } = await import("./anthropic.js");
      return createAnthropicProvider({
        apiKey: settings.env.ANTHROPIC_API_KEY,
        ...(settings.env.ANTHROPIC_BASE_URL ? { baseUrl: settings.env.ANTHROPIC_BASE_URL } : {}),
      });
    }
  }
}

/** Where the API key came from, for `system/init.apiKeySource`. */
export function apiKeySource(provider: ProviderId, env: NodeJS.ProcessEnv): string {
  switch (provider) {
    case "anthropic":
      if (env.ANTHROPIC_API_KEY) return "ANTHROPIC_API_KEY";
      return env.ANTHROPIC_AUTH_TOKEN ? "ANTHROPIC_AUTH_TOKEN" : "none";
  }
}
