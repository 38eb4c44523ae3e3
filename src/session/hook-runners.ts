import type { HookEventName, HookOutput } from "../../protocol/control.js";
import type { ToolUseBlock, UserMessage } from "../conversation/messages.js";
import type { ToolResult } from "../conversation/tool-result.js";

/**
 * Hooks a host registered (Claude Code's hook events, answered by the host). The stdin/stdout
 * adapter implements this over `hook_callback` control requests; a library caller may implement
 * it with plain functions.
 *
 * Contract: `run` never throws. It calls the matching hooks one after another and returns what
 * they answered; `undelivered` counts hooks that could not be asked because the host is gone,
 * so guard hooks (PreToolUse, UserPromptSubmit) can fail closed.
 */
export interface SessionHooks {
  has(event: HookEventName): boolean;
  run(
    event: HookEventName,
    input: Record<string, unknown>,
    options?: { toolName?: string; toolUseId?: string; signal?: AbortSignal },
  ): Promise<{ outputs: HookOutput[]; undelivered: number }>;
}

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
    { toolName: call.name, toolUseId: call.id, signal },
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
