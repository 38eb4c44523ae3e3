import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ToolDefinition } from "../tools/define-tool.js";
import { AGENTWIRE_VERSION } from "../version.js";
import { isStdioServer, type McpServerConfig, type McpServers } from "./mcp-config.js";
import { mcpToolDefinition, mcpToolsListResultSchema, type McpToolListing } from "./mcp-tools.js";
import type { SupervisedStdioTransport } from "./stdio-transport.js";

/** Claude Code's defaults and variables: MCP_TIMEOUT (start-up wait), MCP_TOOL_TIMEOUT (per call). */
const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
const DEFAULT_TOOL_TIMEOUT_MS = 600_000;
/** Claude Code ignores per-server `timeout` values under a second. */
const MIN_SERVER_TIMEOUT_MS = 1_000;

export interface McpServerStatus {
  name: string;
  /** `needs-trust`: a project server not started because the project is not trusted (agentwire's own status). */
  status: "pending" | "connected" | "failed" | "needs-trust";
  error?: string;
  serverInfo?: { name: string; version: string };
}

export interface McpPoolOptions {
  cwd: string;
  /** The session's environment: read for MCP_TIMEOUT and MCP_TOOL_TIMEOUT, and, without its credentials, the base of each stdio server's. */
  env: Readonly<Record<string, string | undefined>>;
  /** Credential variables passed to the servers on purpose (`--pass-env`), besides each server's own `env`. */
  passEnv: readonly string[];
  /** A server failed to start, crashed, or is being restarted: said to the host as a `system/warning`. */
  onWarning: (message: string) => void;
}

/**
 * The session's MCP servers: all started at once when the session is made, each on its own.
 * `ready()` waits until each has connected or failed, or the start-up timeout has passed (so a
 * slow server delays `system/init` by at most that); a server still starting then joins later,
 * its tools offered from the next turn. A server that crashes is restarted once.
 * The MCP SDK itself is loaded only here, when a server is configured.
 */
export class McpServerPool {
  private readonly servers: ServerConnection[];
  private readonly started: Promise<void>;

  constructor(configs: McpServers, options: McpPoolOptions) {
    const toolTimeoutMs = positiveNumber(options.env.MCP_TOOL_TIMEOUT) ?? DEFAULT_TOOL_TIMEOUT_MS;
    this.servers = Object.entries(configs).map(([name, config]) => new ServerConnection(name, config, options, toolTimeoutMs));
    const startupTimeoutMs = mcpStartupTimeoutMs(options.env);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, startupTimeoutMs)));
    this.started = Promise.race([Promise.all(this.servers.map((server) => server.connect())).then(() => undefined), timeout]).finally(() =>
      clearTimeout(timer),
    );
  }

  ready(): Promise<void> {
    return this.started;
  }

  status(): McpServerStatus[] {
    return this.servers.map((server) => server.status());
  }

  /** The tools of the servers connected now. */
  tools(): ToolDefinition[] {
    return this.servers.flatMap((server) => server.tools);
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.close()));
  }
}

class ServerConnection {
  tools: ToolDefinition[] = [];
  private state: McpServerStatus["status"] = "pending";
  private error: string | undefined;
  private serverInfo: McpServerStatus["serverInfo"];
  private client: Client | undefined;
  private connecting: Promise<void> | undefined;
  private restarted = false;
  private closed = false;

  constructor(
    private readonly name: string,
    private readonly config: McpServerConfig,
    private readonly options: McpPoolOptions,
    private readonly defaultToolTimeoutMs: number,
  ) {}

  status(): McpServerStatus {
    return {
      name: this.name,
      status: this.state,
      ...(this.error !== undefined && this.state === "failed" ? { error: this.error } : {}),
      ...(this.serverInfo ? { serverInfo: this.serverInfo } : {}),
    };
  }

