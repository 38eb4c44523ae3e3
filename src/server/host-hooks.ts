import type { HookEventName, HookOutput, HookRegistrations } from "../../protocol/control.js";
import { HookEventNameSchema, HookOutputSchema } from "../../protocol/control.js";
import { compileHookMatcher } from "../session/hook-matcher.js";
import type { HookRunOptions, SessionHooks } from "../session/hook-runners.js";
import type { HostChannel } from "./host-channel.js";

const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

/**
 * Hooks registered by the host at `initialize` and answered by it through `hook_callback`.
 * A hook that fails, times out or answers garbage is logged and ignored: a broken hook must not
 * wedge the session (the host sees its own error).
 */
export class HostHooks implements SessionHooks {
  private readonly registrations: Array<{
    event: HookEventName;
    matches: (value: string | undefined) => boolean;
    callbackId: string;
    timeoutMs: number;
  }>;

  constructor(
    private readonly channel: HostChannel,
    registrations: HookRegistrations,
    private readonly onProblem: (message: string) => void,
  ) {
    this.registrations = Object.entries(registrations).flatMap(([event, matchers]) => {
      const known = HookEventNameSchema.safeParse(event);
      if (!known.success || matchers === undefined) return [];
      return matchers.flatMap((registration) =>
        registration.hookCallbackIds.map((callbackId) => ({
          event: known.data,
          matches: compileHookMatcher(registration.matcher),
          callbackId,
          timeoutMs: (registration.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS) * 1000,
        })),
      );
    });
  }

  has(event: HookEventName): boolean {
    return this.registrations.some((registration) => registration.event === event);
  }

  /**
   * Runs the matching callbacks one after another (hooks may depend on order). `undelivered`
   * counts callbacks that could not be asked because the host closed its input: guard hooks
   * (PreToolUse, UserPromptSubmit) must then fail closed.
   */
  async run(
    event: HookEventName,
    input: Record<string, unknown>,
    options: HookRunOptions = {},
  ): Promise<{ outputs: HookOutput[]; undelivered: number }> {
    const outputs: HookOutput[] = [];
    let undelivered = 0;
    for (const registration of this.registrations) {
      if (registration.event !== event) continue;
      if (!registration.matches(options.matchValue)) continue;
      const signals = [AbortSignal.timeout(registration.timeoutMs), ...(options.signal ? [options.signal] : [])];
      try {
        const answer = await this.channel.request(
          "hook_callback",
          {
            callback_id: registration.callbackId,
            input: { hook_event_name: event, ...input },
            ...(options.toolUseId ? { tool_use_id: options.toolUseId } : {}),
          },
          AbortSignal.any(signals),
        );
        const parsed = HookOutputSchema.safeParse(answer);
        if (parsed.success) outputs.push(parsed.data);
        else this.onProblem(`hook ${registration.callbackId} answered an unreadable ${event} output`);
      } catch (error) {
        if (options.signal?.aborted) break;
        if (this.channel.isClosed) undelivered++;
        this.onProblem(`hook ${registration.callbackId} (${event}) failed: ${(error as Error).message}`);
      }
    }
    return { outputs, undelivered };
  }
}
