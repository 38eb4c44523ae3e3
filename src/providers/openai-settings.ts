/**
 * How the OpenAI-family providers are set up, decided before any SDK is loaded: which wire API
 * a model uses, where local servers listen, what an OpenAI model accepts.
 */

/** Servers that speak OpenAI Chat Completions on the local machine, with their usual address. */
export const LOCAL_SERVER_BASE_URLS = {
  ollama: "http://127.0.0.1:11434/v1",
  llamacpp: "http://127.0.0.1:8080/v1",
  vllm: "http://127.0.0.1:8000/v1",
  lmstudio: "http://127.0.0.1:1234/v1",
} as const;

export type OpenAIApi = "chat" | "responses";

/**
 * Local servers need no key, but the SDK refuses to send a request without one; this one is
 * sent when OPENAI_API_KEY is not set.
 */
export const PLACEHOLDER_API_KEY = "agentwire-no-key";

/**
 * Responses for OpenAI's reasoning models on api.openai.com (it carries their reasoning between
 * turns and streams reasoning summaries); Chat Completions everywhere else, since that is what
 * proxies and compatible servers implement. `override` is `--openai-api`.
 */
export function chooseOpenAIApi(model: string, baseUrl: string | undefined, override: OpenAIApi | undefined): OpenAIApi {
  if (override) return override;
  const official = baseUrl === undefined || new URL(baseUrl).hostname === "api.openai.com";
  return official && isOpenAIReasoningModel(model) ? "responses" : "chat";
}

/** Reasoning models (o-series, gpt-5 and later except the `-chat` variants) take reasoning options. */
export function isOpenAIReasoningModel(model: string): boolean {
  if (/^o\d/.test(model)) return true;
  const generation = /^gpt-(\d+)/.exec(model);
  return generation !== null && Number(generation[1]) >= 5 && !/-chat/.test(model);
}

/** `--max-thinking-tokens` is a budget; OpenAI takes an effort level. */
export function reasoningEffort(budgetTokens: number): "low" | "medium" | "high" {
  if (budgetTokens <= 4_096) return "low";
  return budgetTokens <= 16_384 ? "medium" : "high";
}
