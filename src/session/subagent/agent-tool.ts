import * as z from "zod/mini";
import "../../validation/english-issues.js";
import { AGENT_TOOL_TRAITS } from "../../tools/builtin-tool-traits.js";
import type { AgentDefinition } from "../../agents/agent-definition.js";
import { renderAgentListing } from "../../agents/agent-listing.js";
import { defineTool, toolError, type ToolDefinition } from "../../tools/define-tool.js";
import { withBuiltSchema } from "../../tools/tool-json-schema.js";
import { lazySchema } from "../../validation/lazy-schema.js";

export const AGENT_TOOL_NAME = "Agent";
/** The name Claude Code lists the Agent tool under in `system/init.tools`. */
export const AGENT_TOOL_INIT_NAME = "Task";

/** Claude Code's Agent input (api/tools-default-2.1.330.json), field for field. */
export const agentInputSchema = lazySchema(() =>
  z.strictObject({
    description: z.string().check(z.describe("What the agent is for, in three to five words")),
    prompt: z.string().check(z.describe("The task, with everything the agent needs to know: it sees nothing else of this conversation")),
    subagent_type: z.optional(z.string()).check(z.describe("Which agent type to start (default: general-purpose)")),
    model: z
      .optional(z.enum(["sonnet", "opus", "haiku", "fable"]))
      .check(z.describe("A model alias for this agent, in place of its definition's model or the current one")),
    effort: z
      .optional(z.enum(["low", "medium", "high", "xhigh", "max"]))
      .check(z.describe("Reasoning effort for this agent; set it only when the user or instructions ask for one")),
    run_in_background: z
      .optional(z.boolean())
      .check(
        z.describe("Start the agent in the background and go on at once; you are told when it finishes (default: wait for its report)"),
      ),
    isolation: z
      .optional(z.enum(["worktree", "remote"]))
      .check(z.describe("Run the agent on an isolated copy of the repository (not supported by agentwire yet)")),
  }),
);

export type AgentInput = z.infer<ReturnType<typeof agentInputSchema>>;

/**
 * The Agent tool as the model sees it, its description listing `definitions` (the session's agent
 * types). Its calls are run by the session (src/session/subagent/), which owns what a nested
 * conversation needs; `execute` only answers where no session is there to run one (a caller that
 * lists the tool outside a session).
 */
export function createAgentTool(definitions: readonly AgentDefinition[]): ToolDefinition<ReturnType<typeof agentInputSchema>> {
  return withBuiltSchema(
    defineTool({
      name: AGENT_TOOL_NAME,
      ...AGENT_TOOL_TRAITS,
      description: [
        "Start a subagent: a fresh agent with its own conversation that works on one task with its own tool calls, then hands back a final report as this tool's result.",
        "",
        "The subagent knows only the prompt you give it: state the goal, what is already known or ruled out, and which files matter. Its report is not shown to the user; pass on what matters.",
        "Delegate work that would take many tool calls or fill your context with file contents, or independent pieces of work that can run side by side. Do small lookups yourself.",
        "With run_in_background the call returns at once and you are told when the agent has finished; its report is then in its output file.",
        "",
        renderAgentListing(definitions),
      ].join("\n"),
      get inputSchema() {
        return agentInputSchema();
      },
      execute: async () =>
        toolError("internal_error", "<tool_use_error>The Agent tool runs only inside an agentwire session.</tool_use_error>"),
    }),
  );
}
