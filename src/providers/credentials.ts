import { PLACEHOLDER_API_KEY } from "./openai-settings.js";

/** The servers (and OpenAI itself) that speak the OpenAI APIs, in one list. */
export const OPENAI_COMPATIBLE_PROVIDER_IDS = ["openai", "ollama", "llamacpp", "vllm", "lmstudio", "openai-compatible"] as const;
export const PROVIDER_IDS = ["anthropic", "gemini", ...OPENAI_COMPATIBLE_PROVIDER_IDS] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];
export type OpenAICompatibleProviderId = (typeof OPENAI_COMPATIBLE_PROVIDER_IDS)[number];

export function isOpenAICompatible(provider: ProviderId): provider is OpenAICompatibleProviderId {
  return (OPENAI_COMPATIBLE_PROVIDER_IDS as readonly string[]).includes(provider);
}

/**
 * How a provider authenticates in this environment, and where the credential came from (the
 * name reported as `system/init.apiKeySource`). Empty variables count as unset: hosts clear an
 * inherited variable with `KEY=`.
 */
export type Credential =
  | { kind: "api-key"; value: string; source: "ANTHROPIC_API_KEY" | "OPENAI_API_KEY" | "GEMINI_API_KEY" | "GOOGLE_API_KEY" }
  /** ANTHROPIC_AUTH_TOKEN: a bearer token, for gateways that take one. */
  | { kind: "bearer"; value: string; source: "ANTHROPIC_AUTH_TOKEN" }
  /** Gemini without a key: each request asks `gcloud auth print-access-token`. */
  | { kind: "gcloud"; source: "gcloud" }
  /** Local servers need no key; the SDK still wants one, so a placeholder is sent. */
  | { kind: "placeholder"; value: string; source: "none" }
  | { kind: "missing"; source: "none"; hint: string };

/** The one place that reads credentials from the environment. */
export function credentialFor(provider: ProviderId, env: Readonly<Record<string, string | undefined>>): Credential {
  switch (provider) {
    case "anthropic":
      if (env.ANTHROPIC_API_KEY) return { kind: "api-key", value: env.ANTHROPIC_API_KEY, source: "ANTHROPIC_API_KEY" };
      if (env.ANTHROPIC_AUTH_TOKEN) return { kind: "bearer", value: env.ANTHROPIC_AUTH_TOKEN, source: "ANTHROPIC_AUTH_TOKEN" };
      return {
        kind: "missing",
        source: "none",
        hint: "ANTHROPIC_API_KEY is not set. Export it, or choose another provider with --provider.",
      };
    case "gemini":
      if (env.GEMINI_API_KEY) return { kind: "api-key", value: env.GEMINI_API_KEY, source: "GEMINI_API_KEY" };
      if (env.GOOGLE_API_KEY) return { kind: "api-key", value: env.GOOGLE_API_KEY, source: "GOOGLE_API_KEY" };
      return { kind: "gcloud", source: "gcloud" };
    case "openai":
      if (env.OPENAI_API_KEY) return { kind: "api-key", value: env.OPENAI_API_KEY, source: "OPENAI_API_KEY" };
      return {
        kind: "missing",
        source: "none",
        hint: "OPENAI_API_KEY is not set. Export it, or use --provider ollama / openai-compatible for a server that needs no key.",
      };
    case "ollama":
    case "llamacpp":
    case "vllm":
    case "lmstudio":
    case "openai-compatible":
      if (env.OPENAI_API_KEY) return { kind: "api-key", value: env.OPENAI_API_KEY, source: "OPENAI_API_KEY" };
      return { kind: "placeholder", value: PLACEHOLDER_API_KEY, source: "none" };
  }
}

/** Whether the environment holds a real credential for the provider (for choosing one by the keys set). */
export function hasCredential(provider: ProviderId, env: Readonly<Record<string, string | undefined>>): boolean {
  const credential = credentialFor(provider, env);
  return credential.kind === "api-key" || credential.kind === "bearer";
}
