import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { SystemInitEvent } from "../../protocol/events.js";
import { PROTECTED_PROJECT_ENTRIES } from "../permissions/protected-paths.js";
import { apiKeySource, providerSettingsError } from "../providers/registry.js";
import type { AgentCatalog } from "../agents/agent-catalog.js";
import { discoverSkills, offersSkillTool, type SkillCatalog } from "../skills/catalog.js";
import { AGENT_TOOL_TRAITS, SKILL_TOOL_TRAITS } from "../tools/builtin-tool-traits.js";
import { sandboxProblem } from "../tools/sandbox/sandbox-probe.js";
import type { SandboxSettings } from "../tools/sandbox/sandbox-settings.js";
import type { ProjectTrust } from "../trust/project-trust.js";
import { buildInitEvent } from "./wire/init-event.js";
import { sessionProjectTrust, skillGrantPolicy, usesProjectSettings } from "./project-trust-policy.js";
import { openSession, type OpenedSession } from "./open-session.js";
import { SessionSettingsSchema, SessionSetupError, type CheckedSessionSettings, type SessionOptions } from "./session-options.js";
import { offersAgentTool } from "./subagent/subagent-limits.js";
import { chooseToolNames } from "./tool-selection.js";
import { sessionAgents } from "./session-agents.js";
import { PARSE_ONCE } from "../validation/parse-once.js";
import { NO_FILE_SETTINGS, type FileSettings } from "../settings/effective-settings.js";

/** What a session starts from, checked: the first half of `createSession`. */
export interface PreparedSession {
  options: SessionOptions;
  settings: CheckedSessionSettings;
  cwd: string;
  addDirs: string[];
  home: string;
  skills: SkillCatalog;
  /** The agent definitions the Agent tool can start (read on first use). */
  agents: AgentCatalog;
  /** The built-in tools (and the Skill tool) the session offers, as `chooseBuiltinTools` builds them. */
  toolNames: string[];
  opened: OpenedSession;
  /** Bash's sandbox, checked to work on this machine; undefined when it is off. */
  sandbox: SandboxSettings | undefined;
  /** Whether what the project brings is trusted (consulted as skills load). */
  projectTrust: ProjectTrust;
  /** The caller's environment with the settings files' `env` over it: the providers' and MCP servers'. */
  env: SessionOptions["env"];
  fileSettings: FileSettings;
}

/**
 * Validates the settings, checks the directories and the provider settings, finds the skills,
 * chooses the tools by name and opens (resumes or starts) the stored session: every check that can refuse a session, and
 * nothing that needs the tools', the loop's or a provider's code. The CLI announces the session
 * (`initEventBeforeSession`) between this and `createSession`, so a host sees `system/init`
 * before that code has loaded. Throws a `SessionSetupError`.
 */
export function prepareSession(options: SessionOptions): PreparedSession {
  const parsed = SessionSettingsSchema.safeParse(options, PARSE_ONCE);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SessionSetupError(
      `Invalid session option ${issue?.path.join(".") || "(options)"}: ${issue?.message ?? "invalid"}`,
      "invalid_arguments",
    );
  }
  const settings = parsed.data;
  const cwd = resolve(settings.cwd);
  const cwdProblem = notADirectory(cwd);
  if (cwdProblem) throw new SessionSetupError(`Working directory ${cwdProblem}: ${cwd}`, "invalid_arguments");
  const addDirs = settings.addDirs.map((directory) => resolve(cwd, directory));
  for (const directory of addDirs) {
    const problem = notADirectory(directory);
    if (problem) throw new SessionSetupError(`--add-dir directory ${problem}: ${directory}`, "invalid_arguments");
  }
  const home = options.home ?? (options.env.AGENTWIRE_HOME || join(homedir(), ".agentwire"));
  const sandbox = checkedSandbox(settings, cwd, home);
  const projectTrust = sessionProjectTrust(settings, home);
  const skills = discoverSkills({
    enabled: settings.skills,
    grantPolicy: skillGrantPolicy({ trust: projectTrust, projectSettings: usesProjectSettings(settings.settingSources) }),
    cwd,
    addDirs,
    skillsDirs: settings.skillsDirs.map((directory) => resolve(cwd, directory)),
    agentwireHome: home,
    userHome: options.env.HOME || homedir(),
  });
  const agents = sessionAgents({ settings, cwd, agentwireHome: home, userHome: options.env.HOME || homedir(), trust: projectTrust });
  const skillTool = skills.entries.length > 0 ? [{ name: "Skill", traits: SKILL_TOOL_TRAITS }] : [];
  const agentTool = offersAgentTool(settings) ? [{ name: "Agent", traits: AGENT_TOOL_TRAITS }] : [];
  const toolNames = chooseToolNames(settings, [...skillTool, ...agentTool]);
  const fileSettings = options.fileSettings ?? NO_FILE_SETTINGS;
  const env = Object.keys(fileSettings.env).length === 0 ? options.env : { ...options.env, ...fileSettings.env };
  const settingsError = options.providerInstance ? undefined : providerSettingsError(providerSettingsOf(settings, env));
  if (settingsError) throw new SessionSetupError(settingsError, "invalid_arguments");
  const opened = openSession({
    home,
    cwd,
    resume: settings.resume,
    continue: settings.continue,
    sessionId: settings.sessionId,
    persist: settings.persistSession,
    contextWindow: settings.contextWindow,
    fork: settings.forkSession,
  });
  return { options, settings, cwd, addDirs, home, skills, agents, toolNames, opened, sandbox, projectTrust, env, fileSettings };
}

