import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type * as z from "zod/mini";
import { RunConfigSchema } from "./config.js";
import { numberFrom, parseSettingSources, readAgentsFlag, readJsonSchema } from "./flag-values.js";
import { helpText } from "./help-text.js";
import { gatherMcpServers } from "./mcp-sources.js";
import { ACCEPTED_BUT_IGNORED } from "./option-tables.js";
import type { ParsedCommand, PromptSources } from "./parsed-command.js";
import { chooseModel } from "../providers/model-choice.js";
import { sessionProjectTrust, usesProjectSettings } from "../session/project-trust-policy.js";
import type { SettingSource } from "../session/session-options.js";
import { flagsOverSettings, type FileSettings } from "../settings/effective-settings.js";
import { loadSettings } from "../settings/load-settings.js";
import { projectSettingsFiles } from "../settings/settings-files.js";
import type { PermissionModeName } from "../settings/settings-document.js";
import { agentwireHome } from "../sessions/session-file.js";
import type { ProjectTrust } from "../trust/project-trust.js";
import { parseToolNames } from "../tools/select-tools.js";
import { PARSE_ONCE } from "../validation/parse-once.js";

type Flags = Record<string, unknown>;

/** The command line of a run (or of a listing that needs a run's settings), its flags read and checked. */
export interface RunArguments {
  parsed: Flags;
  isStart: boolean;
  inputFormat: string;
  outputFormat: string;
  promptText: string;
  /** Prompts given as `--print=…` or as `-p "-…"`. */
  printValues: string[];
}

/** The settings files, the model and the MCP servers joined with the flags into one RunConfig. */
export async function buildRunCommand(run: RunArguments, processCwd: string, env: NodeJS.ProcessEnv): Promise<ParsedCommand> {
  const { parsed } = run;
  const settings = await readSettings(parsed, processCwd, env);
  if ("error" in settings) return { kind: "error", message: settings.error };
  const { fileSettings, runEnv } = settings;
  const flags = flagsOverSettings(
    {
      model: typeof parsed.model === "string" && parsed.model !== "" ? parsed.model : undefined,
      permissionMode:
        parsed["dangerously-skip-permissions"] === true
          ? "bypassPermissions"
          : (parsed["permission-mode"] as PermissionModeName | undefined),
      allowedTools: (parsed.allowedTools ?? []) as string[],
      disallowedTools: (parsed.disallowedTools ?? []) as string[],
      // Relative --add-dir paths are relative to where agentwire was started, like --cwd.
      addDirs: ((parsed["add-dir"] ?? []) as string[]).map((directory) => resolve(processCwd, directory)),
    },
    fileSettings,
  );

  const choice = chooseModel({
    model: flags.model,
    provider: typeof parsed.provider === "string" ? parsed.provider : undefined,
    env: runEnv,
  });
  if ("error" in choice) return { kind: "error", message: choice.error };
  const outputSchema = typeof parsed["json-schema"] === "string" ? readJsonSchema(parsed["json-schema"], processCwd) : undefined;
  if (outputSchema && "error" in outputSchema) return { kind: "error", message: outputSchema.error };
  const agents = typeof parsed.agents === "string" ? readAgentsFlag(parsed.agents) : undefined;
  if (agents && "error" in agents) return { kind: "error", message: agents.error };
  const approvalTimeout = parsed["approval-timeout"] as number;
  if (!(approvalTimeout > 0))
    return {
      kind: "error",
      message: "--approval-timeout must be a positive number of seconds (a question nobody answers is then denied).",
    };
  const mcp = gatherMcpServers({
    values: (parsed["mcp-config"] ?? []) as string[],
    project: {
      read: parsed["strict-mcp-config"] !== true && usesProjectSettings(settings.sources),
      trust: settings.trust,
    },
    cwd: resolve(processCwd, settings.cwd),
    processCwd,
    env: runEnv,
  });
  if ("error" in mcp) return { kind: "error", message: mcp.error };
  const candidate = {
    ...configFromFlags(parsed, processCwd, env),
    outputFormat: run.outputFormat,
    inputFormat: run.inputFormat,
    provider: choice.provider,
    model: choice.model,
    cwd: settings.cwd,
    permissionMode: flags.permissionMode,
    allowedTools: flags.allowedTools,
    disallowedTools: flags.disallowedTools,
    addDirs: flags.addDirs,
    outputSchema: outputSchema?.schema,
    cliAgents: agents?.agents,
    mcpServers: mcp.servers,
    untrustedProjectMcpServers: mcp.untrustedProjectServers,
    hostMcpServers: mcp.hostServers,
    projectSdkMcpServers: mcp.projectSdkServers,
    settingSources: settings.sources,
    // Node timers hold at most 2^31-1 ms (~24.8 days); a longer wait would fire at once.
    approvalTimeoutMs: Math.min(2_147_483_647, Math.max(1, Math.round(approvalTimeout * 1000))),
  };
  const config = RunConfigSchema.safeParse(candidate, PARSE_ONCE);
  if (!config.success) return { kind: "error", message: formatIssues(config.error) };
  return commandFor(run, config.data, fileSettings);
}

