import type { Readable } from "node:stream";
import { randomUUID } from "node:crypto";
import {
  ControlRequestCommandSchema,
  InputCommandSchema,
  SimpleUserCommandSchema,
  UserMessageCommandSchema,
  type ControlRequestCommand,
  type InputCommand,
} from "../../protocol/commands.js";
import type { InputErrorEvent, OutputEvent, ResultEvent } from "../../protocol/events.js";
import {
  InitializeRequestSchema,
  SetMaxThinkingTokensRequestSchema,
  SetModelRequestSchema,
  SetPermissionModeRequestSchema,
  type InitializeResponse,
} from "../../protocol/control.js";
import type { UserMessage } from "../conversation/messages.js";
import { resolveModelAlias } from "../providers/models.js";
import type { Session } from "../session/session.js";
import type { SessionLogger } from "../session/session-options.js";
import { AGENTWIRE_VERSION } from "../version.js";
import type { FrameApprovals } from "./host-approvals.js";
import type { HostChannel } from "./host-channel.js";
import { HostHooks } from "./host-hooks.js";
import { readLines, type LineEvent } from "../../protocol/lines.js";
import { loadSdkMcpServers } from "./sdk-mcp-tools.js";
import { mcpStartupTimeoutMs } from "../mcp/mcp-servers.js";
import { toUserMessage } from "../session/user-input.js";
import { buildFailureResult } from "../session/result.js";

type Answer = { response: OutputEvent; afterwards?: () => void };

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
 * Serves stream-json input: user messages are queued and run strictly in order, one turn at a
 * time; interrupts and control requests are handled as soon as they arrive, also while a turn
 * runs. On EOF every message already read is finished before this resolves.
 * Resolves with the last turn's result (undefined when no turn ran).
 */
