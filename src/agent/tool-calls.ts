import type { ToolUseBlock } from "../conversation/messages.js";
import type { ToolResult } from "../conversation/tool-result.js";
import type { LoopDependencies } from "./loop.js";

/** The tool_result content of a call the interrupt stopped or kept from starting (Claude Code's words). */
export const TOOL_INTERRUPT_MARKER = "[Request interrupted by user for tool use]";

/**
 * Runs the calls of one response and returns their results in the order the model asked.
 * Consecutive read-only calls run concurrently, and so do consecutive subagent calls (whose
 * results are reported as each finishes); anything else runs alone. A call that has not started
 * when the turn is interrupted is answered without running.
 */
export async function executeToolCalls(
  calls: ToolUseBlock[],
  dependencies: LoopDependencies,
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
function concurrencyGroup(name: string, dependencies: LoopDependencies): "read" | "subagent" | undefined {
  if (dependencies.isSubagentTool?.(name)) return "subagent";
  return dependencies.isReadOnlyTool(name) ? "read" : undefined;
}

async function executeOne(call: ToolUseBlock, dependencies: LoopDependencies, signal: AbortSignal): Promise<ToolResult> {
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
