import { AgentCatalog } from "../agents/agent-catalog.js";
import { AgentDefinitionError, parseAgentRecord } from "../agents/agent-definition.js";
import { fileFingerprint } from "../trust/fingerprint.js";
import { type ProjectTrust, trustRootOf } from "../trust/project-trust.js";
import { usesProjectSettings } from "./project-trust-policy.js";
import { type CheckedSessionSettings, SessionSetupError } from "./session-options.js";

/**
 * The session's agent definitions: the built-ins, the user's and the trusted project's files,
 * `--agents` and the SDK's `agents`. The ones given as data are checked here, so a bad one
 * refuses the session (`invalid_arguments`) before anything starts; files are read on first use.
 */
export function sessionAgents(input: {
  settings: Pick<CheckedSessionSettings, "agents" | "cliAgents" | "settingSources">;
  cwd: string;
  agentwireHome: string;
  userHome: string;
  trust: ProjectTrust;
}): AgentCatalog {
  const { settings, cwd } = input;
  const root = trustRootOf(cwd);
  return new AgentCatalog({
    cwd,
    project: usesProjectSettings(settings.settingSources)
      ? { root, trusted: (file) => input.trust.trusts(root, file, () => fileFingerprint(file)) }
      : undefined,
    home: input.userHome,
    agentwireHome: input.agentwireHome,
    cliAgents: checked(settings.cliAgents, "cli", "--agents"),
    sdkAgents: checked(settings.agents, "sdk", "agents"),
  });
}

function checked(record: unknown, source: "cli" | "sdk", origin: string) {
  if (record === undefined) return [];
  try {
    return parseAgentRecord(record, source, origin);
  } catch (error) {
    if (error instanceof AgentDefinitionError) throw new SessionSetupError(error.message, "invalid_arguments");
    throw error;
  }
}
