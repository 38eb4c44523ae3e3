/**
 * Claude Code's permission modes plus agentwire's simple names (`interactive`, `auto`, `deny`).
 * Data, not a schema: the stdin commands build theirs with classic zod (commands.ts), the CLI's
 * start-up path with `zod/mini`, each from this one list (the rule: src/validation/english-issues.ts).
 */
export const PERMISSION_MODES = ["default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto", "interactive", "deny"] as const;

export type PermissionModeName = (typeof PERMISSION_MODES)[number];
