import type { HookEventName, HookOutput } from "../../protocol/control.js";
import type { ToolUseBlock, UserMessage } from "../conversation/messages.js";
import type { ToolResult } from "../conversation/tool-result.js";

/**
 * Hooks of Claude Code's events, answered in Claude Code's hook output. A host registers them
 * (the stdin/stdout adapter implements this over `hook_callback` control requests; a library
 * caller may implement it with plain functions); settings files declare shell commands
 * (command-hooks.ts). The session runs both through one `combineHooks`, and the functions below
 * give every event its meaning once, whoever answered.
 *
 * Contract: `run` never throws. It runs the hooks whose matcher matches `matchValue` (every hook
 * when it is undefined) and returns what they answered; `undelivered` counts hooks that could
 * not be asked because the host is gone, so guard hooks (PreToolUse, UserPromptSubmit) can fail
 * closed.
 */
export interface SessionHooks {
  has(event: HookEventName): boolean;
  run(
    event: HookEventName,
    input: Record<string, unknown>,
    options?: HookRunOptions,
  ): Promise<{ outputs: HookOutput[]; undelivered: number }>;
}

export interface HookRunOptions {
  /**
   * What matchers test: the tool's name (PreToolUse, PostToolUse), SessionStart's `source`,
   * SessionEnd's `reason`, PreCompact's `trigger`, Notification's `notification_type`.
   */
  matchValue?: string;
  toolUseId?: string;
  signal?: AbortSignal;
}

/**
 * A hook answered `continue: false`: Claude Code stops the run once every hook of that event
 * has answered, whatever else they said. `reason` is the hook's `stopReason`, for the user only:
 * the model never reads it.
 */
export interface HookStop {
  event: HookEventName;
  reason: string | undefined;
}

/** The first `continue: false` among an event's answers, if any. Pure. */
export function hookStopOf(event: HookEventName, outputs: readonly HookOutput[]): HookStop | undefined {
  const stopping = outputs.find((output) => output.continue === false);
  return stopping ? { event, reason: stopping.stopReason ?? undefined } : undefined;
}

/** What the user is told when a hook stopped the run. */
export function describeHookStop(stop: HookStop): string {
  return stop.reason ? `A ${stop.event} hook stopped the run: ${stop.reason}` : `A ${stop.event} hook stopped the run.`;
}

/** How a session started, as SessionStart's `source` (and matchers) name it. */
export type SessionStartSource = "startup" | "resume" | "fork" | "clear" | "compact";
/** Why a session ended, as SessionEnd's `reason` names it. */
export type SessionEndReason = "clear" | "prompt_input_exit" | "other";

/**
 * UserPromptSubmit: a hook may stop the run (`continue: false`: no model request, the prompt is
 * dropped), block the prompt (the turn ends with an error result and no model request) or add
 * context, which is appended to the prompt.
 */
export async function runUserPromptSubmitHooks(
  hooks: SessionHooks | undefined,
  base: Record<string, unknown>,
  prompt: UserMessage,
  signal: AbortSignal,
): Promise<{ allow: true; prompt: UserMessage } | { allow: false; message: string } | { allow: false; stop: HookStop }> {
  if (!hooks?.has("UserPromptSubmit")) return { allow: true, prompt };
  const text = prompt.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
  const { outputs, undelivered } = await hooks.run("UserPromptSubmit", { ...base, prompt: text, source: "sdk" }, { signal });
  if (undelivered > 0)
    return {
      allow: false,
      message: "The prompt was not run: a UserPromptSubmit hook registered by the host could not be asked (the host is gone).",
    };
  const stop = hookStopOf("UserPromptSubmit", outputs);
  if (stop) return { allow: false, stop };
  const blocking = outputs.find((output) => output.decision === "block");
  if (blocking)
    return { allow: false, message: `The prompt was blocked by a UserPromptSubmit hook: ${blocking.reason ?? "no reason given"}` };
  const context = outputs.flatMap((output) =>
    output.hookSpecificOutput?.additionalContext ? [output.hookSpecificOutput.additionalContext] : [],
  );
  return {
    allow: true,
    prompt: context.length === 0 ? prompt : { ...prompt, content: [...prompt.content, { type: "text", text: context.join("\n") }] },
  };
}

/** What the PreToolUse hooks decided about one call. */
export interface PreToolUseVerdict {
  /** The call's input, as the hooks rewrote it (`updatedInput`). */
  input: Record<string, unknown>;
  /** A hook denied the call; the reason is for the model. */
  deny?: string;
  /** A hook approved the call itself. */
  allow: boolean;
  /** A hook wants the call approved by a person (or the host). */
  ask?: string;
  /** Hooks the host registered that could not be asked: guards fail closed. */
  undelivered: number;
  /** A hook stopped the run: the call runs or not as decided above, and nothing after it. */
  stop?: HookStop;
}

/**
 * PreToolUse: the hooks may deny, allow, ask or rewrite the input. `continue: false` does not
 * decide the call (Claude Code runs an allowed call and then stops); it ends the run after it.
 */
