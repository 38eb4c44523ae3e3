import type { AgentCatalog } from "../../agents/agent-catalog.js";
import type { AgentDefinition } from "../../agents/agent-definition.js";
import type { ToolDefinition } from "../../tools/define-tool.js";
import { createAgentTool } from "./agent-tool.js";
import { SUBAGENT_LIMITS } from "./subagent-limits.js";
import { SubagentCounters, Slots } from "./subagent-stats.js";

/**
 * A session's subagents: the agent types it offers (its AgentCatalog's definitions, as they were
 * at the start of the turn), how deep and how many at once they may run, and the turn's counters.
 */
export class Subagents {
  readonly counters = new SubagentCounters();
  readonly slots: Slots;
  private current: readonly AgentDefinition[] = [];
  private listed = "";

  constructor(
    private readonly catalog: AgentCatalog,
    readonly maxDepth: number = SUBAGENT_LIMITS.maxDepth,
    concurrency: number = SUBAGENT_LIMITS.concurrency,
  ) {
    this.slots = new Slots(concurrency);
  }

  /** The agent types Agent calls may name now. */
  get definitions(): readonly AgentDefinition[] {
    return this.current;
  }

  /**
   * Reads the catalog at a turn's start (a host's `initialize.agents` applies from the next turn
   * on). Returns the Agent tool to offer when the types changed since the last turn, else
   * undefined: an unchanged tool keeps the model's prompt cache.
   */
  async refresh(): Promise<ToolDefinition | undefined> {
    const { definitions } = await this.catalog.load();
    const listed = JSON.stringify(definitions);
    if (listed === this.listed) return undefined;
    this.current = definitions;
    this.listed = listed;
    return createAgentTool(definitions) as ToolDefinition;
  }
}
