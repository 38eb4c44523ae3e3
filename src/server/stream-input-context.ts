import type { Readable } from "node:stream";
import { randomUUID } from "../text/random-uuid.js";
import type { InputErrorEvent, OutputEvent } from "../../protocol/events.js";
import { mcpStartupTimeoutMs } from "../mcp/mcp-servers.js";
import type { Session } from "../session/session.js";
import type { SessionLogger } from "../session/session-options.js";
import { TurnQueue } from "../session/turn-queue.js";
import type { FrameApprovals } from "./host-approvals.js";
import type { HostChannel } from "./host-channel.js";
import { loadSdkMcpServers } from "./sdk-mcp-tools.js";

export interface StreamInputOptions {
  input: Readable;
  session: Session;
  output: (event: OutputEvent) => void;
  log: SessionLogger;
  /** agentwire's own approval frames, when this session uses them. */
  frames: FrameApprovals | undefined;
  /** The host process's pid, reported in the `initialize` answer. */
  pid: number;
  /** Models offered in the `initialize` answer. */
  models: Array<{ value: string; displayName: string; description: string }>;
  /** Control requests agentwire sends to the host; answers arrive here. */
  host: HostChannel | undefined;
  /** Emit `system/session_state_changed` (running / idle) for hosts that read it. */
  announceSessionState: boolean;
  /**
   * The host's in-process MCP servers named in `--mcp-config` (`type: "sdk"`, as the Python Agent
   * SDK announces them): served like those `initialize.sdkMcpServers` names.
   */
  hostMcpServers: readonly string[];
  /** The session's environment: MCP_TIMEOUT bounds the handshake with each in-process server. */
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * Promises a later step must wait for, all of them: `settled()` is the chain of every promise
 * added so far (it rejects if one of them does).
 */
export class PendingWork {
  private all: Promise<void> = Promise.resolve();

  add(work: Promise<unknown>): void {
    this.all = Promise.all([this.all, work]).then(() => undefined);
  }

  settled(): Promise<void> {
    return this.all;
  }
}

/** Everything the handlers of one stream-json input share, for as long as stdin is read. */
export interface StreamInputContext extends StreamInputOptions {
  /** The user messages read so far, run one turn at a time. */
  readonly turns: TurnQueue;
  /** Set-up the turns wait for: the host's in-process MCP tools, an `initialize` still being answered. */
  readonly setup: PendingWork;
  /** Control answers written once ready (`initialize`): end of input waits for them. */
  readonly answers: PendingWork;
  /** The host's in-process servers asked for so far: each is loaded once, whoever names it first. */
  readonly hostServersAsked: Set<string>;
  /** Lines that could not be used, so a run fed only broken input does not end as a success. */
  readonly invalidLines: string[];
}

export function createStreamInputContext(options: StreamInputOptions): StreamInputContext {
  const { session, output } = options;
  const context: StreamInputContext = {
    ...options,
    turns: new TurnQueue({
      session,
      emit: output,
      beforeTurns: () => {
        // A host that sent no initialize still gets the servers it named in --mcp-config.
        loadHostMcpServers(context, options.hostMcpServers, undefined);
        return context.setup.settled();
      },
      // The Agent SDK ends a run at a `result` unless it has seen session states; with them it
      // waits for `idle`, so its callbacks (canUseTool, hooks, MCP tools) stay available to queued
      // turns. Claude Code emits them only when the SDK asks (CLAUDE_CODE_SDK_READS_SESSION_STATE).
      onStateChange: (state) => {
        if (!options.announceSessionState) return;
        output({
          type: "system",
          subtype: "session_state_changed",
          state,
          sdk_host_only: true,
          session_id: session.sessionId,
          uuid: randomUUID(),
        });
      },
    }),
    setup: new PendingWork(),
    answers: new PendingWork(),
    hostServersAsked: new Set(),
    invalidLines: [],
  };
  return context;
}

/** Reports a line that could not be used, and remembers it for the end-of-input verdict. */
export function reportInputError(context: StreamInputContext, line: number, code: InputErrorEvent["error"]["code"], message: string): void {
  context.invalidLines.push(message);
  context.output({
    type: "system",
    subtype: "input_error",
    error: { code, message },
    line,
    session_id: context.session.sessionId,
    uuid: randomUUID(),
  });
}

/** Starts loading the named in-process servers not asked for before; turns wait until they are added. */
export function loadHostMcpServers(context: StreamInputContext, names: readonly string[], manifests: unknown): void {
  const fresh = [...new Set(names)].filter((name) => !context.hostServersAsked.has(name));
  if (fresh.length === 0) return;
  for (const name of fresh) context.hostServersAsked.add(name);
  const host = context.host;
  const loaded = host
    ? loadSdkMcpServers(host, fresh, manifests, { handshakeTimeoutMs: mcpStartupTimeoutMs(context.env) })
    : Promise.resolve(fresh.map((name) => ({ name, error: "no host answers control requests in this session" })));
  context.setup.add(
    loaded.then((servers) => {
      for (const server of servers) context.session.addMcpServer(server);
    }),
  );
}