/** What the run does with its configuration: list something and exit, or run. */
async function commandFor(run: RunArguments, config: z.infer<typeof RunConfigSchema>, fileSettings: FileSettings): Promise<ParsedCommand> {
  const { parsed } = run;
  if (parsed["list-tools"]) return { kind: "list-tools", config };
  if (parsed["list-skills"]) return { kind: "list-skills", config };
  if (parsed["list-agents"]) return { kind: "list-agents", config };
  if (parsed["llms-txt"]) return { kind: "llms-txt", config, helpText: await helpText(false) };
  const ignoredFlags = Object.keys(ACCEPTED_BUT_IGNORED).filter((name) => parsed[name] !== undefined);
  return {
    kind: "run",
    config,
    fileSettings,
    ...(run.promptText ? { prompt: run.promptText } : {}),
    promptFiles: pickDefined({
      systemPrompt: parsed["system-prompt"],
      systemPromptFile: parsed["system-prompt-file"],
      appendSystemPrompt: parsed["append-system-prompt"],
      appendSystemPromptFile: parsed["append-system-prompt-file"],
    }),
    ignoredFlags,
    isStart: run.isStart,
    // -p/--print was given (with or without a prompt): a headless run even at a terminal.
    printFlag: parsed.print === true || run.printValues.length > 0,
  };
}

interface SettingsRead {
  fileSettings: FileSettings;
  runEnv: NodeJS.ProcessEnv;
  cwd: string;
  sources: SettingSource[] | undefined;
  trust: ProjectTrust;
}

/** The settings files the flags ask for (`--setting-sources`, `--settings`), read with the project's trust. */
async function readSettings(parsed: Flags, processCwd: string, env: NodeJS.ProcessEnv): Promise<SettingsRead | { error: string }> {
  const cwd = typeof parsed.cwd === "string" ? parsed.cwd : processCwd;
  const settingSources = parseSettingSources(parsed["setting-sources"]);
  if ("error" in settingSources) return settingSources;
  const trust = sessionProjectTrust({ trustProject: parsed["trust-project"] === true }, agentwireHome(env));
  const projectFiles = projectSettingsFiles(resolve(processCwd, cwd));
  // The shell grammar that reads hook commands loads only when there is a project file to check.
  const settingsFingerprint =
    existsSync(projectFiles.project) || existsSync(projectFiles.local)
      ? (await import("../trust/settings-fingerprint.js")).settingsFingerprint
      : undefined;
  const loaded = loadSettings({
    settingsFingerprint,
    flag: typeof parsed.settings === "string" ? parsed.settings : undefined,
    sources: settingSources.sources,
    cwd: resolve(processCwd, cwd),
    processCwd,
    env,
    agentwireHome: agentwireHome(env),
    trust,
  });
  if ("error" in loaded) return loaded;
  const fileSettings = loaded.settings;
  // The settings' env counts from here on: it may hold the key or endpoint that picks the provider.
  const runEnv = Object.keys(fileSettings.env).length === 0 ? env : { ...env, ...fileSettings.env };
  return { fileSettings, runEnv, cwd, sources: settingSources.sources, trust };
}

/** The RunConfig fields that come from a flag alone, named as the schema names them. */
function configFromFlags(parsed: Flags, processCwd: string, env: NodeJS.ProcessEnv) {
  return {
    baseUrl: parsed["base-url"],
    openaiApi: parsed["openai-api"],
    contextWindow: parsed["context-window"],
    maxTurns: parsed["max-turns"],
    maxBudgetUsd: parsed["max-budget-usd"],
    maxThinkingTokens: parsed["max-thinking-tokens"],
    includePartialMessages: parsed["include-partial-messages"],
    resume: parsed.resume,
    continue: parsed.continue,
    forkSession: parsed["fork-session"],
    // Empty, as Claude Code takes it: no id given.
    sessionId: parsed["session-id"] === "" ? undefined : parsed["session-id"],
    persistSession: parsed["session-persistence"],
    permissionPromptTool: parsed["permission-prompt-tool"],
    tools: Array.isArray(parsed.tools) ? parseToolNames(parsed.tools as string[]) : undefined,
    sandbox: parsed.sandbox,
    // Relative like --add-dir: to where agentwire was started.
    sandboxAllowWrite: ((parsed["sandbox-allow-write"] ?? []) as string[]).map((entry) => resolve(processCwd, entry)),
    sandboxNetwork: parsed["sandbox-network"],
    passEnv: parsed["pass-env"] ?? [],
    debug: parsed.debug,
    skills: parsed.skills,
    memoryFiles: parsed["memory-files"],
    autoCompact: parsed["auto-compact"],
    autoCompactPercent: parsed["auto-compact-threshold"] ?? numberFrom(env.AGENTWIRE_AUTOCOMPACT_PCT),
    skillsDirs: ((parsed["skills-dir"] ?? []) as string[]).map((directory) => resolve(processCwd, directory)),
    skillRanking: parsed["skill-ranking"],
    skillListingBudget: parsed["skill-listing-budget"],
    toolProfile: parsed["tool-profile"],
    defaultSkills: parsed["default-skills"],
    verbose: parsed.verbose,
    outputLastMessage: typeof parsed["output-last-message"] === "string" ? resolve(processCwd, parsed["output-last-message"]) : undefined,
    eventDialect: parsed["event-dialect"],
    trustProject: parsed["trust-project"] === true,
    settings: typeof parsed.settings === "string" ? parsed.settings : undefined,
  };
}

function formatIssues(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) => `--${issue.path.join(".").replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}: ${issue.message}`)
    .join("\n");
}

function pickDefined(values: Record<string, unknown>): PromptSources {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => typeof value === "string")) as PromptSources;
}
