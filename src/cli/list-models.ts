import { aliasesOf, findModel, knownModels } from "../providers/models.js";
import { modelListRequest, type LiveModel, type ModelListRequest } from "../providers/model-list-requests.js";
import { providerSettingsError, type ProviderId } from "../providers/registry.js";

/**
 * `--list-models`: the models of each provider, live from its API where credentials allow, else
 * the ones agentwire's model table knows. A failed lookup never fails the command: the listing
 * falls back to the known models and says why, so the command is safe in scripts and setup UIs.
 */

/** One provider's part of the output; the JSON shape of `--list-models --output-format json`. */
export interface ModelListing {
  provider: ProviderId;
  source: "live" | "known";
  /** Why the live lookup failed (the models are then the known ones). */
  error?: string;
  models: ListedModel[];
}

export interface ListedModel {
  id: string;
  aliases: string[];
  context_window?: number;
  max_output_tokens?: number;
  price_per_mtok?: { input: number; output: number };
}

export interface ListModelsOptions {
  /** `--provider`: list only this one. */
  provider?: ProviderId;
  /** `--base-url`: the endpoint of `provider`, or without it, an OpenAI-compatible server to list too. */
  baseUrl?: string;
  env: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** Long enough for a distant API, short enough that a dead endpoint does not stall a setup screen. */
const DEFAULT_TIMEOUT_MS = 3_000;

/** The providers with a fixed public endpoint, listed when `--provider` is not given, in the order keys pick them. */
const CLOUD_PROVIDERS = ["anthropic", "openai", "gemini"] as const;

/** Contract: never rejects; lookups run concurrently, each bounded by `timeoutMs`. */
export function collectModelListings(options: ListModelsOptions): Promise<ModelListing[]> {
  return Promise.all(providersToList(options).map((target) => listProvider(target.provider, target.baseUrl, options)));
}

/**
 * `--provider` alone, else the cloud providers plus the server at `--base-url`. Local servers are
 * never probed unasked: a refused or silent port on every call would slow it and surprise users.
 */
function providersToList(options: ListModelsOptions): Array<{ provider: ProviderId; baseUrl?: string | undefined }> {
  if (options.provider) return [{ provider: options.provider, baseUrl: options.baseUrl }];
  const clouds = CLOUD_PROVIDERS.map((provider) => ({ provider }));
  return options.baseUrl ? [...clouds, { provider: "openai-compatible", baseUrl: options.baseUrl }] : clouds;
}

async function listProvider(provider: ProviderId, baseUrl: string | undefined, options: ListModelsOptions): Promise<ModelListing> {
  const setupError = providerSettingsError({ provider, env: options.env, ...(baseUrl ? { baseUrl } : {}) });
  if (setupError) return knownListing(provider, setupError);
  const request = modelListRequest(provider, options.env, baseUrl);
  if (!request) return knownListing(provider);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    const models = await fetchLiveModels(request, options.fetch ?? fetch, AbortSignal.timeout(timeoutMs));
    return { provider, source: "live", models: models.map((model) => describeModel(model.id, model)) };
  } catch (error) {
    return knownListing(provider, `GET ${request.url.replace(/\?.*$/, "")} failed: ${describeFailure(error, timeoutMs)}`);
  }
}

async function fetchLiveModels(request: ModelListRequest, fetchModels: typeof fetch, signal: AbortSignal): Promise<LiveModel[]> {
  const response = await fetchModels(request.url, { headers: request.headers, signal });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const message = apiErrorMessage(body);
    throw new Error(`HTTP ${response.status}${message ? `: ${message}` : ""}`);
  }
  return request.read(body);
}

function knownListing(provider: ProviderId, error?: string): ModelListing {
  return { provider, source: "known", ...(error ? { error } : {}), models: knownModels(provider).map((model) => describeModel(model.id)) };
}

/**
 * The table's limits and price where it knows the model (they are what agentwire reports in
 * `modelUsage` and costs with), the API's limits otherwise.
 */
function describeModel(id: string, live?: LiveModel): ListedModel {
  const known = findModel(id);
  const contextWindow = known?.contextWindow ?? live?.contextWindow;
  const maxOutputTokens = known?.maxOutputTokens ?? live?.maxOutputTokens;
  return {
    id,
    aliases: aliasesOf(id),
    ...(contextWindow ? { context_window: contextWindow } : {}),
    ...(maxOutputTokens ? { max_output_tokens: maxOutputTokens } : {}),
    ...(known?.price ? { price_per_mtok: { input: known.price.input, output: known.price.output } } : {}),
  };
}

/** Anthropic, OpenAI and Gemini all answer errors with `{"error":{"message":…}}`. */
function apiErrorMessage(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || !("error" in body)) return undefined;
  const { error } = body as { error: unknown };
  if (typeof error === "string") return error;
  return typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" ? error.message : undefined;
}

/** fetch hides the socket error ("connect ECONNREFUSED …") in `cause` behind "fetch failed". */
function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === "TimeoutError") return `no answer within ${timeoutMs / 1000} s`;
  if (error instanceof Error && error.cause instanceof Error) return error.cause.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Text: a header per provider (`anthropic (live)`, `openai (known; <why the lookup failed>)`), then
 * one line per model with its aliases, context window and list price. JSON (`json` and
 * `stream-json`): exactly one line, `{"providers":[ModelListing…]}`.
 */
export function formatModelListings(listings: readonly ModelListing[], outputFormat: string): string {
  if (outputFormat !== "text") return `${JSON.stringify({ providers: listings })}\n`;
  return listings.map(formatListing).join("");
}

function formatListing(listing: ModelListing): string {
  const header = `${listing.provider} (${listing.source}${listing.error ? `; ${listing.error}` : ""})\n`;
  if (listing.models.length === 0) return `${header}  (no models)\n`;
  const rows = listing.models.map((model) => [
    model.id,
    model.aliases.join(", "),
    model.context_window ? `${model.context_window.toLocaleString("en-US")} context` : "",
    model.price_per_mtok ? `$${model.price_per_mtok.input} in / $${model.price_per_mtok.output} out per Mtok` : "",
  ]);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  // The context column is right-aligned so its numbers line up.
  const pad = (cell: string, column: number) => (column === 2 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!));
  return header + rows.map((row) => `${`  ${row.map(pad).join("  ")}`.trimEnd()}\n`).join("");
}
