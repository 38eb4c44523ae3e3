import * as z from "zod/mini";
import "../validation/english-issues.js";

/**
 * MCP server configurations in Claude Code's format (`--mcp-config`, `.mcp.json`, the Agent
 * SDK's `mcpServers`): a stdio server is a command agentwire starts; an http or sse server is a
 * URL it connects to. `timeout` is a per-call limit in milliseconds, as in Claude Code (values
 * under 1,000 are ignored there too).
 */
const StdioServerSchema = z.strictObject({
  type: z.optional(z.literal("stdio")),
  command: z.string().check(z.minLength(1, "command must not be empty")),
  args: z._default(z.array(z.string()), []),
  env: z._default(z.record(z.string(), z.string()), {}),
  cwd: z.optional(z.string()),
  timeout: z.optional(z.int().check(z.positive())),
});

const RemoteServerSchema = z.strictObject({
  type: z.enum(["http", "sse"]),
  url: z.url({ protocol: /^https?$/, error: "url must be an http(s) URL" }),
  headers: z._default(z.record(z.string(), z.string()), {}),
  timeout: z.optional(z.int().check(z.positive())),
});

const McpServerConfigSchema = z.union([StdioServerSchema, RemoteServerSchema]);

/** Letters, digits, `_` and `-`: the name becomes part of every tool name (`mcp__<server>__<tool>`). */
export const McpServerNameSchema = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, "server names may use letters, digits, _ and - (at most 64)"));

export const McpServersSchema = z.record(McpServerNameSchema, McpServerConfigSchema);

export const McpConfigFileSchema = z.looseObject({ mcpServers: McpServersSchema });

export type McpServerConfig = z.output<typeof McpServerConfigSchema>;
export type McpServers = z.output<typeof McpServersSchema>;
export type StdioServerConfig = z.output<typeof StdioServerSchema>;

export function isStdioServer(config: McpServerConfig): config is StdioServerConfig {
  return "command" in config;
}