/**
 * The sandbox the settings ask for, once bwrap has shown it can build one here: a session never
 * falls back to unconfined commands. Throws a `SessionSetupError` saying how to fix the machine.
 */
function checkedSandbox(settings: CheckedSessionSettings, cwd: string, home: string): SandboxSettings | undefined {
  if (settings.sandbox === "off") {
    // Loosening a sandbox that is not there would be a no-op the caller did not mean.
    if (settings.sandboxAllowWrite.length > 0 || settings.sandboxNetwork) {
      throw new SessionSetupError(
        "--sandbox-allow-write and --sandbox-network need --sandbox workspace-write or --sandbox read-only.",
        "invalid_arguments",
      );
    }
    return undefined;
  }
  const allowWrite = settings.sandboxAllowWrite.map((entry) => resolve(cwd, entry));
  // bwrap cannot bind a path that is not there, and every command would fail on it.
  const missing = allowWrite.find((entry) => !existsSync(entry));
  if (missing) throw new SessionSetupError(`--sandbox-allow-write path does not exist: ${missing}`, "invalid_arguments");
  const sandbox: SandboxSettings = {
    mode: settings.sandbox,
    allowWrite,
    network: settings.sandboxNetwork,
    protectedPaths: [home],
    protectedNames: PROTECTED_PROJECT_ENTRIES,
  };
  const problem = sandboxProblem(sandbox);
  if (problem) throw new SessionSetupError(problem, "invalid_arguments");
  return sandbox;
}

/** The provider-facing part of the settings, as `createProvider` and its checks take it. */
export function providerSettingsOf(settings: CheckedSessionSettings, env: SessionOptions["env"]) {
  return {
    provider: settings.provider,
    env,
    model: settings.model,
    ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
    ...(settings.openaiApi ? { openaiApi: settings.openaiApi } : {}),
    ...(settings.contextWindow ? { contextWindow: settings.contextWindow } : {}),
  };
}

/** The API key's origin as `system/init.apiKeySource` reports it. */
export function keySourceOf(prepared: PreparedSession): string {
  return prepared.options.providerInstance ? "none" : apiKeySource(prepared.settings.provider, prepared.env);
}

/**
 * The `system/init` the session built from `prepared` will report, from tool names and the
 * skills' frontmatter: the same tool choice (`chooseToolNames`) and the skills that load. For
 * sessions with the built-in tools (not `toolDefinitions`) and no MCP servers yet, which is
 * every CLI start (test/session/prepare-session.test.ts compares the two).
 */
export async function initEventBeforeSession(prepared: PreparedSession): Promise<SystemInitEvent> {
  const [{ skills }, { definitions }] = await Promise.all([prepared.skills.load(), prepared.agents.load()]);
  return buildInitEvent({
    cwd: prepared.cwd,
    sessionId: prepared.opened.sessionId,
    toolNames: offersSkillTool(skills) ? prepared.toolNames : prepared.toolNames.filter((name) => name !== "Skill"),
    mcpServers: prepared.settings.untrustedProjectMcpServers.map(untrustedServerStatus),
    model: prepared.settings.model,
    provider: prepared.settings.provider,
    permissionMode: prepared.settings.permissionMode,
    skills,
    agents: definitions,
    apiKeySource: keySourceOf(prepared),
  });
}

/** How a project server that was not started appears in `system/init` and `mcp_status`. */
export function untrustedServerStatus(name: string): { name: string; status: "needs-trust"; error: string } {
  return { name, status: "needs-trust", error: "not started: the project is not trusted (agentwire trust)" };
}

/** Why a path cannot be a working folder ("does not exist", "is a file, not a directory"), or undefined when it can. */
function notADirectory(path: string): string | undefined {
  try {
    const stats = statSync(path);
    return stats.isDirectory() ? undefined : stats.isFile() ? "is a file, not a directory" : "is not a directory";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : `cannot be used (${(error as Error).message})`;
  }
}
