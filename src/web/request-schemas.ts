import * as z from "zod";
import { PermissionModeSchema } from "../../protocol/commands.js";

/** What the page (or a script) may send; anything else is a 400 naming the field. */
export const CreateSessionSchema = z.strictObject({
  cwd: z.string().min(1).optional(),
  provider: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  permissionMode: z.optional(PermissionModeSchema),
  /** A stored session to continue live, under its own id. */
  resume: z.uuid().optional(),
});

export const MessageSchema = z.strictObject({ text: z.string().trim().min(1, "text must not be empty").max(1_000_000) });

export const PermissionAnswerSchema = z.strictObject({
  behavior: z.enum(["allow", "deny"]),
  message: z.string().max(10_000).optional(),
  always: z.boolean().optional(),
});

export const SessionIdSchema = z.uuid();
