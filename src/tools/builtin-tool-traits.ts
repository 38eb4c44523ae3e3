import type { ToolTraits } from "../conversation/tool-traits.js";

/**
 * The built-in tools' names and traits, alphabetical as Claude Code sends its tools. Kept apart
 * from the tools' code, which each tool module spreads into its definition, so a caller that
 * only needs to name a session's tools (the CLI's early `system/init`, tool selection by rules)
 * never loads the implementations.
 */
export const BUILTIN_TOOL_TRAITS = {
  Bash: { kind: "execute", commandField: "command" },
  Edit: { kind: "edit", pathField: "file_path" },
  Glob: { kind: "read", pathField: "path", pathDefaultsToCwd: true },
  Grep: { kind: "read", pathField: "path", pathDefaultsToCwd: true },
  LS: { kind: "read", pathField: "path", pathDefaultsToCwd: true },
  // Runs a shell command like Bash, under the same permissions; deferred in Claude Code.
  Monitor: { kind: "execute", commandField: "command", deferred: true },
  MultiEdit: { kind: "edit", pathField: "file_path" },
  // Deferred as Claude Code defers it: offered by name until ToolSearch loads its schema.
  NotebookEdit: { kind: "edit", pathField: "notebook_path", deferred: true },
  Read: { kind: "read", pathField: "file_path" },
  // Stops only what this session started in the background; deferred in Claude Code.
  TaskStop: { kind: "other", sessionStateOnly: true, deferred: true },
  TodoWrite: { kind: "other", sessionStateOnly: true },
  // Reading a page changes nothing here (plan mode allows it), but each host needs a rule or a yes.
  WebFetch: { kind: "read", urlField: "url", deferred: true },
  WebSearch: { kind: "other", readsWeb: true, deferred: true },
  Write: { kind: "edit", pathField: "file_path" },
} as const satisfies Record<string, ToolTraits>;

export type BuiltinToolName = keyof typeof BUILTIN_TOOL_TRAITS;

/** The built-ins `--tool-profile compact` keeps (their thin forms are in compact-profile.ts). */
const COMPACT_TOOLS = ["Bash", "Read", "Write"] as const satisfies readonly BuiltinToolName[];
export type CompactToolName = (typeof COMPACT_TOOLS)[number];
export const COMPACT_TOOL_NAMES: readonly string[] = COMPACT_TOOLS;

/** The Skill tool's traits: loading instructions changes nothing outside the conversation. */
export const SKILL_TOOL_TRAITS = { kind: "other", sessionStateOnly: true } as const satisfies ToolTraits;

/** The tool that loads deferred tools; while it is offered, deferral is on. */
export const TOOL_SEARCH = "ToolSearch";

/** ToolSearch's traits: loading a schema changes nothing outside the conversation. */
export const TOOL_SEARCH_TRAITS = { kind: "other", sessionStateOnly: true } as const satisfies ToolTraits;

/**
 * The Agent tool's traits: starting a subagent asks nobody (as in Claude Code); each call the
 * subagent makes is decided on its own, under the same permissions.
 */
export const AGENT_TOOL_TRAITS = { kind: "other", sessionStateOnly: true } as const satisfies ToolTraits;

/** A tool as selection and permission rules see it: its name and what kind of thing it does. */
export interface ToolDescriptor {
  name: string;
  traits: ToolTraits;
}

export function builtinToolDescriptors(): ToolDescriptor[] {
  return Object.entries(BUILTIN_TOOL_TRAITS).map(([name, traits]) => ({ name, traits }));
}
