import * as z from "zod";
import type { ImageBlock, TextBlock } from "../conversation/messages.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { defineTool, toolError, type ToolDefinition } from "../tools/define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";

/** One tool of a `tools/list` answer, as far as agentwire uses it. */
const mcpToolListingSchema = () =>
  z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    inputSchema: z.record(z.string(), z.unknown()).optional(),
    annotations: z.looseObject({ readOnlyHint: z.boolean().optional() }).optional(),
  });

/** A `tools/list` answer; built at the first one (most runs have no MCP server). */
export const mcpToolsListResultSchema = lazySchema(() =>
  z.looseObject({ tools: z.array(mcpToolListingSchema()), nextCursor: z.string().optional() }),
);

export type McpToolListing = z.infer<ReturnType<typeof mcpToolListingSchema>>;

const callToolResultSchema = lazySchema(() =>
  z.looseObject({
    content: z
      .array(
        z.looseObject({
          type: z.string(),
          text: z.string().optional(),
          data: z.string().optional(),
          mimeType: z.string().optional(),
          uri: z.string().optional(),
          name: z.string().optional(),
        }),
      )
      .default([]),
    isError: z.boolean().optional(),
    structuredContent: z.unknown().optional(),
  }),
);

/** Runs `tools/call` on the tool's server and resolves with the raw JSON-RPC result. */
export type McpToolCaller = (toolName: string, args: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>;

/**
 * A server's tool as the model sees it: `mcp__<server>__<tool>` with the server's own input
 * schema (the server validates its arguments; agentwire only checks that they are an object).
 * Not read-only unless the server annotates it `readOnlyHint`: anything else may change the world.
 */
export function mcpToolDefinition(server: string, tool: McpToolListing, call: McpToolCaller): ToolDefinition {
  return defineTool({
    name: `mcp__${server}__${tool.name}`,
    description: tool.description ?? `Tool ${tool.name} of the ${server} MCP server.`,
    inputSchema: z.record(z.string(), z.unknown()),
    inputJsonSchema: tool.inputSchema ?? { type: "object", properties: {} },
    kind: tool.annotations?.readOnlyHint === true ? "read" : "other",
    async execute(input, context): Promise<ToolResult> {
      let raw: unknown;
      try {
        raw = await call(tool.name, input, context.signal);
      } catch (error) {
        return toolError(
          context.signal.aborted ? "aborted" : "internal_error",
          `The ${server} MCP server could not run ${tool.name}: ${(error as Error).message}`,
        );
      }
      const result = callToolResultSchema().safeParse(raw);
      if (!result.success)
        return toolError(
          "internal_error",
          `The ${server} MCP server answered ${tool.name} with a malformed result: ${result.error.issues[0]?.message ?? "invalid"}`,
        );
      return toToolResult(result.data);
    },
  }) as ToolDefinition;
}

/**
 * MCP content → tool result: text as text, images as images, anything else (resource links,
 * embedded resources, audio) as its JSON so the model still sees what came back.
 */
function toToolResult(result: z.infer<ReturnType<typeof callToolResultSchema>>): ToolResult {
  const parts: Array<TextBlock | ImageBlock> = result.content.flatMap((part): Array<TextBlock | ImageBlock> => {
    if (part.type === "text" && part.text !== undefined) return [{ type: "text", text: part.text }];
    if (part.type === "image" && part.data && part.mimeType) return [{ type: "image", mediaType: part.mimeType, data: part.data }];
    return [{ type: "text", text: JSON.stringify(part) }];
  });
  const content = parts.every((part) => part.type === "text") ? parts.map((part) => (part as TextBlock).text).join("\n") : parts;
  return {
    content,
    isError: result.isError === true,
    ...(result.isError ? { code: "command_failed" as const } : {}),
    details: result.structuredContent ?? result.content,
  };
}
