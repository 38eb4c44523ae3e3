import { setTimeout as sleep } from "node:timers/promises";
import { callModel } from "../agent/model-call.js";
import { exponentialBackoff } from "../agent/retry-policy.js";
import type { SideRequest } from "../tools/define-tool.js";
import type { ModelProfile } from "./model-profile.js";
import type { SessionParts } from "./session-parts.js";

/** Room for a side request's answer: an extraction is short, and a smaller request is sooner answered. */
const SIDE_ANSWER_TOKENS = 4_096;

/**
 * The tools' way to ask a model something beside the conversation (WebFetch reading a page): one
 * request with no tools, retried like the conversation's, on `profile`'s model and provider. Its
 * usage goes to `modelUsage` and the cost, never to the turn's `usage` (as Claude Code counts
 * it); nothing of it reaches stdout. Rejects with the provider's message when the request fails.
 */
export function sideRequester(
  parts: Pick<SessionParts, "accounting" | "settings" | "sessionId" | "log">,
  profile: ModelProfile,
): (request: SideRequest, signal: AbortSignal) => Promise<{ text: string }> {
  return async (request, signal) => {
    const outcome = await callModel(
      {
        model: profile.model,
        system: request.system,
        messages: [{ role: "user", content: [{ type: "text", text: request.text }] }],
        tools: [],
        maxOutputTokens: Math.min(profile.maxOutputTokens, SIDE_ANSWER_TOKENS),
        sessionId: parts.sessionId,
      },
      {
        provider: profile.provider,
        retryPolicy: exponentialBackoff(parts.settings.maxRetries),
        streamIdleTimeoutMs: parts.settings.streamIdleTimeoutMs,
        emit: () => {},
        sleep: (ms, wait) => sleep(ms, undefined, { signal: wait }).catch(() => undefined),
        onUsage: (usage, model) => parts.accounting.addSideUsage(usage, model),
        onApiTime: () => {},
        now: Date.now,
        log: parts.log,
      },
      signal,
    );
    if (outcome.kind === "failed") throw new Error(outcome.message);
    if (outcome.kind === "aborted") throw signal.reason ?? new Error("The request was interrupted.");
    const text = outcome.blocks.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    return { text };
  };
}