export async function serveStreamInput(options: StreamInputOptions): Promise<ResultEvent | undefined> {
  const { session, output, log } = options;
  const startedAt = performance.now();
  const queue: UserMessage[] = [];
  let lastResult: ResultEvent | undefined;
  let lineNumber = 0;
  let worker: Promise<void> | undefined;

  // Set while initialize is still loading the host's in-process MCP tools; turns wait for it.
  let initializing: Promise<void> = Promise.resolve();
  // Control answers that are written once ready (initialize); EOF waits for them.
  let answersSent: Promise<void> = Promise.resolve();
  // The host's in-process servers asked for so far: each is loaded once, whoever names it first.
  const hostServersAsked = new Set<string>();
  const loadHostMcpServers = (names: readonly string[], manifests: unknown): void => {
    const fresh = [...new Set(names)].filter((name) => !hostServersAsked.has(name));
    if (fresh.length === 0) return;
    fresh.forEach((name) => hostServersAsked.add(name));
    const host = options.host;
    const loaded = host
      ? loadSdkMcpServers(host, fresh, manifests, { handshakeTimeoutMs: mcpStartupTimeoutMs(options.env) })
      : Promise.resolve(fresh.map((name) => ({ name, error: "no host answers control requests in this session" })));
    initializing = Promise.all([initializing, loaded.then((servers) => servers.forEach((server) => session.addMcpServer(server)))]).then(() => undefined);
  };
  const runQueue = async (): Promise<void> => {
    // A host that sent no initialize still gets the servers it named in --mcp-config.
    loadHostMcpServers(options.hostMcpServers, undefined);
    await initializing;
    await session.mcpReady();
    for (let next = queue.shift(); next && !session.closed; next = queue.shift()) {
      announceState("running");
      // Claude Code repeats system/init before every turn in stream-json input mode.
      output(await session.initEvent());
      lastResult = await session.runTurn(next);
    }
    queue.length = 0;
    announceState("idle");
    worker = undefined;
  };
  // The Agent SDK ends a run at a `result` unless it has seen session states; with them it waits
  // for `idle`, so its callbacks (canUseTool, hooks, MCP tools) stay available to queued turns.
  // Claude Code emits them only when the SDK asks (CLAUDE_CODE_SDK_READS_SESSION_STATE).
  let state: "idle" | "running" = "idle";
  const announceState = (next: "idle" | "running"): void => {
    if (!options.announceSessionState || state === next) return;
    state = next;
    output({ type: "system", subtype: "session_state_changed", state: next, sdk_host_only: true, session_id: session.sessionId, uuid: randomUUID() });
  };
  const enqueue = (message: UserMessage): void => {
    queue.push(message);
    worker ??= runQueue();
  };
  // Lines that could not be used, so a run fed only broken input does not end as a success.
  const invalidLines: string[] = [];
  const inputError = (line: number, code: InputErrorEvent["error"]["code"], message: string): void => {
    invalidLines.push(message);
    output({ type: "system", subtype: "input_error", error: { code, message }, line, session_id: session.sessionId, uuid: randomUUID() });
  };

  try {
    for await (const line of readLines(options.input)) {
      handleLine(line);
    }
  } catch (error) {
    // stdin destroyed by a signal, or a broken pipe: stop reading, finish what was queued.
    log.debug({ err: error }, "stdin closed");
  }
  // Answers still being prepared (initialize) go out before the end; they wait on nobody.
  await answersSent;
  // Nobody can answer questions any more: pending and future ones fail (deny) instead of hanging.
  options.host?.close();
  options.frames?.close();
  while (worker) await worker;
  if (lastResult === undefined && invalidLines.length > 0 && !session.closed) {
    lastResult = buildFailureResult({
      sessionId: session.sessionId,
      terminalReason: "invalid_input",
      message: `stdin ended before any turn ran, and ${invalidLines.length} line${invalidLines.length === 1 ? " was" : "s were"} not usable; the first: ${invalidLines[0]}`,
      durationMs: performance.now() - startedAt,
      newUuid: randomUUID,
    });
    output(lastResult);
  }
  return lastResult;

  function handleLine(line: LineEvent): void {
    if (line.kind === "too_long") {
      inputError(line.number, "line_too_long", `Line ${line.number} is ${line.bytes} bytes, over the limit; it was skipped.`);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch (error) {
      inputError(line.number, "invalid_json", `Line ${line.number} is not valid JSON: ${(error as Error).message}`);
      return;
    }
    const parsed = InputCommandSchema.safeParse(value);
    if (!parsed.success) {
      inputError(line.number, "invalid_command", describeInvalidCommand(value));
      return;
    }
    lineNumber = line.number;
    handleCommand(parsed.data);
  }

  function handleCommand(command: InputCommand): void {
    switch (command.type) {
      case "user":
        enqueue(toUserMessage("message" in command ? command.message.content : command.content));
        return;
      case "interrupt":
        session.interrupt();
        return;
      case "control_request": {
        const answered = answerControlRequest(command);
        const send = ({ response, afterwards }: Answer): void => {
          output(response);
          afterwards?.();
        };
        if (!(answered instanceof Promise)) return send(answered);
        // An answer that waits (initialize reads the skills' descriptions) still precedes any turn.
        const sent = answered.then(send);
        initializing = Promise.all([initializing, sent]).then(() => undefined);
        answersSent = Promise.all([answersSent, sent]).then(() => undefined);
        return;
      }
      case "control_response":
        if (!options.host?.handleResponse(command.response)) {
          log.debug({ request_id: command.response.request_id }, "ignoring a control_response to a request agentwire did not send");
        }
        return;
      case "tool_approval":
        if (
          !options.frames?.answer(
            command.id,
            command.approved
              ? { behavior: "allow", ...(command.updated_input ? { updatedInput: command.updated_input } : {}) }
              : { behavior: "deny", message: command.message ?? "The user denied this tool call." },
          )
        ) {
          inputError(lineNumber, "unsupported", `No permission request with id ${command.id} is waiting.`);
        }
        return;
      case "set_permission_mode":
        session.setPermissionMode(command.mode);
        return;
      case "control_cancel_request":
      case "keep_alive":
        return;
    }
  }

  /** The answer, and what to do once it is written (Claude Code answers before announcing effects). */
  function answerControlRequest(command: ControlRequestCommand): Answer | Promise<Answer> {
    const success = (response: Record<string, unknown>, afterwards?: () => void) => ({
      response: { type: "control_response", response: { subtype: "success", request_id: command.request_id, response } } satisfies OutputEvent,
      ...(afterwards ? { afterwards } : {}),
    });
    switch (command.request.subtype) {
      case "interrupt":
        // Answer first, as Claude Code does: the turn's closing lines follow the response.
        return success({ still_queued: [] }, () => session.interrupt());
      case "initialize": {
        const request = InitializeRequestSchema.safeParse(command.request);
        if (!request.success) return failure(`initialize is not understood: ${describeIssue(request.error)}`);
        // An event sent as null or with no matchers registers nothing.
        const hooks = Object.fromEntries(Object.entries(request.data.hooks ?? {}).filter(([, matchers]) => matchers !== undefined && matchers.length > 0));
        if (options.host && Object.keys(hooks).length > 0) {
          session.setHooks(new HostHooks(options.host, hooks, (message) => log.warn(message)));
        }
        loadHostMcpServers([...(request.data.sdkMcpServers ?? []), ...options.hostMcpServers], request.data.sdkMcpServerManifests);
        const answer: Omit<InitializeResponse, "commands"> = {
          models: options.models,
          agents: [],
          account: {},
          output_style: "default",
          available_output_styles: ["default"],
          pid: options.pid,
          agentwire_version: AGENTWIRE_VERSION,
          current_permission_mode: session.permissionMode,
          ...(Object.keys(hooks).length > 0 ? { hooks_applied: true as const } : {}),
        };
        // The SDK's `outputFormat` arrives here; turns wait until its tool is built.
        const outputSchema = request.data.jsonSchema ? session.setOutputSchema(request.data.jsonSchema) : Promise.resolve();
        initializing = Promise.all([initializing, outputSchema.catch(() => undefined)]).then(() => undefined);
        // The user-invocable skills are the session's commands (`/name args`).
        return outputSchema.then(
          () => session.skillCommands().then((commands) => success({ commands, ...answer } satisfies InitializeResponse)),
          (error: Error) => failure(`initialize: jsonSchema is not a valid JSON Schema: ${error.message}`),
        );
      }
      case "set_permission_mode": {
        const request = SetPermissionModeRequestSchema.safeParse(command.request);
        if (!request.success) return failure(`Unknown permission mode: ${String(command.request.mode)}`);
        return success({ mode: request.data.mode }, () => session.setPermissionMode(request.data.mode));
      }
      case "set_model": {
        const request = SetModelRequestSchema.safeParse(command.request);
        if (!request.success) return failure("set_model: model must be a model id, or absent, null or \"default\" for the session's first model");
        const model = request.data.model;
        session.setModel(model === undefined || model === "default" ? undefined : resolveModelAlias(model));
        return success({ model: session.model });
      }
      case "set_max_thinking_tokens": {
        const request = SetMaxThinkingTokensRequestSchema.safeParse(command.request);
        if (!request.success) return failure("max_thinking_tokens must be a non-negative number, or null for the session's first budget");
        const tokens = request.data.max_thinking_tokens;
        if (tokens !== undefined) session.setMaxThinkingTokens(tokens ?? undefined);
        return success({});
      }
      case "mcp_status":
        return success({ mcpServers: session.mcpServerStatus() });
      default:
        return failure(`Unsupported control request subtype: ${command.request.subtype}`);
    }

    function failure(error: string): { response: OutputEvent } {
      return { response: { type: "control_response", response: { subtype: "error", request_id: command.request_id, error } } };
    }
  }
}

function describeIssue(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.map(String).join(".") || "(request)"}: ${issue.message}` : "";
}

/** Names the exact field that is wrong, using the schema the command was meant to match. */
function describeInvalidCommand(value: unknown): string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "Each line must be a JSON object with a \"type\" field.";
  const record = value as Record<string, unknown>;
  const type = typeof record.type === "string" ? record.type : undefined;
  if (type === undefined) return 'Command has no "type" field; expected "user", "interrupt" or "control_request".';
  const schema =
    type === "user" ? ("message" in record ? UserMessageCommandSchema : SimpleUserCommandSchema) : type === "control_request" ? ControlRequestCommandSchema : undefined;
  if (!schema) return `Unknown or malformed command type "${type}"; expected "user", "interrupt", "control_request", "control_response", "tool_approval", "set_permission_mode" or "keep_alive".`;
  const issues = schema.safeParse(value).error?.issues ?? [];
  const details = issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
  return `Invalid "${type}" command: ${details}`;
}
