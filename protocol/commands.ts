import * as z from "zod";
import { absentOrNull } from "./absent-or-null.js";
import { PERMISSION_MODES } from "./permission-mode.js";

/**
 * Every line agentwire accepts on stdin with `--input-format stream-json`. The lines of Claude
 * Code's protocol are read as Claude Code reads them: unknown extra fields are allowed (the Agent
 * SDKs add their own: `priority`, `uuid`, `isSynthetic`, …, and `null` for what the Python SDK
 * leaves unset, such as `parent_tool_use_id`); the fields agentwire reads are validated.
 * agentwire's own simple frames are strict, so a misspelt field is reported rather than ignored.
 */

export const InputTextBlockSchema = z.looseObject({ type: z.literal("text"), text: z.string() });
export const InputImageBlockSchema = z.looseObject({
  type: z.literal("image"),
  source: z.looseObject({ type: z.literal("base64"), media_type: z.string(), data: z.string() }),
});
export const InputContentBlockSchema = z.discriminatedUnion("type", [InputTextBlockSchema, InputImageBlockSchema]);

/** Claude Code's user line: `{"type":"user","message":{"role":"user","content":…}}`. */
export const UserMessageCommandSchema = z.looseObject({
  type: z.literal("user"),
  message: z.looseObject({
    role: z.literal("user"),
    content: z.union([z.string(), z.array(InputContentBlockSchema).min(1)]),
  }),
});

/** agentwire's simple frame: `{"type":"user","content":"…"}`. */
export const SimpleUserCommandSchema = z.strictObject({
  type: z.literal("user"),
  content: z.union([z.string(), z.array(InputContentBlockSchema).min(1)]),
});

/** Simple frame: stop the running turn. */
export const InterruptCommandSchema = z.strictObject({ type: z.literal("interrupt") });

/** Claude Code's control protocol; `request.subtype` selects the operation. */
export const ControlRequestCommandSchema = z.looseObject({
  type: z.literal("control_request"),
  request_id: z.string().min(1),
  request: z.looseObject({ subtype: z.string().min(1) }),
});

/**
 * An answer from the host to a control request agentwire sent: `response` is the success
 * payload (validated by the request's own answer schema), `error` the error's text.
 */
export const ControlResponseCommandSchema = z.looseObject({
  type: z.literal("control_response"),
  response: z.looseObject({
    subtype: z.enum(["success", "error"]),
    request_id: z.string(),
    response: absentOrNull(z.unknown()),
    error: absentOrNull(z.unknown()),
  }),
});

/** The host withdraws a control request it sent (Agent SDK, for requests made with a signal). */
export const ControlCancelRequestCommandSchema = z.looseObject({ type: z.literal("control_cancel_request"), request_id: z.string() });

/** Simple frame: the answer to a `system/permission_request`. */
export const ToolApprovalCommandSchema = z.strictObject({
  type: z.literal("tool_approval"),
  id: z.string().min(1),
  approved: z.boolean(),
  /** Shown to the model when the call is refused. */
  message: z.string().optional(),
  /** Replaces the call's input when approved. */
  updated_input: z.record(z.string(), z.unknown()).optional(),
});

/** Claude Code's permission modes plus agentwire's simple names (`interactive`, `auto`, `deny`). */
export const PermissionModeSchema = z.enum(PERMISSION_MODES);

/** Simple frame: change the permission mode for the next tool calls. */
export const SetPermissionModeCommandSchema = z.strictObject({
  type: z.literal("set_permission_mode"),
  mode: PermissionModeSchema,
});

/** Sent by the Agent SDK to keep the pipe warm; ignored. */
export const KeepAliveCommandSchema = z.looseObject({ type: z.literal("keep_alive") });

export const InputCommandSchema = z.union([
  UserMessageCommandSchema,
  SimpleUserCommandSchema,
  InterruptCommandSchema,
  ControlRequestCommandSchema,
  ControlResponseCommandSchema,
  ControlCancelRequestCommandSchema,
  KeepAliveCommandSchema,
  ToolApprovalCommandSchema,
  SetPermissionModeCommandSchema,
]);

export type InputContentBlock = z.infer<typeof InputContentBlockSchema>;
export type UserMessageCommand = z.infer<typeof UserMessageCommandSchema>;
export type SimpleUserCommand = z.infer<typeof SimpleUserCommandSchema>;
export type ControlRequestCommand = z.infer<typeof ControlRequestCommandSchema>;
export type ToolApprovalCommand = z.infer<typeof ToolApprovalCommandSchema>;
export type InputCommand = z.infer<typeof InputCommandSchema>;
