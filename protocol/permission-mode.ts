import * as z from "zod/mini";

/**
 * Claude Code's permission modes plus agentwire's simple names (`interactive`, `auto`, `deny`).
 * In a file of its own so that the session core can use it without building every stdin command
 * schema at start-up; a `zod/mini` schema, as the CLI's start-up path builds it.
 */
export const PermissionModeSchema = z.enum(["default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto", "interactive", "deny"]);
