import { clip, plural } from "./text.js";

/** A call's input as the views receive it: any JSON object (the model may send odd types). */
export type ToolInput = Record<string, unknown>;

/**
 * The one argument that says what a call does: its path (relative to the session's folder when
 * inside it), the first line of its command, its pattern, URL, query… Empty for a call without
 * input; other inputs as clipped JSON.
 */
export function keyArgument(toolName: string, input: ToolInput | undefined, cwd?: string): string {
  if (isAgentTool(toolName)) return subagentLabel(input);
  const string = (key: string): string | undefined => (input && typeof input[key] === "string" ? (input[key] as string) : undefined);
  const path = string("file_path") ?? string("notebook_path");
  if (path) return displayPath(path, cwd);
  const command = string("command");
  if (command) return command.split("\n")[0]! + (command.includes("\n") ? " …" : "");
  const pattern = string("pattern");
  const where = string("path");
  if (pattern) return `${pattern}${where ? ` in ${displayPath(where, cwd)}` : ""}`;
  const named =
    where ?? string("url") ?? string("query") ?? string("skill") ?? string("task_id") ?? string("shell_id") ?? string("description");
  if (named) return toolName === "LS" || toolName === "Glob" ? displayPath(named, cwd) : named;
  if (toolName === "TodoWrite" && Array.isArray(input?.todos)) return plural(input.todos.length, "item");
  const json = JSON.stringify(input ?? {});
  return json === "{}" ? "" : clip(json, 80);
}

/** The Agent tool's name on the API, and the name `system/init.tools` (and older transcripts) give it. */
export function isAgentTool(name: string | undefined): boolean {
  return name === "Agent" || name === "Task";
}

/** A subagent's type and description: "Explore: Find TODOs" (general-purpose when the call names none). */
export function subagentLabel(input: ToolInput | undefined): string {
  const type = typeof input?.subagent_type === "string" && input.subagent_type !== "" ? input.subagent_type : "general-purpose";
  const description = typeof input?.description === "string" ? input.description : "";
  return description === "" ? type : `${type}: ${description}`;
}

/**
 * A path inside the session's folder relative to it ("." for the folder itself), any other path
 * as it is. Compared as text (POSIX separators, no normalizing), so it runs in the page too.
 */
export function displayPath(path: string, cwd: string | undefined): string {
  if (!cwd || !path.startsWith("/")) return path;
  const base = cwd.endsWith("/") ? cwd : `${cwd}/`;
  if (path === cwd || path === base) return ".";
  return path.startsWith(base) ? path.slice(base.length) : path;
}

/** A call in a few words, within `width` columns: the tool and its key argument ("Write notes.txt"). */
export function describeCall(toolName: string, input: ToolInput, cwd: string | undefined, width: number): string {
  return `${toolName} ${clip(keyArgument(toolName, input, cwd), width - toolName.length - 10)}`;
}

/**
 * The `description` of a `can_use_tool` request sent to the host. Claude Code sends the call's
 * subject unabridged (an absolute path, a whole command), and hosts show it as it is, so this is
 * not keyArgument: no relative paths, no clipping, the tool's name when there is no subject.
 */
export function permissionDescription(call: { name: string; input: ToolInput }): string {
  const { input } = call;
  const subject = input.command ?? input.file_path ?? input.path ?? input.pattern;
  return typeof subject === "string" ? subject : call.name;
}
