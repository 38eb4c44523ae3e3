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
import type { UserMessage } from "../agent/messages.js";
import type { Logger } from "../log.js";
import { AGENTWIRE_VERSION } from "../version.js";
import { readLines, type LineEvent } from "./jsonl.js";
import type { AgentSession } from "./session.js";
import { toUserMessage } from "./user-input.js";

export interface StreamInputOptions {
  input: Readable;
  session: AgentSession;
  output: (event: OutputEvent) => void;
  log: Logger;
  /** Models offered in the `initialize` answer. */
  models: Array<{ value: string; displayName: string; description: string }>;
}

/**
 * Serves stream-json input: user messages are queued and run strictly in order, one turn at a
 * time; interrupts and control requests are handled as soon as they arrive, also while a turn
 * runs. On EOF every message already read is finished before this resolves.
 * Resolves with the last turn's result (undefined when no turn ran).
 */
export async function serveStreamInput(options: StreamInputOptions): Promise<ResultEvent | undefined> {
  const { session, output, log } = options;
  const queue: UserMessage[] = [];
  let lastResult: ResultEvent | undefined;
  let worker: Promise<void> | undefined;

  const runQueue = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      // Claude Code repeats system/init before every turn in stream-json input mode.
      output(session.initEvent());
      lastResult = await session.runTurn(next);
    }
    worker = undefined;
  };
  const enqueue = (message: UserMessage): void => {
    queue.push(message);
    worker ??= runQueue();
  };
  const inputError = (line: number, code: InputErrorEvent["error"]["code"], message: string): void => {
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
  while (worker) await worker;
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
      case "control_request":
        output(answerControlRequest(command));
        return;
      case "control_response":
        log.debug({ request_id: command.response.request_id }, "ignoring a control_response to a request agentwire did not send");
        return;
      case "keep_alive":
        return;
    }
  }

  function answerControlRequest(command: ControlRequestCommand): OutputEvent {
    const success = (response: Record<string, unknown>): OutputEvent => ({
      type: "control_response",
      response: { subtype: "success", request_id: command.request_id, response },
    });
    switch (command.request.subtype) {
      case "interrupt":
        session.interrupt();
        return success({ still_queued: [] });
      case "initialize":
        return success({
          commands: [],
          models: options.models,
          agents: [],
          account: {},
          output_style: "default",
          available_output_styles: ["default"],
          pid: process.pid,
          agentwire_version: AGENTWIRE_VERSION,
        });
      default:
        return {
          type: "control_response",
          response: { subtype: "error", request_id: command.request_id, error: `Unsupported control request subtype: ${command.request.subtype}` },
        };
    }
  }
}

/** Names the exact field that is wrong, using the schema the command was meant to match. */
function describeInvalidCommand(value: unknown): string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "Each line must be a JSON object with a \"type\" field.";
  const record = value as Record<string, unknown>;
  const type = typeof record.type === "string" ? record.type : undefined;
  if (type === undefined) return 'Command has no "type" field; expected "user", "interrupt" or "control_request".';
  const schema =
    type === "user" ? ("message" in record ? UserMessageCommandSchema : SimpleUserCommandSchema) : type === "control_request" ? ControlRequestCommandSchema : undefined;
  if (!schema) return `Unknown or malformed command type "${type}"; expected "user", "interrupt", "control_request", "control_response" or "keep_alive".`;
  const issues = schema.safeParse(value).error?.issues ?? [];
  const details = issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
  return `Invalid "${type}" command: ${details}`;
}
