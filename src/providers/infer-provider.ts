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

/**
 * The provider a model name implies when the model table does not know it: vendor prefixes
 * (`claude-…`, `gpt-…`, `o4-…`, `gemini-…`), then open-weight families and Ollama's `name:tag`
 * form, which mean a local server — Ollama, the most common one (`--provider` picks another).
 * Undefined for names that say nothing, such as a proxy's own model names.
 */
export function providerFromModelName(model: string): "anthropic" | "openai" | "gemini" | "ollama" | undefined {
  const name = model.toLowerCase();
  if (name.startsWith("claude-")) return "anthropic";
  if (/^(gpt-\d|chatgpt-|o\d(-|$)|codex-)/.test(name)) return "openai";
  if (name.startsWith("gemini-")) return "gemini";
  if (OPEN_WEIGHT_FAMILY.test(name) || /^[\w./-]+:[\w.-]+$/.test(name)) return "ollama";
  return undefined;
}

/** Leading words of open-weight model names, as Ollama's library and Hugging Face spell them. */
const OPEN_WEIGHT_FAMILY =
  /^(?:[\w.-]+\/)*(llama|codellama|qwen|qwq|mistral|mixtral|ministral|devstral|codestral|gemma|phi|deepseek|starcoder|granite|command-r|yi|olmo|smollm|hermes|nemotron|gpt-oss|falcon|vicuna|tinyllama|dolphin|wizard|openchat|glm|kimi|minimax)/;
