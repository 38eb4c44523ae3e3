import * as z from "zod/mini";
import "../validation/english-issues.js";

/**
 * The conversation as agentwire keeps it: provider-neutral, persisted in session files, and
 * converted to each vendor's wire format only at the provider boundary.
 * Shapes follow the Anthropic Messages content model because Claude Code's stream-json
 * (our output dialect) is built on it; field names are camelCase internally.
 */

export const TextBlockSchema = z.object({
  type: z.literal("text"),
  text: z.string(),
  /** Opaque provider signature on model text (Gemini thought signatures); sent back unchanged. */
  signature: z.optional(z.string()),
  /**
   * Text agentwire put into a user message for the model (the skills listing, background tasks'
   * notifications), not the user's own words: the model receives it as sent, while titles and
   * transcripts leave it out.
   */
  reminder: z.optional(z.enum(["skills", "tasks"])),
});

export const ThinkingBlockSchema = z.object({
  type: z.literal("thinking"),
  thinking: z.string(),
  /** Opaque provider signature that must be sent back unchanged on later requests. */
  signature: z.optional(z.string()),
});

export const ImageBlockSchema = z.object({
  type: z.literal("image"),
  mediaType: z.string(),
  /** Base64-encoded bytes. */
  data: z.string(),
});

export const ToolUseBlockSchema = z.object({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  /** Opaque provider signature on the call (Gemini thought signatures); sent back unchanged. */
  signature: z.optional(z.string()),
});

/**
 * A ToolSearch answer's way of naming a tool it loaded: the next request carries that tool's
 * schema. Anthropic's API reads it (deferred tool loading); for other providers it becomes text.
 */
export const ToolReferenceBlockSchema = z.object({
  type: z.literal("tool_reference"),
  toolName: z.string(),
});

export const ToolResultBlockSchema = z.object({
  type: z.literal("tool_result"),
  toolUseId: z.string(),
  /** What the model sees. */
  content: z.union([z.string(), z.array(z.union([TextBlockSchema, ImageBlockSchema, ToolReferenceBlockSchema]))]),
  isError: z.boolean(),
});

export const UserContentBlockSchema = z.discriminatedUnion("type", [TextBlockSchema, ImageBlockSchema, ToolResultBlockSchema]);
export const AssistantContentBlockSchema = z.discriminatedUnion("type", [TextBlockSchema, ThinkingBlockSchema, ToolUseBlockSchema]);

export const UserMessageSchema = z.object({
  role: z.literal("user"),
  content: z.array(UserContentBlockSchema),
});
export const AssistantMessageSchema = z.object({
  role: z.literal("assistant"),
  content: z.array(AssistantContentBlockSchema),
  /**
   * The provider that produced this message. Its signatures and thinking are only valid for
   * that provider; another one (after a --resume or set_model switch) must not receive them.
   */
  provider: z.optional(z.string()),
});
export const MessageSchema = z.discriminatedUnion("role", [UserMessageSchema, AssistantMessageSchema]);

export type TextBlock = z.infer<typeof TextBlockSchema>;
export type ThinkingBlock = z.infer<typeof ThinkingBlockSchema>;
export type ImageBlock = z.infer<typeof ImageBlockSchema>;
export type ToolUseBlock = z.infer<typeof ToolUseBlockSchema>;
export type ToolReferenceBlock = z.infer<typeof ToolReferenceBlockSchema>;
export type ToolResultBlock = z.infer<typeof ToolResultBlockSchema>;
export type UserContentBlock = z.infer<typeof UserContentBlockSchema>;
export type AssistantContentBlock = z.infer<typeof AssistantContentBlockSchema>;
export type UserMessage = z.infer<typeof UserMessageSchema>;
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
export type Message = z.infer<typeof MessageSchema>;
