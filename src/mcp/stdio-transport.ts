import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { startSupervisedProcess, type SupervisedProcess } from "../process/supervised-process.js";
import type { StdioServerConfig } from "./mcp-config.js";

/** The end of a server's stderr kept for the error message when it fails. */
const STDERR_TAIL_CHARACTERS = 2_000;

/**
 * A stdio MCP server as a child in agentwire's process tree, under the same guarantee as Bash
 * (src/process/supervised-process.ts): it leads its own process group, so the server and
 * whatever it starts die with agentwire even when agentwire is SIGKILLed. (The SDK's own stdio
 * transport spawns the server in agentwire's group, where nothing stops it on a hard kill.)
 */
export class SupervisedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private server: SupervisedProcess | undefined;
  private readonly readBuffer = new ReadBuffer();
  private stderrTail = "";

  constructor(
    private readonly config: StdioServerConfig,
    private readonly options: { cwd: string; env: Readonly<Record<string, string | undefined>>; passEnv: readonly string[] },
  ) {}

  /** What the server last wrote to stderr (for a failure's message). */
  get stderr(): string {
    return this.stderrTail.trim();
  }

  start(): Promise<void> {
    const server = startSupervisedProcess({
      file: this.config.command,
      args: this.config.args,
      cwd: this.config.cwd ?? this.options.cwd,
      // The server's own `env` block is explicit, so it is added after the credentials are gone:
      // a configuration hands a server exactly the keys it names.
      environment: { inherited: this.options.env, pass: this.options.passEnv, added: this.config.env },
      stdin: "pipe",
    });
    if ("startError" in server) return Promise.reject(server.startError);
    this.server = server;
    server.stdout.on("data", (chunk: Buffer) => {
      this.readBuffer.append(chunk);
      this.deliver();
    });
    server.stderr.setEncoding("utf8").on("data", (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARACTERS);
    });
    server.stdin?.on("error", (error) => this.onerror?.(error));
    void server.ended.then(() => {
      server.release();
      this.server = undefined;
      // A server that never started has no close to report: start() rejects instead.
      if (server.pid !== undefined) this.onclose?.();
    });
    return server.spawned.catch((error: Error) => {
      this.onerror?.(error);
      throw error;
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.server?.stdin;
    if (!stdin?.writable) return Promise.reject(new Error("the server is not running"));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server?.pid === undefined) return;
    server.stdin?.end();
    server.stop("aborted");
  }

  private deliver(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (error) {
        // A line that is not JSON-RPC (a server printing logs to stdout): reported, skipped.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }
}
