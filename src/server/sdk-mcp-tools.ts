import * as z from "zod";
import { McpMessageResponseSchema } from "../../protocol/control.js";
import type { ImageBlock, TextBlock } from "../conversation/messages.js";
import { defineTool, toolError, type ToolDefinition } from "../tools/define-tool.js";
import { type ToolResult } from "../conversation/tool-result.js";
import type { HostChannel } from "./host-channel.js";

/** `initialize.sdkMcpServerManifests[name]`: the MCP handshake the Agent SDK ran for us. */
const ManifestSchema = z.looseObject({
  toolsListResult: z
    .looseObject({
      tools: z.array(
        z.looseObject({
          name: z.string().min(1),
          description: z.string().optional(),
          inputSchema: z.record(z.string(), z.unknown()).optional(),
          annotations: z.looseObject({ readOnlyHint: z.boolean().optional() }).optional(),
        }),
      ),
    })
    .optional(),
});

const ToolsListResultSchema = z.looseObject({ tools: ManifestSchema.shape.toolsListResult.unwrap().shape.tools });

const CallToolResultSchema = z.looseObject({
  content: z
    .array(z.looseObject({ type: z.string(), text: z.string().optional(), data: z.string().optional(), mimeType: z.string().optional() }))
    .default([]),
  isError: z.boolean().optional(),
  structuredContent: z.unknown().optional(),
});

export interface SdkMcpServer {
  name: string;
  tools: ToolDefinition[];
}

/**
 * Tools that live in the host process (the Agent SDK's `createSdkMcpServer`): listed from the
 * manifest the SDK sends at initialize (or with `tools/list` through `mcp_message` when there is
 * none), exposed to the model as `mcp__<server>__<tool>`, and called through the host.
 */
export async function loadSdkMcpServers(channel: HostChannel, names: string[], manifests: unknown): Promise<SdkMcpServer[]> {
  const byName = z.record(z.string(), ManifestSchema).safeParse(manifests ?? {});
  let nextId = 1;
  const send = async (server: string, method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> => {
    const answer = McpMessageResponseSchema.parse(await channel.request("mcp_message", { server_name: server, message: { jsonrpc: "2.0", id: nextId++, method, params } }, signal));
    if (answer.mcp_response.error) throw new Error(answer.mcp_response.error.message);
    return answer.mcp_response.result;
  };
  return Promise.all(
    names.map(async (server) => {
      const listed = (byName.success ? byName.data[server]?.toolsListResult : undefined) ?? ToolsListResultSchema.parse(await send(server, "tools/list", {}));
      return {
        name: server,
        tools: listed.tools.map((tool) =>
          defineTool({
            name: `mcp__${server}__${tool.name}`,
            description: tool.description ?? `Tool ${tool.name} of the ${server} MCP server.`,
            // The server validates its own arguments; agentwire only checks that they are an object.
            inputSchema: z.record(z.string(), z.unknown()),
            inputJsonSchema: tool.inputSchema ?? { type: "object", properties: {} },
            // Not read-only unless the server says so: anything else may change the world.
            kind: tool.annotations?.readOnlyHint === true ? "read" : "other",
            async execute(input, context): Promise<ToolResult> {
              try {
                return toToolResult(CallToolResultSchema.parse(await send(server, "tools/call", { name: tool.name, arguments: input }, context.signal)));
              } catch (error) {
                return toolError(context.signal.aborted ? "aborted" : "internal_error", `The ${server} MCP server could not run ${tool.name}: ${(error as Error).message}`);
              }
            },
          }),
        ),
      };
    }),
  );
}

function toToolResult(result: z.infer<typeof CallToolResultSchema>): ToolResult {
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
