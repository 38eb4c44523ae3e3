import type { McpServers } from "../mcp/mcp-config.js";
import { McpServerPool, type McpServerStatus } from "../mcp/mcp-servers.js";
import type { PermissionState } from "../permissions/permission-updates.js";
import { wholeToolRuleCovers } from "../permissions/rule-syntax.js";
import type { ToolDefinition } from "../tools/define-tool.js";
import { untrustedServerStatus } from "./prepare-session.js";

/** One of the host's in-process MCP servers, once its tools were listed, or why they could not be. */
export type HostMcpServer =
  | { name: string; tools: ToolDefinition[]; serverInfo?: { name: string; version: string } }
  | { name: string; error: string };

export interface ToolSetInput {
  /** The built-ins (and the Skill tool) chosen when the session started, or the caller's own. */
  tools: ToolDefinition[];
  mcpServers: McpServers;
  /** Project servers not started for want of trust: listed with their status only. */
  untrustedProjectMcpServers: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  passEnv: readonly string[];
  /** Read at each use: the session's deny rules as they are now. */
  denials: () => PermissionState["rules"]["deny"];
  /** A configured server failed or crashed. */
  onWarning: (message: string) => void;
}

/**
 * The tools a session offers and the MCP servers behind some of them: the built-ins, the host's
 * in-process servers, and the configured servers it starts, connects and closes.
 */
export class ToolSet {
  private tools: ToolDefinition[];
  /** The host's in-process MCP servers (the Agent SDKs'), as they were registered. */
  private readonly hostServers = new Map<string, McpServerStatus>();
  /** The configured MCP servers; undefined when there are none (nothing MCP is loaded then). */
  private readonly pool: McpServerPool | undefined;

  constructor(private readonly input: ToolSetInput) {
    this.tools = input.tools;
    this.pool =
      Object.keys(input.mcpServers).length > 0
        ? new McpServerPool(input.mcpServers, { cwd: input.cwd, env: input.env, passEnv: input.passEnv, onWarning: input.onWarning })
        : undefined;
  }

  /**
   * The built-in tools, the host's in-process MCP tools and the tools of the configured MCP
   * servers connected now, less the MCP tools a whole-tool deny rule covers (`--disallowedTools
   * mcp__server`): each call of those would be refused anyway. The built-ins were chosen by the
   * same rules when the session started.
   */
  offered(): ToolDefinition[] {
    const tools = withTools(this.tools, this.pool?.tools() ?? []);
    if (this.hostServers.size === 0 && this.pool === undefined) return tools;
    const denials = this.input.denials();
    return tools.filter((tool) => !tool.name.startsWith("mcp__") || !wholeToolRuleCovers(denials, { name: tool.name, traits: tool }));
  }

  /** A host server's tools replace its earlier ones; a server that failed offers none. */
  addHostServer(server: HostMcpServer): void {
    const prefix = `mcp__${server.name}__`;
    this.tools = this.tools.filter((tool) => !tool.name.startsWith(prefix));
    if ("error" in server) {
      this.hostServers.set(server.name, { name: server.name, status: "failed", error: server.error });
      return;
    }
    this.hostServers.set(server.name, {
      name: server.name,
      status: "connected",
      ...(server.serverInfo ? { serverInfo: server.serverInfo } : {}),
    });
    this.tools = withTools(this.tools, server.tools);
  }

  /** A tool whose description changed (the Agent tool's listing) takes its old version's place; none is added. */
  replaceTool(tool: ToolDefinition): void {
    this.tools = this.tools.map((held) => (held.name === tool.name ? tool : held));
  }

  /** The Skill tool goes when no skill that loaded is model-invocable. */
  dropSkillTool(): void {
    this.tools = this.tools.filter((tool) => tool.name !== "Skill");
  }

  status(): McpServerStatus[] {
    return [
      ...this.hostServers.values(),
      ...(this.pool?.status() ?? []),
      ...this.input.untrustedProjectMcpServers.map(untrustedServerStatus),
    ];
  }

  ready(): Promise<void> {
    return this.pool?.ready() ?? Promise.resolve();
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}

/** `tools` with `added` after them, each replacing a same-named one. */
function withTools(tools: readonly ToolDefinition[], added: readonly ToolDefinition[]): ToolDefinition[] {
  return [...tools.filter((tool) => !added.some((other) => other.name === tool.name)), ...added];
}
