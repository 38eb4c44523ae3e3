import type { AgentDefinition } from "./agent-definition.js";
import { type AgentProblem, type AgentSourcesInput, loadAgentDefinitions, winners } from "./load-agent-definitions.js";

/**
 * A session's agents: read from their folders once, on first use (`system/init` waits for them),
 * with the host's definitions from `initialize` put over them when they arrive.
 */
export class AgentCatalog {
  private loading: Promise<{ definitions: AgentDefinition[]; problems: AgentProblem[] }> | undefined;
  private fromHost: readonly AgentDefinition[] = [];

  constructor(private readonly input: AgentSourcesInput) {}

  /** Every agent, sorted by name, after precedence; and what was wrong with the files (once read). */
  async load(): Promise<{ definitions: AgentDefinition[]; problems: AgentProblem[] }> {
    this.loading ??= loadAgentDefinitions(this.input);
    const loaded = await this.loading;
    return this.fromHost.length === 0 ? loaded : { ...loaded, definitions: winners([...this.fromHost, ...loaded.definitions]) };
  }

  /** The host's definitions (`initialize`'s `agents`, checked): over every other of the same name, an earlier host's included. */
  setHostAgents(definitions: readonly AgentDefinition[]): void {
    this.fromHost = definitions;
  }
}
