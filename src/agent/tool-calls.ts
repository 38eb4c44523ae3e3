import type { ToolUseBlock } from "../conversation/messages.js";
import type { ToolResult } from "../conversation/tool-result.js";
import type { ModelCallDependencies } from "./model-call.js";

/** The tool_result content of a call the interrupt stopped or kept from starting (Claude Code's words). */
export const TOOL_INTERRUPT_MARKER = "[Request interrupted by user for tool use]";

/**
 * Whether a call may run; an approval may replace the call's input (hooks, hosts).
 * `approvedExplicitly`: someone (the host, a person through it, or a hook) approved this call
 * itself, not just the mode or a rule. `judgedReadOnly`: only the read-only judgement of its
 * command approved it (see `ToolApproval`).
 */
export type PermissionDecision =
  | { allow: true; updatedInput?: Record<string, unknown>; approvedExplicitly?: true; judgedReadOnly?: true }
  | { allow: false; message: string };

/** What running an approved call needs to know of how it was approved. */
export interface ToolApproval {
  /** Nothing but the read-only judgement of its shell command approved it: it runs confined where it can. */
  judgedReadOnly: boolean;
  /** The call itself was approved (host, person, hook): it may change a file with several hard links. */
  approvedExplicitly: boolean;
}

/** What running a response's tool calls needs of the session (a part of the loop's dependencies). */
export interface ToolCallDependencies {
  emit: ModelCallDependencies["emit"];
  /** Validates and executes one approved call. Contract: never throws; failures are error results. */
  runTool: (call: ToolUseBlock, signal: AbortSignal, approval: ToolApproval) => Promise<ToolResult>;
  /** The error result for an unknown tool or invalid input, checked before permission; undefined for a well-formed call. */
  rejectMalformedCall: (call: ToolUseBlock) => ToolResult | undefined;
  /** Whether a call may run. Contract: never throws; resolves promptly when `signal` aborts. */
  authorizeToolCall: (call: ToolUseBlock, signal: AbortSignal) => Promise<PermissionDecision>;
  /** Read-only calls may run concurrently with their read-only neighbours. */
  isReadOnlyTool: (name: string) => boolean;
  /**
   * Subagent calls (Agent) run concurrently with their subagent neighbours, and their results are
   * reported as each finishes, as Claude Code reports them. Absent: no tool starts subagents.
   */
  isSubagentTool?: (name: string) => boolean;
  /**
   * True once a hook of this turn answered `continue: false`: calls not started yet are answered
   * without running, and the turn ends after the current step (`hook_stopped`, or
   * `stop_hook_prevented` when it was a Stop hook). Absent: no hooks.
   */
  hookStopped?: () => boolean;
}

/**
 * Runs the calls of one response and returns their results in the order the model asked.
 * Consecutive read-only calls run concurrently, and so do consecutive subagent calls (whose
 * results are reported as each finishes); anything else runs alone. A call that has not started
 * when the turn is interrupted is answered without running.
 */
export async function executeToolCalls(
  calls: ToolUseBlock[],
  dependencies: ToolCallDependencies,
  signal: AbortSignal,
): Promise<Array<{ call: ToolUseBlock; result: ToolResult }>> {
  const results: Array<{ call: ToolUseBlock; result: ToolResult }> = [];
  const report = (call: ToolUseBlock, result: ToolResult): void =>
    dependencies.emit({ type: "tool_result", toolUseId: call.id, toolName: call.name, result });
  let index = 0;
  while (index < calls.length) {
    const group = concurrencyGroup(calls[index]!.name, dependencies);
    const batch = [calls[index]!];
    if (group !== undefined) {
      while (index + batch.length < calls.length && concurrencyGroup(calls[index + batch.length]!.name, dependencies) === group) {
        batch.push(calls[index + batch.length]!);
      }
    }
    index += batch.length;
    const asFinished = group === "subagent";
    const settled = await Promise.all(
      batch.map((call) =>
        executeOne(call, dependencies, signal).then((result) => {
          if (asFinished) report(call, result);
          return result;
        }),
      ),
    );
    settled.forEach((result, position) => {
      const call = batch[position]!;
      if (!asFinished) report(call, result);
      results.push({ call, result });
    });
  }
  return results;
}

/** Which neighbours a call may run beside: read-only calls, subagent calls, or none. */
function concurrencyGroup(name: string, dependencies: ToolCallDependencies): "read" | "subagent" | undefined {
  if (dependencies.isSubagentTool?.(name)) return "subagent";
  return dependencies.isReadOnlyTool(name) ? "read" : undefined;
}

async function executeOne(call: ToolUseBlock, dependencies: ToolCallDependencies, signal: AbortSignal): Promise<ToolResult> {
  if (signal.aborted) return interruptedToolResult();
  if (dependencies.hookStopped?.()) return hookStoppedToolResult();
  // What is wrong with the call goes back to the model before anyone is asked to approve it.
  const malformed = dependencies.rejectMalformedCall(call);
  if (malformed) return malformed;
  const decision = await dependencies.authorizeToolCall(call, signal);
  // Authorization may wait on a person; the turn can be interrupted meanwhile.
  if (signal.aborted) return interruptedToolResult();
  if (!decision.allow) {
    dependencies.emit({
      type: "tool_permission_denied",
      toolUseId: call.id,
      toolName: call.name,
      input: call.input,
      message: decision.message,
    });
    return { content: decision.message, isError: true, code: "permission_denied", details: `Error: ${decision.message}` };
  }
  return dependencies.runTool(decision.updatedInput ? { ...call, input: decision.updatedInput } : call, signal, {
    judgedReadOnly: decision.judgedReadOnly === true,
    approvedExplicitly: decision.approvedExplicitly === true,
  });
}

export function interruptedToolResult(): ToolResult {
  return { content: TOOL_INTERRUPT_MARKER, isError: true, code: "aborted", details: `Error: ${TOOL_INTERRUPT_MARKER}` };
}

function hookStoppedToolResult(): ToolResult {
  return {
    content: "Not run: a hook stopped the run before this call.",
    isError: true,
    code: "aborted",
    details: "Error: stopped by a hook",
  };
}
