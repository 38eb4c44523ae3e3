import { randomUUID } from "../text/random-uuid.js";
import { PermissionResultSchema, type CanUseToolRequest, type PermissionResult } from "../../protocol/control.js";
import type { OutputEvent } from "../../protocol/events.js";
import type { ApprovalRequest, ToolApprover } from "../session/session-options.js";
import type { HostChannel } from "./host-channel.js";
import { PendingAnswers, UnansweredError } from "./pending-answers.js";

/**
 * Permission questions as Claude Code asks its host: a `can_use_tool` control request (what the
 * Agent SDK's `canUseTool` answers, with --permission-prompt-tool stdio). An answer the host
 * sends that is not a PermissionResult is a denial that says why.
 */
export function controlApprover(host: HostChannel): ToolApprover {
  return async (request, signal) => {
    const payload: Omit<CanUseToolRequest, "subtype"> = {
      tool_name: request.toolName,
      display_name: request.toolName,
      input: request.input,
      tool_use_id: request.toolUseId,
      description: request.description,
      decision_reason: request.reason,
      decision_reason_type: request.reasonType,
      permission_suggestions: request.suggestions,
      ...(request.agentId === undefined ? {} : { agent_id: request.agentId }),
    };
    const answer = await host.request("can_use_tool", payload, signal);
    const parsed = PermissionResultSchema.safeParse(answer);
    if (!parsed.success)
      return {
        behavior: "deny",
        message: `The host's answer to can_use_tool was not understood: ${parsed.error.issues[0]?.message ?? ""}`,
      };
    return parsed.data;
  };
}

/**
 * agentwire's simple approval frames (`agentwire start`, --permission-mode interactive): each
 * question is a `system/permission_request` line, answered by a `tool_approval` stdin line with
 * the same id. When stdin closes, open and later questions are denied at once; a question left
 * unanswered for `timeoutMs` is denied, so a host that never answers cannot stall the session.
 */
export class FrameApprovals {
  private readonly pending = new PendingAnswers<PermissionResult>();

  constructor(
    private readonly output: (event: OutputEvent) => void,
    private readonly sessionId: () => string,
    private readonly timeoutMs: number,
  ) {}

  readonly approve: ToolApprover = async (request: ApprovalRequest, signal: AbortSignal) => {
    const expired = AbortSignal.timeout(this.timeoutMs);
    const answer = this.pending.wait(request.toolUseId, AbortSignal.any([signal, expired]));
    if (!this.pending.isClosed && !signal.aborted) {
      this.output({
        type: "system",
        subtype: "permission_request",
        id: request.toolUseId,
        tool_name: request.toolName,
        input: request.input,
        reason: request.reason,
        session_id: this.sessionId(),
        uuid: randomUUID(),
      });
    }
    return answer.catch((error: unknown): PermissionResult => {
      if (error instanceof UnansweredError && error.reason === "aborted") {
        if (expired.aborted && !signal.aborted)
          return {
            behavior: "deny",
            message: `No answer to the approval question within ${formatSeconds(this.timeoutMs)}; the call was denied (agentwire start --approval-timeout SECONDS changes the wait).`,
          };
        return { behavior: "deny", message: "Interrupted before approval." };
      }
      return { behavior: "deny", message: "The host closed its input before answering; the call was not approved." };
    });
  };

  /** A `tool_approval` frame; false when no question with that id is open. */
  answer(id: string, answer: PermissionResult): boolean {
    return this.pending.answer(id, answer);
  }

  /** stdin reached EOF: nobody can answer any more. */
  close(): void {
    this.pending.close("The host closed its input; nobody can approve this call.");
  }
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return seconds >= 60 && seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? "" : "s"}` : `${seconds} s`;
}
