import { z } from "zod";
import type { HostChannel } from "./host-channel.js";

/** The hook events agentwire raises. */
export type HookEventName = "PreToolUse" | "PostToolUse" | "UserPromptSubmit" | "Stop";
const HOOK_EVENTS: readonly HookEventName[] = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"];

/** `initialize.hooks` as the Agent SDK sends it. */
export const HookRegistrationsSchema = z.record(
  z.string(),
  z.array(z.looseObject({ matcher: z.string().optional(), hookCallbackIds: z.array(z.string()), timeout: z.number().positive().optional() })),
);

/** What a hook callback may answer (Claude Code's HookJSONOutput; unknown fields ignored). */
export const HookOutputSchema = z.looseObject({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  decision: z.enum(["approve", "block"]).optional(),
  reason: z.string().optional(),
  systemMessage: z.string().optional(),
  hookSpecificOutput: z
    .looseObject({
      hookEventName: z.string().optional(),
      // "defer" leaves the decision to the permission system, like no answer.
      permissionDecision: z.enum(["allow", "deny", "ask", "defer"]).optional(),
      permissionDecisionReason: z.string().optional(),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      additionalContext: z.string().optional(),
    })
    .optional(),
});
export type HookOutput = z.infer<typeof HookOutputSchema>;

const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

/**
 * Hooks registered by the host at `initialize` and answered by it through `hook_callback`.
 * A hook that fails, times out or answers garbage is logged and ignored: a broken hook must not
 * wedge the session (the host sees its own error).
 */
export class HostHooks {
  private readonly registrations: Array<{ event: HookEventName; matcher: RegExp | undefined; callbackId: string; timeoutMs: number }>;

  constructor(
    private readonly channel: HostChannel,
    registrations: z.infer<typeof HookRegistrationsSchema>,
    private readonly onProblem: (message: string) => void,
  ) {
    this.registrations = Object.entries(registrations).flatMap(([event, matchers]) =>
      HOOK_EVENTS.includes(event as HookEventName)
        ? matchers.flatMap((registration) =>
            registration.hookCallbackIds.map((callbackId) => ({
              event: event as HookEventName,
              matcher: toMatcher(registration.matcher),
              callbackId,
              timeoutMs: (registration.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS) * 1000,
            })),
          )
        : [],
    );
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
    options: { toolName?: string; toolUseId?: string; signal?: AbortSignal } = {},
  ): Promise<{ outputs: HookOutput[]; undelivered: number }> {
    const outputs: HookOutput[] = [];
    let undelivered = 0;
    for (const registration of this.registrations) {
      if (registration.event !== event) continue;
      if (registration.matcher && options.toolName !== undefined && !registration.matcher.test(options.toolName)) continue;
      const signals = [AbortSignal.timeout(registration.timeoutMs), ...(options.signal ? [options.signal] : [])];
      try {
        const answer = await this.channel.request(
          "hook_callback",
          { callback_id: registration.callbackId, input: { hook_event_name: event, ...input }, ...(options.toolUseId ? { tool_use_id: options.toolUseId } : {}) },
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

/** Claude Code matchers: empty or `*` match every tool; otherwise a name, `A|B`, or a regex. */
function toMatcher(matcher: string | undefined): RegExp | undefined {
  if (matcher === undefined || matcher === "" || matcher === "*") return undefined;
  try {
    return new RegExp(`^(?:${matcher})$`);
  } catch {
    return new RegExp(`^${matcher.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  }
}
