import { hasCredential } from "./credentials.js";

/**
 * The provider of a run that names neither `--provider` nor `--model`: the first one whose
 * credentials are set, Anthropic, then OpenAI, then Gemini, so someone with a single key needs no
 * flag. With none it is Anthropic, whose first request then fails with "ANTHROPIC_API_KEY is not
 * set". Gemini's gcloud fallback is not consulted: asking gcloud takes seconds, on every start.
 *
 * Empty values count as unset, as everywhere else agentwire reads keys: hosts clear an inherited
 * variable with `KEY=`.
 */
export function providerFromApiKeys(env: Readonly<Record<string, string | undefined>>): "anthropic" | "openai" | "gemini" {
  return (["anthropic", "openai", "gemini"] as const).find((provider) => hasCredential(provider, env)) ?? "anthropic";
}
