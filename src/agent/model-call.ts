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
  for (let attempt = 1; ; attempt++) {
    emit({ type: "model_request_start", attempt });
    const accumulator = new ResponseAccumulator();
    const startedAt = dependencies.now();
    if (dependencies.log?.isLevelEnabled?.("debug") ?? dependencies.log !== undefined) {
      // Measuring the body costs a serialization: only when someone reads it.
      dependencies.log?.debug({ provider: provider.id, url: provider.endpoint, model: request.model, attempt, bytes: JSON.stringify(request).length, messages: request.messages.length, tools: request.tools.length }, "model request");
    }
    let failure: { kind: ProviderErrorKind; status: number | null; message: string; retryable: boolean; retryAfterMs?: number } | undefined;
    for await (const event of provider.stream(request, signal)) {
      if (event.type === "error") {
        failure = event;
        break;
      }
      accumulator.apply(event);
      emit({ type: "model_stream", event, response: accumulator });
    }
    const elapsedMs = dependencies.now() - startedAt;
    dependencies.onApiTime(elapsedMs);
    dependencies.log?.debug(
      failure
        ? { provider: provider.id, attempt, ms: elapsedMs, error: failure.kind, status: failure.status, message: failure.message }
        : { provider: provider.id, attempt, ms: elapsedMs, messageId: accumulator.messageId, stopReason: accumulator.stopReason?.raw ?? null, inputTokens: accumulator.usage.inputTokens, outputTokens: accumulator.usage.outputTokens },
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
