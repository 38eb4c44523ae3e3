import type { ControlRequestCommand } from "../../protocol/commands.js";
import {
  InterruptRequestSchema,
  McpStatusRequestSchema,
  SetMaxThinkingTokensRequestSchema,
  SetModelRequestSchema,
  SetPermissionModeRequestSchema,
} from "../../protocol/control.js";
import { resolveModelAlias } from "../providers/models.js";
import { replyTo, validated, type ControlAnswer, type ControlHandler } from "./control-reply.js";
import { answerInitialize } from "./initialize-request.js";
import type { StreamInputContext } from "./stream-input-context.js";
import { ownEntry } from "../validation/own-entry.js";

/** Each control request subtype agentwire answers; any other is answered with an error naming it. */
const CONTROL_HANDLERS: Readonly<Record<string, ControlHandler>> = {
  // Answer first, as Claude Code does: the turn's closing lines follow the response.
  interrupt: validated(InterruptRequestSchema, (_request, reply, context) =>
    reply.success({ still_queued: [] }, () => context.turns.interrupt()),
  ),
  initialize: answerInitialize,
  set_permission_mode: validated(
    SetPermissionModeRequestSchema,
    (request, reply, context) => reply.success({ mode: request.mode }, () => context.session.setPermissionMode(request.mode)),
    (request) => `Unknown permission mode: ${String(request.mode)}`,
  ),
  set_model: validated(
    SetModelRequestSchema,
    ({ model }, reply, { session }) => {
      session.setModel(model === undefined || model === "default" ? undefined : resolveModelAlias(model));
      return reply.success({ model: session.model });
    },
    () => 'set_model: model must be a model id, or absent, null or "default" for the session\'s first model',
  ),
  set_max_thinking_tokens: validated(
    SetMaxThinkingTokensRequestSchema,
    ({ max_thinking_tokens: tokens }, reply, { session }) => {
      if (tokens !== undefined) session.setMaxThinkingTokens(tokens ?? undefined);
      return reply.success({});
    },
    () => "max_thinking_tokens must be a non-negative number, or null for the session's first budget",
  ),
  mcp_status: validated(McpStatusRequestSchema, (_request, reply, { session }) => reply.success({ mcpServers: session.mcpServerStatus() })),
};

/**
 * Answers a control request. An answer that waits (initialize reads the skills' descriptions)
 * still goes out before any turn runs, and before the end of input is handled.
 */
export function handleControlRequest(command: ControlRequestCommand, context: StreamInputContext): void {
  const send = ({ response, afterwards }: ControlAnswer): void => {
    context.output(response);
    afterwards?.();
  };
  const answered = answerControlRequest(command, context);
  if (!(answered instanceof Promise)) {
    send(answered);
    return;
  }
  const sent = answered.then(send);
  context.setup.add(sent);
  context.answers.add(sent);
}

function answerControlRequest(command: ControlRequestCommand, context: StreamInputContext): ControlAnswer | Promise<ControlAnswer> {
  const reply = replyTo(command.request_id);
  const subtype = command.request.subtype;
  // An own key only: a subtype such as "toString" or "__proto__" names no handler.
  const handler = ownEntry(CONTROL_HANDLERS, subtype);
  if (!handler) return reply.failure(`Unsupported control request subtype: ${subtype}`);
  return handler(command.request, reply, context);
}
