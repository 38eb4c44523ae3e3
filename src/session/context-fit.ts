import type { ProviderRequest } from "../providers/types.js";

/** Local models at or below this window are the ones a default tool set can overflow. */
export const SMALL_CONTEXT_WINDOW = 16_384;

/**
 * For a local model with a small, known context window (`--context-window`): a warning when a
 * request will not fit, since a local server cuts or rejects it without a word. Requests are
 * estimated at about 4 characters per token. Warns again only once the request has doubled.
 */
export function contextFitCheck(windowTokens: number): (request: ProviderRequest) => string | undefined {
  let quietBelow = windowTokens;
  return (request) => {
    const estimated = Math.ceil(JSON.stringify({ system: request.system, messages: request.messages, tools: request.tools }).length / 4);
    if (estimated <= quietBelow) return undefined;
    quietBelow = estimated * 2;
    return `This request is about ${estimated} tokens, more than the model's context window of ${windowTokens} (--context-window): the server will cut or refuse it. Try --tool-profile compact, a shorter prompt, or a model with a larger window.`;
  };
}
