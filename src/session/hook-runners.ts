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
  run(event: HookEventName, input: Record<string, unknown>, options?: HookRunOptions): Promise<{ outputs: HookOutput[]; undelivered: number }>;
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

/** How a session started, as SessionStart's `source` (and matchers) name it. */
export type SessionStartSource = "startup" | "resume" | "fork" | "clear" | "compact";
/** Why a session ended, as SessionEnd's `reason` names it. */
export type SessionEndReason = "clear" | "prompt_input_exit" | "other";

/**
 * UserPromptSubmit: a hook may block the prompt (the turn ends with an error result and no
 * model request) or add context, which is appended to the prompt.
 */
export async function runUserPromptSubmitHooks(
  hooks: SessionHooks | undefined,
  base: Record<string, unknown>,
  prompt: UserMessage,
  signal: AbortSignal,
): Promise<{ allow: true; prompt: UserMessage } | { allow: false; message: string }> {
  if (!hooks?.has("UserPromptSubmit")) return { allow: true, prompt };
  const text = prompt.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
  const { outputs, undelivered } = await hooks.run("UserPromptSubmit", { ...base, prompt: text, source: "sdk" }, { signal });
  if (undelivered > 0) return { allow: false, message: "The prompt was not run: a UserPromptSubmit hook registered by the host could not be asked (the host is gone)." };
  const blocking = outputs.find((output) => output.decision === "block" || output.continue === false);
  if (blocking) return { allow: false, message: `The prompt was blocked by a UserPromptSubmit hook: ${blocking.reason ?? blocking.stopReason ?? "no reason given"}` };
  const context = outputs.flatMap((output) => (output.hookSpecificOutput?.additionalContext ? [output.hookSpecificOutput.additionalContext] : []));
  return { allow: true, prompt: context.length === 0 ? prompt : { ...prompt, content: [...prompt.content, { type: "text", text: context.join("\n") }] } };
}

/** PostToolUse: informs the host; added context reaches the model with the result. */
export async function runPostToolUseHooks(
  hooks: SessionHooks | undefined,
  base: Record<string, unknown>,
  call: ToolUseBlock,
  result: ToolResult,
  signal: AbortSignal,
): Promise<ToolResult> {
  if (!hooks?.has("PostToolUse")) return result;
  const { outputs } = await hooks.run(
    "PostToolUse",
    { ...base, tool_name: call.name, tool_input: call.input, tool_response: result.details ?? result.content, tool_use_id: call.id },
    { matchValue: call.name, toolUseId: call.id, signal },
  );
  const notes = outputs.flatMap((output) => [output.hookSpecificOutput?.additionalContext, output.decision === "block" ? output.reason : undefined].filter((note): note is string => Boolean(note)));
  if (notes.length === 0 || typeof result.content !== "string") return result;
  return { ...result, content: `${result.content}\n\n${notes.join("\n")}` };
}

/** Stop: a hook answering `decision: "block"` with a reason keeps the turn going with that reason. */
export async function runStopHooks(
  hooks: SessionHooks | undefined,
  base: Record<string, unknown>,
  resultText: string,
  alreadyContinued: boolean,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  if (!hooks?.has("Stop")) return undefined;
  const { outputs } = await hooks.run("Stop", { ...base, stop_hook_active: alreadyContinued, last_assistant_message: resultText }, signal ? { signal } : {});
  return outputs.find((output) => output.decision === "block" && output.reason)?.reason;
}

/**
 * SessionStart: what the hooks add as context (`additionalContext`, or a command hook's plain
 * output) for the model. A SessionStart hook cannot block.
 */
export async function runSessionStartHooks(hooks: SessionHooks | undefined, base: Record<string, unknown>, source: SessionStartSource, model: string, signal?: AbortSignal): Promise<string[]> {
  if (!hooks?.has("SessionStart")) return [];
  const { outputs } = await hooks.run("SessionStart", { ...base, source, model }, { matchValue: source, ...(signal ? { signal } : {}) });
  return additionalContexts(outputs);
}

/** SessionEnd: informs the hooks; nothing they answer changes the end. */
export async function runSessionEndHooks(hooks: SessionHooks | undefined, base: Record<string, unknown>, reason: SessionEndReason): Promise<void> {
  if (!hooks?.has("SessionEnd")) return;
  await hooks.run("SessionEnd", { ...base, reason }, { matchValue: reason });
}

/** Notification: informs the hooks that the session waits on a person (a permission question). */
export async function runNotificationHooks(hooks: SessionHooks | undefined, base: Record<string, unknown>, notification: { message: string; notificationType: string }): Promise<void> {
  if (!hooks?.has("Notification")) return;
  await hooks.run("Notification", { ...base, message: notification.message, notification_type: notification.notificationType }, { matchValue: notification.notificationType });
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
  const { outputs } = await hooks.run("PreCompact", { ...base, trigger: compaction.trigger, custom_instructions: compaction.instructions ?? null }, { matchValue: compaction.trigger, signal });
  const blocking = outputs.find((output) => output.decision === "block" || output.continue === false);
  if (blocking) return { blocked: blocking.reason ?? blocking.stopReason ?? "no reason given" };
  return { instructions: additionalContexts(outputs) };
}

function additionalContexts(outputs: readonly HookOutput[]): string[] {
  return outputs.flatMap((output) => (output.hookSpecificOutput?.additionalContext ? [output.hookSpecificOutput.additionalContext] : []));
}
