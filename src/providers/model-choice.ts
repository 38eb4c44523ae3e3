import { providerFromApiKeys, providerFromModelName } from "./infer-provider.js";
import { defaultModelFor, inferProvider, resolveModelAlias } from "./models.js";
import { PROVIDER_IDS, type ProviderId } from "./registry.js";

/**
 * The provider and model of a run from what the caller named: a known model names its provider
 * (`gpt-5.5` needs no `openai`), and so does a name's form (`llama3.1:8b` is a local model, served
 * by Ollama unless `--provider` says otherwise); a name that says nothing, or no model, the API key that is set picks the provider, and
 * the provider its default model. Aliases (`sonnet`, `gemini`) are resolved. Local servers have
 * no default model: the caller must name it.
 */
export function chooseModel(request: {
  model?: string | undefined;
  provider?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
}): { provider: ProviderId; model: string } | { error: string } {
  if (request.provider !== undefined && !(PROVIDER_IDS as readonly string[]).includes(request.provider)) {
    return { error: `Unknown provider ${request.provider}; choose one of ${PROVIDER_IDS.join(", ")}.` };
  }
  const requestedModel = request.model ? resolveModelAlias(request.model) : undefined;
  const provider = (request.provider ??
    (requestedModel
      ? (inferProvider(requestedModel) ?? providerFromModelName(requestedModel) ?? providerFromApiKeys(request.env))
      : providerFromApiKeys(request.env))) as ProviderId;
  const model = requestedModel ?? defaultModelFor(provider);
  if (!model)
    return { error: `--provider ${provider} needs --model: the name the server knows the model by (e.g. --model qwen2.5-coder:7b).` };
  return { provider, model };
}
