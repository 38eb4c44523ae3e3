import { randomUUID } from "../../text/random-uuid.js";
import type { SystemInitEvent } from "../../../protocol/events.js";
import type { Skill } from "../../skills/catalog.js";
import { CLAUDE_CODE_VERSION, PROTOCOL_VERSION } from "../../../protocol/version.js";
import { AGENTWIRE_VERSION } from "../../version.js";

export interface SessionFacts {
  cwd: string;
  sessionId: string;
  toolNames: string[];
  mcpServers: Array<{ name: string; status: string; error?: string }>;
  model: string;
  provider: string;
  permissionMode: SystemInitEvent["permissionMode"];
  /** The skills that loaded (a skipped folder has no `modelInvocable`, so it cannot be passed here). */
  skills: ReadonlyArray<Pick<Skill, "name" | "modelInvocable">>;
  /** The agent definitions, sorted by name. */
  agents: ReadonlyArray<{ name: string }>;
  apiKeySource: string;
}

/** `system/init` in Claude Code's shape: one builder for the session and the CLI's early announcement. */
export function buildInitEvent(facts: SessionFacts): SystemInitEvent {
  return {
    type: "system",
    subtype: "init",
    cwd: facts.cwd,
    session_id: facts.sessionId,
    // Claude Code lists its Agent tool under the tool's older name.
    tools: facts.toolNames.map((name) => (name === "Agent" ? "Task" : name)),
    mcp_servers: facts.mcpServers,
    model: facts.model,
    provider: facts.provider,
    permissionMode: facts.permissionMode,
    slash_commands: facts.skills.map((skill) => skill.name),
    apiKeySource: facts.apiKeySource,
    output_style: "default",
    agents: facts.agents.map((agent) => agent.name),
    skills: facts.skills.map((skill) => skill.name),
    plugins: [],
    claude_code_version: CLAUDE_CODE_VERSION,
    protocol_version: PROTOCOL_VERSION,
    agentwire_version: AGENTWIRE_VERSION,
    uuid: randomUUID(),
  };
}
