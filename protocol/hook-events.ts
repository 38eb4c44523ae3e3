/**
 * The hook events agentwire raises, by Claude Code's names: for hooks a host registers at
 * `initialize` and for shell-command hooks in settings files alike. A plain list (no schema), so
 * the settings loader on the start-up path can build its own `zod/mini` enum from it.
 * `SubagentStop` is accepted but never raised: agentwire has no subagents yet.
 */
export const HOOK_EVENT_NAMES = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
  "SessionStart",
  "SessionEnd",
  "PreCompact",
  "PostCompact",
  "Notification",
] as const;
