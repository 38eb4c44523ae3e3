import type { AgentDefinition } from "./agent-definition.js";

/**
 * How agents are shown to the parent model and to hosts. Pure: the Agent tool puts the listing
 * where the model reads it; the session answers `initialize` with `agentInfo`.
 */

/** What a definition says about its tools, in a few words: `*`, the list, or all but some. */
export function toolsSummary(definition: Pick<AgentDefinition, "tools" | "disallowedTools">): string {
  const denied = definition.disallowedTools ?? [];
  if (definition.tools === undefined) return denied.length === 0 ? "*" : `all except ${denied.join(", ")}`;
  const tools = definition.tools.filter((tool) => !denied.includes(tool));
  return tools.length === 0 ? "none" : tools.join(", ");
}

/**
 * The agent types, one line each, as the parent model reads them before it calls the Agent tool
 * (Claude Code puts the same lines in its environment block): `- name: description (Tools: …)`.
 */
export function renderAgentListing(definitions: readonly AgentDefinition[]): string {
  if (definitions.length === 0) return "";
  const lines = definitions.map(
    (definition) => `- ${definition.name}: ${oneLine(definition.description)} (Tools: ${toolsSummary(definition)})`,
  );
  return [
    "Available agent types for the Agent tool:",
    ...lines,
    "",
    "Agents started in the same response run at the same time: put independent pieces of work in several Agent calls of one message.",
  ].join("\n");
}

/** An agent as the `initialize` answer lists it: Claude Code's `AgentInfo`. */
export function agentInfo(definition: AgentDefinition): { name: string; description: string; model?: string } {
  return {
    name: definition.name,
    description: definition.description,
    ...(definition.model !== undefined ? { model: definition.model } : {}),
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
