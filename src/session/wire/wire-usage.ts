import type { MessageUsage, ResultUsage } from "../../../protocol/events.js";
import type { Usage } from "../../providers/types.js";

type TokenCounts = Pick<Usage, "inputTokens" | "outputTokens" | "cacheReadInputTokens" | "cacheCreationInputTokens">;

/** Usage as an assistant line carries it (Anthropic's message shape); no usage counts as zeros. */
export function messageUsage(usage: TokenCounts | undefined): MessageUsage {
  return {
    input_tokens: usage?.inputTokens ?? 0,
    cache_creation_input_tokens: usage?.cacheCreationInputTokens ?? 0,
    cache_read_input_tokens: usage?.cacheReadInputTokens ?? 0,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: usage?.outputTokens ?? 0,
    service_tier: "standard",
  };
}

/** Usage as a `result` line carries it; no usage counts as zeros. */
export function resultUsage(usage: TokenCounts | undefined, thinkingTokens = 0): ResultUsage {
  return {
    input_tokens: usage?.inputTokens ?? 0,
    cache_creation_input_tokens: usage?.cacheCreationInputTokens ?? 0,
    cache_read_input_tokens: usage?.cacheReadInputTokens ?? 0,
    output_tokens: usage?.outputTokens ?? 0,
    output_tokens_details: { thinking_tokens: thinkingTokens },
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: "standard",
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
    // Claude Code's values for a direct API call; the Agent SDK declares these fields required.
    inference_geo: "",
    iterations: [],
    speed: "standard",
    fallback_credit: null,
  };
}
