import type { OutputEvent } from "../../protocol/events.js";
import { onStdoutEvents, spawnAgentwire, waitForExit, type AgentwireSpawnOptions, type RunResult } from "./agentwire.js";

/** A control request agentwire sent the host: its `request` payload. */
export type HostRequest = { subtype: string } & Record<string, unknown>;

/**
 * What the host answers a request with: a success payload, or `{ error }` for an error answer.
 * Undefined: the host stays silent (the question is never answered).
 */
export type HostAnswer = Record<string, unknown> | { error: string } | undefined;

export interface ControlHost {
  /** Every control request agentwire sent, in order. */
  readonly requests: HostRequest[];
  /** Every stdout line so far. */
  readonly events: OutputEvent[];
  /** Writes one stdin line. */
  send(line: unknown): void;
  /** Resolves once the stdout lines so far satisfy `condition`. */
  waitUntil(condition: (events: OutputEvent[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Closes stdin and waits for the exit. */
  finish(): Promise<RunResult>;
}

/**
 * agentwire driven the way an Agent SDK drives Claude Code: stream-json both ways, with a host
 * that answers agentwire's control requests (`can_use_tool`, `hook_callback`, `mcp_message`)
 * through `answer`.
 */
export function startControlHost(
  args: string[],
  options: AgentwireSpawnOptions & { answer: (request: HostRequest) => HostAnswer | Promise<HostAnswer> },
): ControlHost {
  const child = spawnAgentwire(["--input-format", "stream-json", "--output-format", "stream-json", "--verbose", ...args], options);
  const exited = waitForExit(child);
  const requests: HostRequest[] = [];
  const events: OutputEvent[] = [];
  const waiters = new Set<() => void>();
  const send = (line: unknown): void => {
    if (!child.stdin.writableEnded) child.stdin.write(`${JSON.stringify(line)}\n`);
  };
  onStdoutEvents<OutputEvent & { request_id?: string; request?: HostRequest }>(child, (event) => {
    events.push(event);
    waiters.forEach((check) => check());
    if (event.type !== "control_request" || !event.request) return;
    requests.push(event.request);
    const requestId = event.request_id;
    void Promise.resolve(options.answer(event.request)).then((answer) => {
      if (answer === undefined) return;
      const response =
        "error" in answer && typeof answer.error === "string"
          ? { subtype: "error", request_id: requestId, error: answer.error }
          : { subtype: "success", request_id: requestId, response: answer };
      send({ type: "control_response", response });
    });
  });
  return {
    requests,
    events,
    send,
    waitUntil: (condition, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `condition not met within ${timeoutMs} ms; stdout so far:\n${events.map((event) => JSON.stringify(event)).join("\n")}`,
            ),
          );
        }, timeoutMs);
        const check = (): void => {
          if (!condition(events)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    finish: () => {
      child.stdin.end();
      return exited;
    },
  };
}

export interface InProcessTool {
  name: string;
  inputSchema: Record<string, unknown>;
  run: (args: Record<string, unknown>) => string;
}

/**
 * The host's side of `mcp_message`, as the Python Agent SDK answers it: each server is a real MCP
 * server session, which answers nothing but `initialize` (and `ping`) until the client has sent
 * `notifications/initialized`; a notification is acknowledged with `{"jsonrpc":"2.0","result":{}}`;
 * a server the host does not have is a JSON-RPC error naming it.
 */
export function inProcessMcpServers(servers: Record<string, InProcessTool[]>): (request: HostRequest) => Record<string, unknown> {
  const initialized = new Set<string>();
  return (request) => {
    const name = request.server_name as string;
    const message = request.message as { id?: number; method: string; params?: { name?: string; arguments?: Record<string, unknown> } };
    const reply = (body: Record<string, unknown>) => ({ mcp_response: { jsonrpc: "2.0", id: message.id, ...body } });
    const tools = servers[name];
    if (!tools) return reply({ error: { code: -32601, message: `Server '${name}' not found` } });
    if (message.id === undefined) {
      if (message.method === "notifications/initialized") initialized.add(name);
      return { mcp_response: { jsonrpc: "2.0", result: {} } };
    }
    if (message.method === "initialize")
      return reply({ result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name, version: "9.9.9" } } });
    if (!initialized.has(name)) return reply({ error: { code: -32602, message: "Received request before initialization was complete" } });
    if (message.method === "tools/list")
      return reply({
        result: {
          tools: tools.map(({ name: toolName, inputSchema }) => ({ name: toolName, description: `The ${toolName} tool.`, inputSchema })),
        },
      });
    if (message.method === "tools/call") {
      const tool = tools.find((candidate) => candidate.name === message.params?.name);
      if (!tool)
        return reply({ result: { content: [{ type: "text", text: `Unknown tool: ${String(message.params?.name)}` }], isError: true } });
      return reply({ result: { content: [{ type: "text", text: tool.run(message.params?.arguments ?? {}) }] } });
    }
    return reply({ error: { code: -32601, message: `Method not found: ${message.method}` } });
  };
}
