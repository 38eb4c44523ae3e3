import type { ToolResult } from "../../conversation/tool-result.js";
import { costUsd } from "../../providers/models.js";
import { toolError } from "../../tools/define-tool.js";

/** What one subagent run did, gathered while it ran. */
export interface SubagentRun {
  agentId: string;
  agentType: string;
  prompt: string;
  resolvedModel: string;
  /** The names of the tools it called, each once, in the order of first use. */
  toolsUsed: string[];
  toolUseCount: number;
  /** Calls per tool name. */
  toolCounts: Record<string, number>;
  usage: { inputTokens: number; outputTokens: number; cacheReadInputTokens: number; cacheCreationInputTokens: number };
  durationMs: number;
}

export function totalTokens(run: Pick<SubagentRun, "usage">): number {
  const { usage } = run;
  return usage.inputTokens + usage.outputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
}

/**
 * The Agent call's result once its subagent finished: for the model, Claude Code's hand-back
 * form (the tools it used, the report indented, its id and usage) in agentwire's words; for
 * hosts, `tool_use_result` with Claude Code's fields.
 */
export function completedResult(run: SubagentRun, report: string): ToolResult {
  const text = [
    `<tools-used-before-summary>${run.toolsUsed.join(", ")}</tools-used-before-summary>`,
    "",
    "[Subagent hand-back] The subagent has finished; its final report follows. The user has not seen it: pass on what matters.",
    indent(report),
    `agentId: ${run.agentId}`,
    `<usage>subagent_tokens: ${totalTokens(run)}`,
    `tool_uses: ${run.toolUseCount}`,
    `duration_ms: ${Math.round(run.durationMs)}</usage>`,
  ].join("\n");
  return {
    content: [{ type: "text", text }],
    isError: false,
    details: {
      status: "completed",
      prompt: run.prompt,
      agentId: run.agentId,
      agentType: run.agentType,
      toolsUsed: run.toolsUsed,
      content: [{ type: "text", text: report }],
      resolvedModel: run.resolvedModel,
      totalDurationMs: Math.round(run.durationMs),
      totalTokens: totalTokens(run),
      totalToolUseCount: run.toolUseCount,
      usage: {
        input_tokens: run.usage.inputTokens,
        output_tokens: run.usage.outputTokens,
        cache_read_input_tokens: run.usage.cacheReadInputTokens,
        cache_creation_input_tokens: run.usage.cacheCreationInputTokens,
      },
      // agentwire's addition: Claude Code's hand-back has tokens but no price, and views show each
      // subagent's own cost line.
      total_cost_usd: costUsd(run.resolvedModel, run.usage),
      toolStats: toolStats(run.toolCounts),
      canContinueAgent: false,
    },
  };
}

/** The subagent stopped before it finished (a limit, an API failure): the model hears why. */
export function failedResult(run: SubagentRun, reason: string): ToolResult {
  return toolError(
    "command_failed",
    `<tool_use_error>The subagent (agentId: ${run.agentId}) stopped before it finished: ${reason}. Its work is incomplete; do the rest yourself or start a new agent with a narrower task.</tool_use_error>`,
  );
}

/** The user interrupted the turn while the subagent worked. */
export function interruptedResult(): ToolResult {
  return toolError(
    "aborted",
    "The user stopped this agent before it finished, and interrupted the turn. Do not start it again; wait for what the user says next.",
  );
}

/** An Agent call that started nothing: the model hears why and what to do instead. */
export function refusedResult(message: string): ToolResult {
  return toolError("invalid_input", `<tool_use_error>${message}</tool_use_error>`);
}

function toolStats(counts: Record<string, number>) {
  const of = (...names: string[]): number => names.reduce((sum, name) => sum + (counts[name] ?? 0), 0);
  const known = ["Read", "Grep", "Glob", "LS", "Bash", "Edit", "MultiEdit", "Write"];
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  return {
    readCount: of("Read"),
    searchCount: of("Grep", "Glob", "LS"),
    bashCount: of("Bash"),
    editFileCount: of("Edit", "MultiEdit", "Write"),
    // Lines are not counted yet: agentwire's edit tools do not report them.
    linesAdded: 0,
    linesRemoved: 0,
    otherToolCount: total - of(...known),
  };
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
