/**
 * What the Agent tool needs of an agent type. A seam: agent definitions (files, `--agents`, the
 * SDK's `agents`) are loaded elsewhere and handed to the session as a list of these.
 */
export interface SubagentSpec {
  name: string;
  description: string;
  /** The subagent's system prompt (a definition's body). */
  prompt: string;
  /** The tools it may use, by name, out of the session's; absent: all of them. */
  tools?: readonly string[];
  /** Its model (an id or alias); absent: the Agent call's `model`, else the main conversation's. */
  model?: string;
}

export const GENERAL_PURPOSE = "general-purpose";

/** The type every Agent call without `subagent_type` gets, and what a session offers when nothing else is defined. */
export const GENERAL_PURPOSE_SPEC: SubagentSpec = {
  name: GENERAL_PURPOSE,
  description: "A general agent for research and multi-step work: searching code, reading across files, running commands.",
  prompt: [
    "You are a subagent of agentwire: another agent handed you the task in the user message and waits for your report.",
    "Work on that task alone, with the tools you have; do not ask questions, nobody will answer them before you finish.",
    "When you are done, answer with a concise report of what you found or changed, with the file paths and facts the other agent needs: it sees only that report, not your tool calls.",
  ].join("\n"),
};

/** The limits a subagent runs under, unless its caller says otherwise. */
export const SUBAGENT_LIMITS = {
  /** How deep agents may nest: 1 = the main conversation's agents may not start agents of their own. */
  maxDepth: 1,
  /** Subagents running at once in one session; more Agent calls wait for a free place. */
  concurrency: 4,
  /** Model requests one subagent may make (the main conversation's --max-turns does not apply to it). */
  maxTurns: 30,
} as const;

/** Whether a session offers the Agent tool: not with the compact tool profile, whose small models need every token of context. */
export function offersAgentTool(settings: { toolProfile?: "default" | "compact" | undefined }): boolean {
  return settings.toolProfile !== "compact";
}
