import * as z from "zod";
import { McpMessageResponseSchema } from "../../protocol/control.js";
import { mcpToolDefinition, McpToolsListResultSchema } from "../mcp/mcp-tools.js";
import type { ToolDefinition } from "../tools/define-tool.js";
import type { HostChannel } from "./host-channel.js";

/** `initialize.sdkMcpServerManifests[name]`: the MCP handshake the Agent SDK ran for us. */
const ManifestSchema = z.looseObject({ toolsListResult: McpToolsListResultSchema.optional() });

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
      const listed = (byName.success ? byName.data[server]?.toolsListResult : undefined) ?? McpToolsListResultSchema.parse(await send(server, "tools/list", {}));
      return {
        name: server,
        tools: listed.tools.map((tool) => mcpToolDefinition(server, tool, (name, args, signal) => send(server, "tools/call", { name, arguments: args }, signal))),
      };
    }),
  );
}
