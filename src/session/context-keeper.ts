import type { AgentEvent } from "../agent/events.js";
import { conversationFromSummary, estimateTokens, stubOldToolOutputs, summarizeConversation } from "../agent/compaction.js";
import type { Message } from "../conversation/messages.js";
import type { ToolSpec, Usage } from "../providers/types.js";
import type { ModelProfile } from "./model-profile.js";
import { runPreCompactHooks, runSessionStartHooks, type SessionHooks } from "./hook-runners.js";

/** After compacting, the conversation should take at most this share of the threshold. */
const TARGET_SHARE = 0.6;
/** The safety margin below the window, at most this many tokens (Claude Code keeps ~13 K). */
const MAX_BUFFER_TOKENS = 13_000;

export interface ContextKeeperInput {
  sessionId: string;
  /** Read at each use: the model the session talks to now, and its window and output reserve. */
  profile: () => ModelProfile;
  /** `--auto-compact-threshold` / AGENTWIRE_AUTOCOMPACT_PCT: a share of the window; undefined = the default. */
  thresholdPercent: number | undefined;
  /** `--no-auto-compact`: only `/compact` compacts. */
  automatic: boolean;
  system: string;
  /** The tools a request with these messages carries (deferred ones only once loaded). */
  toolSpecs: (messages: readonly Message[]) => ToolSpec[];
  onUsage: (usage: Usage, model: string) => void;
  hooks: () => SessionHooks | undefined;
  hookBase: () => Record<string, unknown>;
  /** What must survive a summary besides it (the instructions of skills loaded this session). */
  extraContext: () => Promise<string[]>;
}

/**
 * Estimated tokens above which a request triggers compaction: `thresholdPercent` of the window,
 * else the window minus the output reserve minus a safety margin.
 */
export function compactionThreshold(
  profile: Pick<ModelProfile, "contextWindow" | "maxOutputTokens">,
  thresholdPercent: number | undefined,
): number {
  const window = profile.contextWindow;
  if (thresholdPercent !== undefined) return Math.floor((window * thresholdPercent) / 100);
  const reserve = Math.min(profile.maxOutputTokens, Math.floor(window * 0.2));
  const buffer = Math.min(MAX_BUFFER_TOKENS, Math.floor(window * 0.1));
  return window - reserve - buffer;
}

/**
 * The session's side of compaction: when the conversation is compacted (over the threshold of
 * the model in use, or after an overflow), the events and hooks around it, and the two phases of
 * src/agent/compaction.ts.
 */
export class ContextKeeper {
  constructor(private readonly input: ContextKeeperInput) {}

  private get threshold(): number {
    return compactionThreshold(this.input.profile(), this.input.thresholdPercent);
  }

  /** The loop's hook (LoopDependencies.maintainContext). */
  async maintain(
    history: Message[],
    cause: "threshold" | "overflow",
    signal: AbortSignal,
    emit: (event: AgentEvent) => void,
  ): Promise<"unchanged" | "compacted" | "failed"> {
    if (!this.input.automatic || signal.aborted) return "unchanged";
    // The prompt alone: there is nothing before it to compact; if the server refuses it, the
    // overflow path still summarizes it as a last resort.
    if (cause === "threshold" && (history.length <= 1 || this.estimate(history) <= this.threshold)) return "unchanged";
    return this.compact(history, { trigger: "auto", instructions: undefined, force: cause === "overflow" }, signal, emit);
  }

  /**
   * Compacts `history` in place: old tool outputs first; a summary when that is not enough (or
   * always, for `/compact`). Emits `compaction_start` / `compaction_end`, runs PreCompact (which
   * may block it or add instructions), SessionStart (source "compact", after a summary) and
   * PostCompact hooks. Contract: never throws; a failure leaves the history as it was.
   */
  async compact(
    history: Message[],
    options: { trigger: "auto" | "manual"; instructions: string | undefined; force: boolean },
    signal: AbortSignal,
    emit: (event: AgentEvent) => void,
  ): Promise<"unchanged" | "compacted" | "failed"> {
    const startedAt = performance.now();
    const preTokens = this.estimate(history);
    emit({ type: "compaction_start" });
    const end = (messages: Message[] | undefined, error?: string): "compacted" | "failed" => {
      emit({
        type: "compaction_end",
        trigger: options.trigger,
        preTokens,
        postTokens: messages ? this.estimate(messages) : preTokens,
        durationMs: performance.now() - startedAt,
        messages,
        ...(error ? { error } : {}),
      });
      return messages ? "compacted" : "failed";
    };
    try {
      const preCompact = await runPreCompactHooks(
        this.input.hooks(),
        this.input.hookBase(),
        { trigger: options.trigger, instructions: options.instructions },
        signal,
      );
      if ("blocked" in preCompact) return end(undefined, `A PreCompact hook blocked the compaction: ${preCompact.blocked}`);
      const instructions =
        [options.instructions, ...preCompact.instructions].filter((text) => text !== undefined && text !== "").join("\n\n") || undefined;
      const profile = this.input.profile();
      const target = Math.floor(compactionThreshold(profile, this.input.thresholdPercent) * TARGET_SHARE);
      const stubbed = stubOldToolOutputs(history);
      let next: Message[];
      let summaryText = "";
      if (stubbed && options.trigger === "auto" && !options.force && this.estimate(stubbed) <= target) {
        next = stubbed;
        summaryText = "Old tool outputs were replaced by stubs; the conversation is otherwise unchanged.";
      } else {
        const summary = await summarizeConversation(stubbed ?? history, {
          provider: profile.provider,
          model: profile.model,
          sessionId: this.input.sessionId,
          contextWindow: profile.contextWindow,
          instructions,
          signal,
          onUsage: this.input.onUsage,
        });
        if ("error" in summary) return end(undefined, summary.error);
        summaryText = summary.summary;
        // A summary starts the conversation over: SessionStart hooks (source "compact") may add context to it.
        // Their `continue: false` is not honoured here: the compaction is done, and the turn it serves goes on.
        const started = await runSessionStartHooks(this.input.hooks(), this.input.hookBase(), "compact", profile.model, signal);
        next = conversationFromSummary(
          stubbed ?? history,
          summary.summary,
          [...(await this.input.extraContext()), ...started.context],
          target,
        );
      }
      history.splice(0, history.length, ...next);
      await this.runPostCompactHooks(options.trigger, summaryText, signal);
      return end(next);
    } catch (error) {
      return end(undefined, (error as Error).message);
    }
  }

  private estimate(messages: readonly Message[]): number {
    return estimateTokens(this.input.system, this.input.toolSpecs(messages), messages);
  }

  private async runPostCompactHooks(trigger: "auto" | "manual", summary: string, signal: AbortSignal): Promise<void> {
    const hooks = this.input.hooks();
    if (!hooks?.has("PostCompact")) return;
    await hooks.run(
      "PostCompact",
      { ...this.input.hookBase(), hook_event_name: "PostCompact", trigger, compact_summary: summary },
      { matchValue: trigger, signal },
    );
  }
}
