import { modelLimits } from "../providers/models.js";
import { isLocalServer } from "../providers/registry.js";
import type { Provider, ProviderRequest } from "../providers/types.js";
import { contextFitCheck, SMALL_CONTEXT_WINDOW } from "./context-fit.js";
import type { CheckedSessionSettings } from "./session-options.js";

/**
 * The most output tokens agentwire asks for in one response, whatever more the model allows:
 * Claude Code's own default cap. Longer answers continue automatically (see OUTPUT_LIMIT_NUDGE).
 */
export const MAX_OUTPUT_TOKENS_CAP = 32_000;

/**
 * Every setting that follows from the model a request goes to. Computed for the session's model
 * at each use, never stored at start, so that after `set_model` all of them are the new model's.
 */
export interface ModelProfile {
  model: string;
  /** The provider for this model: the OpenAI family picks Chat Completions or Responses by model. */
  provider: Provider;
  /** `--context-window`, else the model's own: what compaction measures against. */
  contextWindow: number;
  maxOutputTokens: number;
  /** Room for the skill listing, in characters. */
  skillListingBudget: number;
}

export type ProfileSettings = Pick<CheckedSessionSettings, "provider" | "contextWindow" | "skillListingBudget">;

/** The profile of `model` under the session's settings. Pure, apart from the provider it is handed. */
export function modelProfile(model: string, settings: ProfileSettings, provider: Provider): ModelProfile {
  const limits = modelLimits(model);
  const contextWindow = settings.contextWindow ?? limits.contextWindow;
  return {
    model,
    provider,
    contextWindow,
    maxOutputTokens: Math.min(limits.maxOutputTokens, MAX_OUTPUT_TOKENS_CAP),
    // 1 % of the context window, at about 4 characters per token.
    skillListingBudget: settings.skillListingBudget ?? Math.round(contextWindow * 0.01 * 4),
  };
}

/**
 * For a local model with a small window the user gave (`--context-window`, the same whatever the
 * model): the check that warns when a request will not fit. One per session, since it remembers
 * what it warned about. Ollama checks its own requests against the context it asks for.
 */
export function sessionContextFit(settings: ProfileSettings): ((request: ProviderRequest) => string | undefined) | undefined {
  const window = settings.contextWindow;
  const small =
    isLocalServer(settings.provider) && settings.provider !== "ollama" && window !== undefined && window <= SMALL_CONTEXT_WINDOW;
  return small ? contextFitCheck(window) : undefined;
}

/** One provider per model, made when the model is first used (creating one loads nothing). */
export function providerPerModel(make: (model: string) => Provider): (model: string) => Provider {
  const made = new Map<string, Provider>();
  return (model) => {
    let provider = made.get(model);
    if (!provider) made.set(model, (provider = make(model)));
    return provider;
  };
}
