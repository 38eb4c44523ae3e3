import type { Provider, ProviderErrorKind, ProviderRequest, StopReason, Usage } from "../providers/types.js";
import type { AgentEvent } from "./events.js";
import type { AssistantContentBlock } from "../conversation/messages.js";
import { ResponseAccumulator } from "../providers/response-accumulator.js";
import type { RetryPolicy } from "./retry-policy.js";

export type ModelCallOutcome =
  | {
      kind: "completed";
      blocks: AssistantContentBlock[];
      stopReason: { normalized: StopReason; raw: string | null };
    }
  | { kind: "aborted"; blocks: AssistantContentBlock[] }
  | { kind: "failed"; errorKind: ProviderErrorKind; status: number | null; message: string };

export interface ModelCallDependencies {
  provider: Provider;
  retryPolicy: RetryPolicy;
  emit: (event: AgentEvent) => void;
  /** Resolves after `ms`, or early when `signal` aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Receives the usage of every attempt, including failed and abandoned ones (they are billed). */
  onUsage: (usage: Usage, model: string) => void;
  /** Wall-clock milliseconds spent waiting on the API. */
  onApiTime: (ms: number) => void;
  now: () => number;
  /** Debug diagnostics: each request and response; absent = none. */
  log?: DebugLog;
  /**
   * Longest silence between two stream events (or before the first) before the attempt is
   * abandoned and retried like a dropped connection. Absent: no limit.
   */
  streamIdleTimeoutMs?: number;
  /** Called once per model request, before its first attempt (the session's fit check). */
  beforeRequest?: (request: ProviderRequest) => void;
}

/** The debug part of a logger (pino's satisfies it). */
export interface DebugLog {
  debug(fields: Record<string, unknown>, message: string): void;
  isLevelEnabled?(level: string): boolean;
}

/**
 * One model request, retried on transient failures. Each attempt streams live to the sink; an
 * abandoned attempt's blocks are dropped here, so they never reach the committed message, and
 * its tool calls are never executed.
 */
export async function callModel(
  request: ProviderRequest,
  dependencies: ModelCallDependencies,
  signal: AbortSignal,
): Promise<ModelCallOutcome> {
  const { provider, retryPolicy, emit } = dependencies;
  dependencies.beforeRequest?.(request);
  for (let attempt = 1; ; attempt++) {
    emit({ type: "model_request_start", attempt });
    const accumulator = new ResponseAccumulator();
    const startedAt = dependencies.now();
    if (dependencies.log?.isLevelEnabled?.("debug") ?? dependencies.log !== undefined) {
      // Measuring the body costs a serialization: only when someone reads it.
      dependencies.log?.debug(
        {
          provider: provider.id,
          url: provider.endpoint,
          model: request.model,
          attempt,
          bytes: JSON.stringify(request).length,
          messages: request.messages.length,
          tools: request.tools.length,
        },
        "model request",
      );
    }
    let failure: { kind: ProviderErrorKind; status: number | null; message: string; retryable: boolean; retryAfterMs?: number } | undefined;
    // A stalled stream (headers and a few chunks, then silence) would otherwise hold the turn for
    // as long as the HTTP client's body timeout: the watchdog cancels the attempt's own request.
    const watchdog = new IdleWatchdog(dependencies.streamIdleTimeoutMs, signal);
    try {
      for await (const event of provider.stream(request, watchdog.signal)) {
        watchdog.reset();
        if (event.type === "error") {
          failure = event;
          break;
        }
        accumulator.apply(event);
        emit({ type: "model_stream", event, response: accumulator });
      }
    } finally {
      watchdog.dispose();
    }
    if (watchdog.fired && !signal.aborted) {
      failure = {
        kind: "disconnect",
        status: null,
        message: `The model stream sent nothing for ${Math.round(watchdog.timeoutMs! / 1000)} s; the request was abandoned.`,
        retryable: true,
      };
    }
    const elapsedMs = dependencies.now() - startedAt;
    dependencies.onApiTime(elapsedMs);
    dependencies.log?.debug(
      failure
        ? { provider: provider.id, attempt, ms: elapsedMs, error: failure.kind, status: failure.status, message: failure.message }
        : {
            provider: provider.id,
            attempt,
            ms: elapsedMs,
            messageId: accumulator.messageId,
            stopReason: accumulator.stopReason?.raw ?? null,
            inputTokens: accumulator.usage.inputTokens,
            outputTokens: accumulator.usage.outputTokens,
          },
      "model response",
    );
    if (accumulator.messageId) dependencies.onUsage(accumulator.usage, accumulator.model || request.model);

    if (signal.aborted || failure?.kind === "aborted") {
      emit({ type: "model_response_aborted", response: accumulator, partialBlock: accumulator.partialBlock() });
      const partial = accumulator.partialBlock();
      // Completed tool_use blocks stay: the consumer has seen them, so each still gets a result.
      return { kind: "aborted", blocks: [...accumulator.blocks(), ...(partial ? [partial] : [])] };
    }
    if (!failure) {
      if (accumulator.stopReason) {
        return {
          kind: "completed",
          blocks: accumulator.blocks(),
          stopReason: accumulator.stopReason,
        };
      }
      failure = { kind: "disconnect", status: null, message: "The model stream ended without a stop reason.", retryable: true };
    }
    if (accumulator.messageId) {
      const toolUseIds = accumulator.blocks().flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
      emit({ type: "model_response_abandoned", response: accumulator, toolUseIds });
    }
    if (!failure.retryable || attempt > retryPolicy.maxRetries) {
      return { kind: "failed", errorKind: failure.kind, status: failure.status, message: failure.message };
    }
    const delayMs = retryPolicy.delayMs(attempt, failure.retryAfterMs);
    emit({ type: "api_retry", attempt, maxRetries: retryPolicy.maxRetries, delayMs, status: failure.status, errorKind: failure.kind });
    await dependencies.sleep(delayMs, signal);
    if (signal.aborted) {
      emit({ type: "model_response_aborted", response: undefined, partialBlock: undefined });
      return { kind: "aborted", blocks: [] };
    }
  }
}

/**
 * Aborts its signal when `reset` has not been called for `timeoutMs`, or when `parent` aborts.
 * `reset` runs per stream event, so it only records the time; the one timer re-arms itself for
 * whatever is left of the window when it fires early.
 */
/**
 * A monotonic clock in milliseconds. Not `performance.now()`: the first touch of the `performance`
 * global loads node:perf_hooks and the modules behind it (~0.75 ms of CPU on every answer).
 */
const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

class IdleWatchdog {
  readonly signal: AbortSignal;
  fired = false;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private lastActivity = monotonicMs();

  constructor(
    readonly timeoutMs: number | undefined,
    parent: AbortSignal,
  ) {
    this.signal = timeoutMs === undefined ? parent : AbortSignal.any([parent, this.controller.signal]);
    if (timeoutMs !== undefined) this.arm(timeoutMs);
  }

  reset(): void {
    this.lastActivity = monotonicMs();
  }

  dispose(): void {
    clearTimeout(this.timer);
  }

  private arm(delayMs: number): void {
    this.timer = setTimeout(() => {
      const idleMs = monotonicMs() - this.lastActivity;
      if (idleMs < this.timeoutMs!) return this.arm(this.timeoutMs! - idleMs);
      this.fired = true;
      this.controller.abort(new Error("stream idle timeout"));
    }, delayMs);
  }
}
