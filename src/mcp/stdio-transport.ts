import { spawn, type ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { childEnvironment } from "../process/child-environment.js";
import { releaseProcessGroupIfEmpty, stopProcessGroup, superviseProcessGroup } from "../process/process-supervisor.js";
import type { StdioServerConfig } from "./mcp-config.js";

/** The end of a server's stderr kept for the error message when it fails. */
const STDERR_TAIL_CHARACTERS = 2_000;

/**
 * A stdio MCP server as a child in agentwire's process tree, under the same guarantee as Bash:
 * it leads its own process group, registered with the process supervisor, so the server and
 * whatever it starts die with agentwire even when agentwire is SIGKILLed. (The SDK's own stdio
 * transport spawns the server in agentwire's group, where nothing stops it on a hard kill.)
 */
export class SupervisedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
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
    return new Promise((resolve, reject) => {
      const child = spawn(this.config.command, this.config.args, {
        cwd: this.config.cwd ?? this.options.cwd,
        // The server's own `env` block is explicit, so it is added after the credentials are gone:
        // a configuration hands a server exactly the keys it names.
        env: { ...childEnvironment(this.options.env, this.options.passEnv), ...this.config.env },
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
      });
      this.child = child;
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => {
        if (child.pid !== undefined) superviseProcessGroup(child.pid);
        resolve();
      });
      child.once("close", () => {
        if (child.pid !== undefined) releaseProcessGroupIfEmpty(child.pid);
        this.child = undefined;
        this.onclose?.();
      });
      child.stdout?.on("data", (chunk: Buffer) => {
        this.readBuffer.append(chunk);
        this.deliver();
      });
      child.stderr?.setEncoding("utf8").on("data", (text: string) => {
        this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARACTERS);
      });
      child.stdin?.on("error", (error) => this.onerror?.(error));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin?.writable) return Promise.reject(new Error("the server is not running"));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (child?.pid === undefined) return;
    child.stdin?.end();
    stopProcessGroup(child.pid);
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
