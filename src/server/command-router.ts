import * as z from "zod";
import {
  ControlCancelRequestCommandSchema,
  ControlRequestCommandSchema,
  ControlResponseCommandSchema,
  InterruptCommandSchema,
  KeepAliveCommandSchema,
  SetPermissionModeCommandSchema,
  SimpleUserCommandSchema,
  ToolApprovalCommandSchema,
  UserMessageCommandSchema,
  type InputCommand,
} from "../../protocol/commands.js";
import type { LineEvent } from "../../protocol/lines.js";
import { toUserMessage } from "../session/user-input.js";
import { handleControlRequest } from "./control-requests.js";
import { reportInputError, type StreamInputContext } from "./stream-input-context.js";
import { ownEntry } from "../validation/own-entry.js";

type CommandType = InputCommand["type"];
type CommandOf<Type extends CommandType> = Extract<InputCommand, { type: Type }>;

/** Validates a line's value against one command's schema; runs the handler and says true when it matched. */
type CommandRoute = (value: unknown, context: StreamInputContext, lineNumber: number) => boolean;

function route<Type extends CommandType>(
  schema: z.ZodType<CommandOf<Type>>,
  handle: (command: CommandOf<Type>, context: StreamInputContext, lineNumber: number) => void,
): CommandRoute {
  return (value, context, lineNumber) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) handle(parsed.data, context, lineNumber);
    return parsed.success;
  };
}

/**
 * Each stdin command type, with the protocol/ schema its line must match and what it does. Keyed by
 * every `type` protocol/'s InputCommandSchema knows, so a new command cannot be left unrouted.
 */
const COMMAND_ROUTES: { readonly [Type in CommandType]: CommandRoute } = {
  user: route(z.union([UserMessageCommandSchema, SimpleUserCommandSchema]), (command, { turns }) => {
    turns.push(toUserMessage("message" in command ? command.message.content : command.content));
  }),
  interrupt: route(InterruptCommandSchema, (_command, { turns }) => void turns.interrupt()),
  control_request: route(ControlRequestCommandSchema, handleControlRequest),
  control_response: route(ControlResponseCommandSchema, (command, { host, log }) => {
    if (!host?.handleResponse(command.response)) {
      log.debug({ request_id: command.response.request_id }, "ignoring a control_response to a request agentwire did not send");
    }
  }),
  tool_approval: route(ToolApprovalCommandSchema, (command, context, lineNumber) => {
    const answer = command.approved
      ? { behavior: "allow" as const, ...(command.updated_input ? { updatedInput: command.updated_input } : {}) }
      : { behavior: "deny" as const, message: command.message ?? "The user denied this tool call." };
    if (!context.frames?.answer(command.id, answer)) {
      reportInputError(context, lineNumber, "unsupported", `No permission request with id ${command.id} is waiting.`);
    }
  }),
  set_permission_mode: route(SetPermissionModeCommandSchema, (command, { session }) => session.setPermissionMode(command.mode)),
  // The host withdrawing a question agentwire asked: the answer, when it comes, is simply not awaited.
  control_cancel_request: route(ControlCancelRequestCommandSchema, () => {}),
  keep_alive: route(KeepAliveCommandSchema, () => {}),
};

/** Reads one stdin line: reports what cannot be used, and hands each valid command to its route. */
export function routeLine(line: LineEvent, context: StreamInputContext): void {
  if (line.kind === "too_long") {
    reportInputError(context, line.number, "line_too_long", `Line ${line.number} is ${line.bytes} bytes, over the limit; it was skipped.`);
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch (error) {
    reportInputError(context, line.number, "invalid_json", `Line ${line.number} is not valid JSON: ${(error as Error).message}`);
    return;
  }
  const type = typeof value === "object" && value !== null && "type" in value ? value.type : undefined;
  // An own key only: a type such as "toString" or "__proto__" names no route.
  const commandRoute = typeof type === "string" ? ownEntry<CommandRoute>(COMMAND_ROUTES, type) : undefined;
  if (!commandRoute?.(value, context, line.number)) {
    reportInputError(context, line.number, "invalid_command", describeInvalidCommand(value));
  }
}

/** Names the exact field that is wrong, using the schema the command was meant to match. */
function describeInvalidCommand(value: unknown): string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return 'Each line must be a JSON object with a "type" field.';
  const record = value as Record<string, unknown>;
  const type = typeof record.type === "string" ? record.type : undefined;
  if (type === undefined) return 'Command has no "type" field; expected "user", "interrupt" or "control_request".';
  const schema =
    type === "user"
      ? "message" in record
        ? UserMessageCommandSchema
        : SimpleUserCommandSchema
      : type === "control_request"
        ? ControlRequestCommandSchema
        : undefined;
  if (!schema) {
    return `Unknown or malformed command type "${type}"; expected "user", "interrupt", "control_request", "control_response", "tool_approval", "set_permission_mode" or "keep_alive".`;
  }
  const issues = schema.safeParse(value).error?.issues ?? [];
  const details = issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
  return `Invalid "${type}" command: ${details}`;
}
