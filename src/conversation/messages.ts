import * as z from "zod/mini";
import "../validation/english-issues.js";
import { lazySchema } from "../validation/lazy-schema.js";

/**
 * The conversation as agentwire keeps it: provider-neutral, persisted in session files, and
 * converted to each vendor's wire format only at the provider boundary.
 * Shapes follow the Anthropic Messages content model because Claude Code's stream-json
 * (our output dialect) is built on it; field names are camelCase internally. The schemas are
 * built at their first use (reading a session file back): a new session only writes one.
 */

export const textBlockSchema = lazySchema(() =>
  z.object({
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
  }),
);

export const thinkingBlockSchema = lazySchema(() =>
  z.object({
    type: z.literal("thinking"),
    thinking: z.string(),
    /** Opaque provider signature that must be sent back unchanged on later requests. */
    signature: z.optional(z.string()),
  }),
);

export const imageBlockSchema = lazySchema(() =>
  z.object({
    type: z.literal("image"),
    mediaType: z.string(),
    /** Base64-encoded bytes. */
    data: z.string(),
  }),
);

export const toolUseBlockSchema = lazySchema(() =>
  z.object({
    type: z.literal("tool_use"),
    id: z.string(),
    name: z.string(),
    input: z.record(z.string(), z.unknown()),
    /** Opaque provider signature on the call (Gemini thought signatures); sent back unchanged. */
    signature: z.optional(z.string()),
  }),
);

/**
 * A ToolSearch answer's way of naming a tool it loaded: the next request carries that tool's
 * schema. Anthropic's API reads it (deferred tool loading); for other providers it becomes text.
 */
export const toolReferenceBlockSchema = lazySchema(() =>
  z.object({
    type: z.literal("tool_reference"),
    toolName: z.string(),
  }),
);

export const toolResultBlockSchema = lazySchema(() =>
  z.object({
    type: z.literal("tool_result"),
    toolUseId: z.string(),
    /** What the model sees. */
    content: z.union([z.string(), z.array(z.union([textBlockSchema(), imageBlockSchema(), toolReferenceBlockSchema()]))]),
    isError: z.boolean(),
  }),
);

export const userContentBlockSchema = lazySchema(() =>
  z.discriminatedUnion("type", [textBlockSchema(), imageBlockSchema(), toolResultBlockSchema()]),
);
export const assistantContentBlockSchema = lazySchema(() =>
  z.discriminatedUnion("type", [textBlockSchema(), thinkingBlockSchema(), toolUseBlockSchema()]),
);

export const userMessageSchema = lazySchema(() =>
  z.object({
    role: z.literal("user"),
    content: z.array(userContentBlockSchema()),
  }),
);
export const assistantMessageSchema = lazySchema(() =>
  z.object({
    role: z.literal("assistant"),
    content: z.array(assistantContentBlockSchema()),
    /**
     * The provider that produced this message. Its signatures and thinking are only valid for
     * that provider; another one (after a --resume or set_model switch) must not receive them.
     */
    provider: z.optional(z.string()),
  }),
);
export const messageSchema = lazySchema(() => z.discriminatedUnion("role", [userMessageSchema(), assistantMessageSchema()]));

export type TextBlock = z.infer<ReturnType<typeof textBlockSchema>>;
export type ThinkingBlock = z.infer<ReturnType<typeof thinkingBlockSchema>>;
export type ImageBlock = z.infer<ReturnType<typeof imageBlockSchema>>;
export type ToolUseBlock = z.infer<ReturnType<typeof toolUseBlockSchema>>;
export type ToolReferenceBlock = z.infer<ReturnType<typeof toolReferenceBlockSchema>>;
export type ToolResultBlock = z.infer<ReturnType<typeof toolResultBlockSchema>>;
export type UserContentBlock = z.infer<ReturnType<typeof userContentBlockSchema>>;
export type AssistantContentBlock = z.infer<ReturnType<typeof assistantContentBlockSchema>>;
export type UserMessage = z.infer<ReturnType<typeof userMessageSchema>>;
export type AssistantMessage = z.infer<ReturnType<typeof assistantMessageSchema>>;
export type Message = z.infer<ReturnType<typeof messageSchema>>;
