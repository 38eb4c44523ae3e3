import type * as z from "zod";
import type { ControlRequestCommand } from "../../protocol/commands.js";
import type { OutputEvent } from "../../protocol/events.js";
import type { StreamInputContext } from "./stream-input-context.js";

/** A control answer, and what to do once it is written (Claude Code answers before announcing effects). */
export interface ControlAnswer {
  response: OutputEvent;
  afterwards?: () => void;
}

/** The two ways to answer one control request, bound to its `request_id`. */
export interface ControlReply {
  success(response: Record<string, unknown>, afterwards?: () => void): ControlAnswer;
  failure(error: string): ControlAnswer;
}

/** Answers one control request subtype. */
export type ControlHandler = (
  request: ControlRequestCommand["request"],
  reply: ControlReply,
  context: StreamInputContext,
) => ControlAnswer | Promise<ControlAnswer>;

/**
 * A handler behind its protocol/ schema: a request that does not match is answered with an error
 * (`invalid` says what is wrong, by default the first issue) and the handler never runs.
 */
export function validated<Schema extends z.ZodType>(
  schema: Schema,
  answer: (request: z.infer<Schema>, reply: ControlReply, context: StreamInputContext) => ControlAnswer | Promise<ControlAnswer>,
  invalid: (request: ControlRequestCommand["request"], error: z.ZodError) => string = (request, error) =>
    `${request.subtype} is not understood: ${describeIssue(error)}`,
): ControlHandler {
  return (request, reply, context) => {
    const parsed = schema.safeParse(request);
    return parsed.success ? answer(parsed.data, reply, context) : reply.failure(invalid(request, parsed.error));
  };
}

export function replyTo(requestId: string): ControlReply {
  return {
    success: (response, afterwards) => ({
      response: { type: "control_response", response: { subtype: "success", request_id: requestId, response } } satisfies OutputEvent,
      ...(afterwards ? { afterwards } : {}),
    }),
    failure: (error) => ({ response: { type: "control_response", response: { subtype: "error", request_id: requestId, error } } }),
  };
}

/** The first issue of a failed parse, as `path: message`. */
function describeIssue(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.map(String).join(".") || "(request)"}: ${issue.message}` : "";
}
