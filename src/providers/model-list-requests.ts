import { VENDOR_BASE_URLS } from "./vendor-urls.js";
import * as z from "zod";
import { credentialFor } from "./credentials.js";
import { openAIBaseUrl, type ProviderId } from "./registry.js";

/**
 * How each provider's API lists its models, as plain HTTP: `--list-models` must not load an SDK
 * (they are the slow part of start-up) and needs only one GET per provider. One page each: the
 * page sizes asked for (1000) are above what any account has, so no pagination.
 */

/** A model as the API describes it; limits only where the API reports them. */
export interface LiveModel {
  id: string;
  contextWindow?: number;
  maxOutputTokens?: number;
}

/** One GET that lists a provider's models, and how to read its answer. */
export interface ModelListRequest {
  url: string;
  headers: Record<string, string>;
  /** Contract: throws when the body is not a model list of this API's shape. */
  read(body: unknown): LiveModel[];
}

/**
 * The request that lists `provider`'s models live, or undefined when there are no credentials to
 * ask with. Local servers need none, so they are always asked: the caller decides whether to
 * list them at all. `baseUrl` is `--base-url`, which wins over the *_BASE_URL variables.
 */
export function modelListRequest(
  provider: ProviderId,
  env: Readonly<Record<string, string | undefined>>,
  baseUrl?: string,
): ModelListRequest | undefined {
  const credential = credentialFor(provider, env);
  if (provider === "anthropic") {
    if (credential.kind !== "api-key" && credential.kind !== "bearer") return undefined;
    return {
      url: `${withoutTrailingSlash(baseUrl || env.ANTHROPIC_BASE_URL || VENDOR_BASE_URLS.anthropic)}/v1/models?limit=1000`,
      headers: {
        "anthropic-version": "2023-06-01",
        ...(credential.kind === "api-key" ? { "x-api-key": credential.value } : { authorization: `Bearer ${credential.value}` }),
      },
      read: readAnthropicModels,
    };
  }
  if (provider === "gemini") {
    // A gcloud token takes seconds to fetch; listing asks only with a key.
    if (credential.kind !== "api-key") return undefined;
    return {
      url: `${withoutTrailingSlash(baseUrl || env.GEMINI_BASE_URL || VENDOR_BASE_URLS.gemini)}/v1beta/models?pageSize=1000`,
      headers: { "x-goog-api-key": credential.value },
      read: readGeminiModels,
    };
  }
  if (credential.kind !== "api-key" && credential.kind !== "placeholder") return undefined;
  const serverUrl =
    openAIBaseUrl({ provider, env, ...(baseUrl ? { baseUrl } : {}) }) ?? (provider === "openai" ? VENDOR_BASE_URLS.openai : undefined);
  if (!serverUrl) return undefined;
  return {
    url: `${withoutTrailingSlash(serverUrl)}/models`,
    headers: { authorization: `Bearer ${credential.value}` },
    read: readOpenAIModels,
  };
}

const AnthropicModelList = z.object({
  data: z.array(
    z.object({ id: z.string(), lifecycle: z.string().nullish(), max_input_tokens: z.number().nullish(), max_tokens: z.number().nullish() }),
  ),
});

/** Retired models stay in Anthropic's catalogue as a record, but requests naming them fail. */
function readAnthropicModels(body: unknown): LiveModel[] {
  return parseList(AnthropicModelList, body)
    .data.filter((model) => model.lifecycle !== "retired")
    .map((model) => withLimits(model.id, model.max_input_tokens, model.max_tokens));
}

const GeminiModelList = z.object({
  models: z
    .array(
      z.object({
        name: z.string(),
        inputTokenLimit: z.number().nullish(),
        outputTokenLimit: z.number().nullish(),
        supportedGenerationMethods: z.array(z.string()).nullish(),
      }),
    )
    .nullish(),
});

/** Gemini lists embedding and other non-chat models too; only generateContent ones can run a session. */
function readGeminiModels(body: unknown): LiveModel[] {
  return (parseList(GeminiModelList, body).models ?? [])
    .filter((model) => model.supportedGenerationMethods?.includes("generateContent") ?? true)
    .map((model) => withLimits(model.name.replace(/^models\//, ""), model.inputTokenLimit, model.outputTokenLimit));
}

/** `max_model_len` is vLLM's extension; OpenAI and the other servers report only ids. */
const OpenAIModelList = z.object({ data: z.array(z.object({ id: z.string(), max_model_len: z.number().nullish() })) });

function readOpenAIModels(body: unknown): LiveModel[] {
  return parseList(OpenAIModelList, body).data.map((model) => withLimits(model.id, model.max_model_len, undefined));
}

function parseList<Shape extends z.ZodType>(schema: Shape, body: unknown): z.infer<Shape> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error("the answer is not a model list");
  return parsed.data;
}

function withLimits(id: string, contextWindow: number | null | undefined, maxOutputTokens: number | null | undefined): LiveModel {
  return { id, ...(contextWindow ? { contextWindow } : {}), ...(maxOutputTokens ? { maxOutputTokens } : {}) };
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
