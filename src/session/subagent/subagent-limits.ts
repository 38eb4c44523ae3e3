/** The type every Agent call without `subagent_type` gets. */
export const GENERAL_PURPOSE = "general-purpose";

/** The limits a subagent runs under, unless its definition says otherwise. */
export const SUBAGENT_LIMITS = {
  /** How deep agents may nest: 1 = the main conversation's agents may not start agents of their own. */
  maxDepth: 1,
  /** Subagents running at once in one session; more Agent calls wait for a free place. */
  concurrency: 4,
  /** Model requests one subagent may make when its definition sets no `maxTurns` (the main conversation's --max-turns does not apply to it). */
  maxTurns: 30,
} as const;

/** Whether a session offers the Agent tool: not with the compact tool profile, whose small models need every token of context. */
export function offersAgentTool(settings: { toolProfile?: "default" | "compact" | undefined }): boolean {
  return settings.toolProfile !== "compact";
}