  /** Never rejects: a failure is the server's status, and a warning. */
  connect(): Promise<void> {
    this.state = "pending";
    this.connecting = this.open().then(
      () => undefined,
      (error: Error) => {
        this.state = "failed";
        this.error = error.message;
        if (!this.closed)
          this.options.onWarning(`The MCP server "${this.name}" could not start: ${error.message}. The session goes on without its tools.`);
      },
    );
    return this.connecting;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private async open(): Promise<void> {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const transport = await this.transport();
    const client = new Client({ name: "agentwire", version: AGENTWIRE_VERSION }, { capabilities: {} });
    try {
      await client.connect(transport);
      const listed = await listTools(client);
      if (this.closed) throw new Error("the session closed");
      this.tools = listed.map((tool) => mcpToolDefinition(this.name, tool, (toolName, args, signal) => this.call(toolName, args, signal)));
    } catch (error) {
      await client.close().catch(() => undefined);
      throw withStderr(error as Error, transport);
    }
    this.client = client;
    this.serverInfo = client.getServerVersion();
    this.state = "connected";
    this.error = undefined;
    client.onclose = () => this.lost(client, transport);
  }

  private async transport(): Promise<Transport> {
    const config = this.config;
    if (isStdioServer(config)) {
      const { SupervisedStdioTransport } = await import("./stdio-transport.js");
      return new SupervisedStdioTransport(config, { cwd: this.options.cwd, env: this.options.env, passEnv: this.options.passEnv });
    }
    const requestInit = { headers: config.headers };
    if (config.type === "sse") {
      const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
      // The headers go on the event stream's GET as well as on the POSTs.
      return new SSEClientTransport(new URL(config.url), { requestInit });
    }
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    return new StreamableHTTPClientTransport(new URL(config.url), { requestInit });
  }

  /** The connection ended without agentwire closing it: the server crashed or went away. */
  private lost(client: Client, transport: Transport): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    this.state = "failed";
    this.error = withStderr(new Error("the server exited"), transport).message;
    if (this.restarted) {
      this.options.onWarning(
        `The MCP server "${this.name}" stopped again (${this.error}); it is not restarted a second time. Its tools answer with an error.`,
      );
      return;
    }
    this.restarted = true;
    this.options.onWarning(`The MCP server "${this.name}" stopped (${this.error}); agentwire is restarting it once.`);
    void this.connect();
  }

  private async call(toolName: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    // A restart in progress: the call waits for it rather than failing at once.
    if (this.state === "pending") await this.connecting;
    const client = this.client;
    if (!client) throw new Error(this.error ?? "the server is not connected");
    return client.callTool({ name: toolName, arguments: args }, undefined, { signal, timeout: this.toolTimeoutMs() });
  }

  private toolTimeoutMs(): number {
    const own = this.config.timeout;
    return own !== undefined && own >= MIN_SERVER_TIMEOUT_MS ? own : this.defaultToolTimeoutMs;
  }
}

/** Every page of `tools/list`, validated. */
async function listTools(client: Client): Promise<McpToolListing[]> {
  const tools: McpToolListing[] = [];
  let cursor: string | undefined;
  do {
    const page = mcpToolsListResultSchema().parse(await client.listTools(cursor === undefined ? undefined : { cursor }));
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/** A stdio server's last stderr lines usually say why it failed: they join the message. */
function withStderr(error: Error, transport: Transport): Error {
  const stderr = (transport as Partial<SupervisedStdioTransport>).stderr;
  const spawnFailure = (error as NodeJS.ErrnoException).code === "ENOENT" ? `command not found (${error.message})` : error.message;
  return new Error(stderr ? `${spawnFailure}; its stderr: ${stderr.split("\n").slice(-5).join(" | ")}` : spawnFailure);
}

/** How long a server may take to start and answer its handshake: MCP_TIMEOUT, or 30 s. */
export function mcpStartupTimeoutMs(env: Readonly<Record<string, string | undefined>>): number {
  return positiveNumber(env.MCP_TIMEOUT) ?? DEFAULT_STARTUP_TIMEOUT_MS;
}

function positiveNumber(value: string | undefined): number | undefined {
  const number = Number(value);
  return value !== undefined && value !== "" && Number.isFinite(number) && number > 0 ? number : undefined;
}