export async function runPreToolUseHooks(
  hooks: SessionHooks | undefined,
  base: Record<string, unknown>,
  call: ToolUseBlock,
  signal: AbortSignal,
): Promise<PreToolUseVerdict> {
  const verdict: PreToolUseVerdict = { input: call.input, allow: false, undelivered: 0 };
  if (!hooks?.has("PreToolUse")) return verdict;
  const { outputs, undelivered } = await hooks.run(
    "PreToolUse",
    { ...base, tool_name: call.name, tool_input: call.input, tool_use_id: call.id },
    { matchValue: call.name, toolUseId: call.id, signal },
  );
  verdict.undelivered = undelivered;
  const stop = hookStopOf("PreToolUse", outputs);
  if (stop) verdict.stop = stop;
  for (const output of outputs) {
    const specific = output.hookSpecificOutput;
    if (specific?.updatedInput) verdict.input = specific.updatedInput;
    const decision =
      specific?.permissionDecision ?? (output.decision === "block" ? "deny" : output.decision === "approve" ? "allow" : undefined);
    const reason = specific?.permissionDecisionReason ?? output.reason ?? undefined;
    if (decision === "deny") {
      verdict.deny = reason ?? `A PreToolUse hook blocked ${call.name}.`;
      return verdict;
    }
    if (decision === "allow") verdict.allow = true;
    if (decision === "ask") verdict.ask = reason ?? "A PreToolUse hook asked for approval.";
  }
  return verdict;
}

/** PostToolUse: informs the host; added context reaches the model with the result. */
export async function runPostToolUseHooks(
  hooks: SessionHooks | undefined,
  base: Record<string, unknown>,
  call: ToolUseBlock,
  result: ToolResult,
  signal: AbortSignal,
): Promise<{ result: ToolResult; stop?: HookStop }> {
  if (!hooks?.has("PostToolUse")) return { result };
  const { outputs } = await hooks.run(
    "PostToolUse",
    { ...base, tool_name: call.name, tool_input: call.input, tool_response: result.details ?? result.content, tool_use_id: call.id },
    { matchValue: call.name, toolUseId: call.id, signal },
  );
  const stop = hookStopOf("PostToolUse", outputs);
  const notes = outputs.flatMap((output) =>
    [output.hookSpecificOutput?.additionalContext, output.decision === "block" ? output.reason : undefined].filter((note): note is string =>
      Boolean(note),
    ),
  );
  const noted =
    notes.length === 0 || typeof result.content !== "string" ? result : { ...result, content: `${result.content}\n\n${notes.join("\n")}` };
  return stop ? { result: noted, stop } : { result: noted };
}

/**
 * Stop: a hook answering `decision: "block"` with a reason keeps the turn going with that reason;
 * `continue: false` ends it all the same (it takes precedence over a block).
 */
export async function runStopHooks(
  hooks: SessionHooks | undefined,
  base: Record<string, unknown>,
  resultText: string,
  alreadyContinued: boolean,
  signal: AbortSignal | undefined,
): Promise<{ feedback?: string; stop?: HookStop }> {
  if (!hooks?.has("Stop")) return {};
  const { outputs } = await hooks.run(
    "Stop",
    { ...base, stop_hook_active: alreadyContinued, last_assistant_message: resultText },
    signal ? { signal } : {},
  );
  const stop = hookStopOf("Stop", outputs);
  if (stop) return { stop };
  const feedback = outputs.find((output) => output.decision === "block" && output.reason)?.reason;
  return feedback ? { feedback } : {};
}

/**
 * SessionStart: what the hooks add as context (`additionalContext`, or a command hook's plain
 * output) for the model. A SessionStart hook cannot block, but `continue: false` stops the run.
 */
export async function runSessionStartHooks(
  hooks: SessionHooks | undefined,
  base: Record<string, unknown>,
  source: SessionStartSource,
  model: string,
  signal?: AbortSignal,
): Promise<{ context: string[]; stop?: HookStop }> {
  if (!hooks?.has("SessionStart")) return { context: [] };
  const { outputs } = await hooks.run("SessionStart", { ...base, source, model }, { matchValue: source, ...(signal ? { signal } : {}) });
  const stop = hookStopOf("SessionStart", outputs);
  return stop ? { context: additionalContexts(outputs), stop } : { context: additionalContexts(outputs) };
}

/** SessionEnd: informs the hooks; nothing they answer changes the end. */
export async function runSessionEndHooks(
  hooks: SessionHooks | undefined,
  base: Record<string, unknown>,
  reason: SessionEndReason,
): Promise<void> {
  if (!hooks?.has("SessionEnd")) return;
  await hooks.run("SessionEnd", { ...base, reason }, { matchValue: reason });
}

/** Notification: informs the hooks that the session waits on a person (a permission question). */
export async function runNotificationHooks(
  hooks: SessionHooks | undefined,
  base: Record<string, unknown>,
  notification: { message: string; notificationType: string },
): Promise<void> {
  if (!hooks?.has("Notification")) return;
  await hooks.run(
    "Notification",
    { ...base, message: notification.message, notification_type: notification.notificationType },
    { matchValue: notification.notificationType },
  );
}

/**
 * PreCompact: a hook answering `decision: "block"` (a command hook: exit 2) stops the
 * compaction; added context (a command hook: its plain output) joins the summary's instructions.
 */
export async function runPreCompactHooks(
  hooks: SessionHooks | undefined,
  base: Record<string, unknown>,
  compaction: { trigger: "auto" | "manual"; instructions: string | undefined },
  signal: AbortSignal,
): Promise<{ blocked: string } | { instructions: string[] }> {
  if (!hooks?.has("PreCompact")) return { instructions: [] };
  const { outputs } = await hooks.run(
    "PreCompact",
    { ...base, trigger: compaction.trigger, custom_instructions: compaction.instructions ?? null },
    { matchValue: compaction.trigger, signal },
  );
  const blocking = outputs.find((output) => output.decision === "block" || output.continue === false);
  if (blocking) return { blocked: blocking.reason ?? blocking.stopReason ?? "no reason given" };
  return { instructions: additionalContexts(outputs) };
}

function additionalContexts(outputs: readonly HookOutput[]): string[] {
  return outputs.flatMap((output) => (output.hookSpecificOutput?.additionalContext ? [output.hookSpecificOutput.additionalContext] : []));
}
