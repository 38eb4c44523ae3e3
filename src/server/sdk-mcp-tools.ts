import * as z from "zod";
import { McpMessageResponseSchema } from "../../protocol/control.js";
import { mcpToolDefinition, mcpToolsListResultSchema } from "../mcp/mcp-tools.js";
import type { HostMcpServer } from "../session/session.js";
import { AGENTWIRE_VERSION } from "../version.js";
import { lazySchema } from "../validation/lazy-schema.js";
import type { HostChannel } from "./host-channel.js";

/** The MCP revision agentwire asks for; a server answers with the one it speaks, and either will do. */
const MCP_PROTOCOL_VERSION = "2025-11-25";

const serverInfoSchema = () => z.looseObject({ name: z.string(), version: z.string() });

/** `initialize.sdkMcpServerManifests[name]`: the MCP handshake the TypeScript Agent SDK ran for us. */
const manifestSchema = lazySchema(() =>
  z.looseObject({
    initializeResult: z.looseObject({ serverInfo: serverInfoSchema().optional() }).optional(),
    toolsListResult: mcpToolsListResultSchema().optional(),
  }),
);

const initializeResultSchema = lazySchema(() => z.looseObject({ serverInfo: serverInfoSchema().optional() }));

export interface SdkMcpLoadOptions {
  /** How long one server's handshake may take (Claude Code's MCP_TIMEOUT); its server fails after. */
  handshakeTimeoutMs: number;
}

/**
 * Tools that live in the host process (the Agent SDKs' in-process servers: the TypeScript SDK's
 * `createSdkMcpServer`, named in `initialize.sdkMcpServers`; the Python SDK's
 * `create_sdk_mcp_server`, named only in `--mcp-config` as `{"type": "sdk"}`), exposed to the
 * model as `mcp__<server>__<tool>` and called through the host with `mcp_message`.
 *
 * A server the TypeScript SDK sent a manifest for is listed from it. Any other gets the MCP
 * handshake through the host, as Claude Code does it: `initialize`, `notifications/initialized`,
 * then `tools/list`; the Python SDK serves a real MCP server, which refuses any request before
 * that handshake. A server the host cannot serve (it answers with an error, it does not answer
 * in time, or its input closed) comes back with the reason, so its status says why.
 */
export async function loadSdkMcpServers(
  channel: HostChannel,
  names: readonly string[],
  manifests: unknown,
  options: SdkMcpLoadOptions,
): Promise<HostMcpServer[]> {
  const byName = z.record(z.string(), manifestSchema()).safeParse(manifests ?? {});
  let nextId = 0;
  const send = async (server: string, method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> => {
    const answer = McpMessageResponseSchema.parse(
      await channel.request("mcp_message", { server_name: server, message: { jsonrpc: "2.0", id: nextId++, method, params } }, signal),
    );
    if (answer.mcp_response.error) throw new Error(answer.mcp_response.error.message);
    return answer.mcp_response.result;
  };
  const notify = (server: string, method: string, signal: AbortSignal): Promise<unknown> =>
    channel.request("mcp_message", { server_name: server, message: { jsonrpc: "2.0", method } }, signal);

  const load = async (server: string): Promise<HostMcpServer> => {
    const manifest = byName.success ? byName.data[server] : undefined;
    let listed = manifest?.toolsListResult;
    let serverInfo = manifest?.initializeResult?.serverInfo;
    const deadline = AbortSignal.timeout(options.handshakeTimeoutMs);
    try {
      if (!manifest?.initializeResult) {
        const clientInfo = { name: "agentwire", version: AGENTWIRE_VERSION };
        serverInfo = initializeResultSchema().parse(
          await send(server, "initialize", { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo }, deadline),
        ).serverInfo;
        await notify(server, "notifications/initialized", deadline);
      }
      listed ??= mcpToolsListResultSchema().parse(await send(server, "tools/list", {}, deadline));
    } catch (error) {
      const reason = deadline.aborted ? `no answer within ${options.handshakeTimeoutMs / 1000} s` : describeFailure(error);
      return { name: server, error: `the host did not serve this in-process server: ${reason}` };
    }
    return {
      name: server,
      tools: listed.tools.map((tool) =>
        mcpToolDefinition(server, tool, (name, args, signal) => send(server, "tools/call", { name, arguments: args }, signal)),
      ),
      ...(serverInfo ? { serverInfo: { name: serverInfo.name, version: serverInfo.version } } : {}),
    };
  };
  return Promise.all(names.map(load));
}

function describeFailure(error: unknown): string {
  if (error instanceof z.ZodError) return `its answer was not understood (${error.issues[0]?.message ?? "invalid"})`;
  return error instanceof Error ? error.message : String(error);
}
