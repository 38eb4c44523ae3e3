import type { ModelUsageEntry } from "../../protocol/events.js";
import { costUsd, modelLimits } from "../providers/models.js";
import type { Usage } from "../providers/types.js";

type TokenCounts = Pick<Usage, "inputTokens" | "outputTokens" | "cacheReadInputTokens" | "cacheCreationInputTokens">;

function addTokens(total: TokenCounts, usage: TokenCounts): void {
  total.inputTokens += usage.inputTokens;
  total.outputTokens += usage.outputTokens;
  total.cacheReadInputTokens += usage.cacheReadInputTokens;
  total.cacheCreationInputTokens += usage.cacheCreationInputTokens;
}

/**
 * Token, cost and time bookkeeping. A turn's usage is the exact sum over every API attempt it
 * made (failed and abandoned attempts are billed too); `modelUsage` and cost are cumulative for
 * the session, as Claude Code reports them, and survive `--resume` through the session file.
 */
export class SessionAccounting {
  private readonly modelUsage: Record<string, ModelUsageEntry>;
  private totalCost: number;
  turnUsage: TokenCounts = { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
  /** Of the turn's output tokens, those the provider reported as reasoning (OpenAI); 0 when it does not say. */
  turnThinkingTokens = 0;
  turnApiMs = 0;

  /**
   * `contextWindow` (`--context-window`) replaces the table's value, for local models whose
   * window is whatever their server was started with.
   */
  constructor(
    previous: { modelUsage: Record<string, ModelUsageEntry>; totalCostUsd: number } = { modelUsage: {}, totalCostUsd: 0 },
    private readonly overrides: { contextWindow?: number | undefined } = {},
  ) {
    this.modelUsage = structuredClone(previous.modelUsage);
    this.totalCost = previous.totalCostUsd;
  }

  startTurn(): void {
    this.turnUsage = { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
    this.turnThinkingTokens = 0;
    this.turnApiMs = 0;
  }

  addUsage(usage: Usage, model: string): void {
    addTokens(this.turnUsage, usage);
    this.turnThinkingTokens += usage.reasoningTokens ?? 0;
    this.addSideUsage(usage, model);
  }

  /**
   * A model request made beside the conversation (a subagent's turns, WebFetch's extraction,
   * WebSearch's search request). Claude Code counts these in `modelUsage` and the cost only: the
   * result's `usage` stays the main conversation's own requests.
   */
  addSideUsage(usage: Usage, model: string, webSearchRequests = 0): void {
    const limits = modelLimits(model);
    const entry = (this.modelUsage[model] ??= {
      inputTokens: 0,
      outputTokens: 0,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      webSearchRequests: 0,
      costUSD: 0,
      contextWindow: this.overrides.contextWindow ?? limits.contextWindow,
      maxOutputTokens: limits.maxOutputTokens,
    });
    addTokens(entry, usage);
    entry.webSearchRequests += webSearchRequests;
    const cost = costUsd(model, usage);
    entry.costUSD += cost;
    this.totalCost += cost;
  }

  addApiTime(ms: number): void {
    this.turnApiMs += ms;
  }

  totalCostUsd(): number {
    return this.totalCost;
  }

  modelUsageSnapshot(): Record<string, ModelUsageEntry> {
    return structuredClone(this.modelUsage);
  }
}
