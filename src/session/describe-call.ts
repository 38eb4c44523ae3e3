import type { ToolUseBlock } from "../conversation/messages.js";

/** A one-line description of a call for permission prompts: its command, path or pattern. */
export function describeCall(call: ToolUseBlock): string {
  const input = call.input;
  const subject = input.command ?? input.file_path ?? input.path ?? input.pattern;
  return typeof subject === "string" ? subject : call.name;
}
