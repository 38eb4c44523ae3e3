import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type * as z from "zod/mini";
import { describeFlagError, parseFlags, type FlagOptions } from "./flag-parser.js";
import { gatherMcpServers } from "./mcp-sources.js";
import { DEFAULT_APPROVAL_TIMEOUT_SECONDS, EventDialectSchema, InputFormatSchema, OutputFormatSchema, PermissionModeSchema, RunConfigSchema, type OutputFormat, type RunConfig } from "./config.js";
import { chooseModel } from "../providers/model-choice.js";
import { sessionProjectTrust, usesProjectSettings } from "../session/project-trust-policy.js";
import { SETTING_SOURCES, type SettingSource } from "../session/session-options.js";
import { flagsOverSettings, type FileSettings } from "../settings/effective-settings.js";
import { loadSettings } from "../settings/load-settings.js";
import { projectSettingsFiles } from "../settings/settings-files.js";
import type { PermissionModeName } from "../settings/settings-document.js";
import { agentwireHome } from "../sessions/session-file.js";
import { PROVIDER_IDS, type ProviderId } from "../providers/registry.js";
import { SANDBOX_MODES } from "../tools/sandbox/sandbox-settings.js";
import { parseToolNames } from "../tools/select-tools.js";
import { PARSE_ONCE } from "../validation/parse-once.js";

/** What the command line asks for. */
export type ParsedCommand =
  | { kind: "help"; text: string }
  | { kind: "version" }
  | { kind: "run"; config: RunConfig; fileSettings: FileSettings; prompt?: string; promptFiles: PromptSources; ignoredFlags: string[]; isStart: boolean; printFlag: boolean }
  | { kind: "list-tools"; config: RunConfig }
  | { kind: "list-skills"; config: RunConfig }
  | { kind: "llms-txt"; config: RunConfig; helpText: string }
  | { kind: "list-models"; outputFormat: OutputFormat; provider?: ProviderId; baseUrl?: string }
  | { kind: "mock-server"; port: number; scenario: string; host: string; record?: string }
  | { kind: "error"; message: string };

export interface PromptSources {
  systemPrompt?: string;
  systemPromptFile?: string;
  appendSystemPrompt?: string;
  appendSystemPromptFile?: string;
}

const RUN_OPTIONS = {
  // A flag, as Claude Code's -p: the word after it is the prompt only because it is the positional.
  print: { alias: "p", type: "boolean", nargs: 0, default: false, description: "Run headless and print the response (the prompt is the argument, or stdin)" },
  "output-format": { type: "string", choices: OutputFormatSchema.options, default: "text", description: "Output format" },
  "input-format": { type: "string", choices: InputFormatSchema.options, default: "text", description: "Input format (stream-json: one command per stdin line)" },
  verbose: { type: "boolean", default: false, description: "Text output: show the run's progress on stderr (on by default when stderr is a terminal); stream-json output is always complete" },
  "output-last-message": { type: "string", description: "Also write the final answer to this file" },
  "event-dialect": { type: "string", choices: EventDialectSchema.options, default: "claude", description: "stream-json events: Claude Code's (claude), or the seed design's flat list (flat; protocol/README-flat.md)" },
  "approval-timeout": { type: "number", default: DEFAULT_APPROVAL_TIMEOUT_SECONDS, description: "Seconds an approval question waits for the host's answer before the call is denied" },
  model: { type: "string", description: "Model id or alias (opus, sonnet, haiku)" },
  provider: { type: "string", choices: [...PROVIDER_IDS], description: "Model provider (default: inferred from --model, else from the API key that is set)" },
  "base-url": { type: "string", description: "Endpoint of the model API (OpenAI-compatible servers: http://host:port/v1)" },
  "openai-api": { type: "string", choices: ["chat", "responses"], description: "OpenAI wire API (default: responses for OpenAI reasoning models, else chat)" },
  "context-window": { type: "number", description: "Context window of the model in tokens (for local models)" },
  "system-prompt": { type: "string", description: "Replace the default system prompt" },
  "system-prompt-file": { type: "string", description: "Read the system prompt from a file" },
  "append-system-prompt": { type: "string", description: "Append to the default system prompt" },
  "append-system-prompt-file": { type: "string", description: "Append the contents of a file to the system prompt" },
  "max-turns": { type: "number", description: "Maximum model requests per user turn (default 200)" },
  "max-budget-usd": { type: "number", description: "Stop once this run's model requests have cost this many US dollars (result subtype error_max_budget_usd)" },
  "max-thinking-tokens": { type: "number", description: "Enable extended thinking with this token budget" },
  cwd: { type: "string", description: "Working directory for tools and sessions (default: current directory)" },
  "include-partial-messages": { type: "boolean", default: false, description: "Emit stream_event lines with raw streaming deltas" },
  resume: { alias: "r", type: "string", description: "Resume a session by id" },
  continue: { alias: "c", type: "boolean", default: false, description: "Continue the most recent session in this directory" },
  "session-id": { type: "string", description: "Use this UUID for a new session" },
  "fork-session": { type: "boolean", default: false, description: "With --resume or --continue: continue in a new session that starts as a copy (the original is left as it was)" },
  "session-persistence": { type: "boolean", default: true, description: "Write the session to disk (--no-session-persistence to disable)" },
  "permission-mode": {
    type: "string",
    choices: PermissionModeSchema.options,
    description: "Permission mode (default: the settings files' permissions.defaultMode, else default)",
  },
  "dangerously-skip-permissions": { type: "boolean", default: false, description: "Run every tool without asking" },
  // Claude Code's list flags take every word up to the next flag: put the prompt before them, or after --.
  allowedTools: { type: "string", array: true, variadic: true, description: 'Permission rules for calls that run without asking, e.g. "Read" "Bash(npm run:*)"' },
  disallowedTools: { type: "string", array: true, variadic: true, description: "Permission rules for calls that are always refused" },
  "permission-prompt-tool": { type: "string", description: "stdio: ask the host with can_use_tool control requests (Claude Agent SDK)" },
  tools: { type: "string", array: true, variadic: true, description: 'Tools the model may use: "Bash,Read", "default" (all), or "" (none)' },
  "add-dir": { type: "string", array: true, variadic: true, description: "More directories tools may use besides the working directory" },
  "mcp-config": { type: "string", array: true, variadic: true, description: 'MCP servers: a JSON file or JSON text {"mcpServers": {...}} in Claude Code\'s format (repeatable); the project\'s .mcp.json is read too' },
  "strict-mcp-config": { type: "boolean", default: false, description: "Use only the servers of --mcp-config, not the project's .mcp.json" },
  "trust-project": {
    type: "boolean",
    default: false,
    description: "Trust what this project brings (its .mcp.json servers, its skills' allowed-tools) for this run only, without agentwire trust (for CI checkouts)",
  },
  "setting-sources": { type: "string", description: "Comma-separated setting sources to read (user, project, local); without project, nothing the project brings takes effect" },
  settings: { type: "string", description: "More settings, over the settings files (~/.claude/settings.json, .claude/settings.json, …): a settings.json file or its JSON text" },
  sandbox: {
    type: "string",
    choices: [...SANDBOX_MODES],
    default: "off",
    description: "Run Bash commands under bubblewrap: workspace-write (writes only in the working directories and a private TMPDIR, no network) or read-only (no writes but TMPDIR); off runs them unconfined",
  },
  "sandbox-allow-write": { type: "string", array: true, description: "With --sandbox: another path sandboxed commands may write (repeatable)" },
  "sandbox-network": { type: "boolean", default: false, description: "With --sandbox: let sandboxed commands use the network" },
  "pass-env": { type: "string", array: true, description: "Hand this credential variable (an API key, token or password) to Bash commands and MCP servers, which otherwise never see one (repeatable)" },
  "list-tools": { type: "boolean", default: false, description: "Print each tool's name and description (JSON schemas with --output-format json), then exit" },
  "list-models": { type: "boolean", default: false, description: "Print the models of each provider (live where a key is set), then exit; --provider picks one" },
  "auto-compact": { type: "boolean", default: true, description: "Compact the conversation when it nears the model's context window, or overflows it (--no-auto-compact: only /compact does)" },
  "auto-compact-threshold": { type: "number", description: "Compact at this percentage of the context window (default: the window minus the output reserve and a safety margin; env AGENTWIRE_AUTOCOMPACT_PCT)" },
  "memory-files": { type: "boolean", default: true, description: "Add AGENTS.md and CLAUDE.md (repository root to cwd, and $AGENTWIRE_HOME/AGENTS.md) to the context (--no-memory-files to turn off)" },
  skills: { type: "boolean", default: true, description: "Discover SKILL.md skills (--no-skills to turn off)" },
  "skills-dir": { type: "string", array: true, description: "Another folder of skills, after the project's and before the user's (repeatable)" },
  "default-skills": { type: "boolean", default: true, description: "Install the bundled skills into $AGENTWIRE_HOME/skills on first run (--no-default-skills to skip)" },
  "skill-ranking": { type: "string", choices: ["bm25", "llm"], default: "bm25", description: "How skills are ranked against the prompt when their listing does not fit (llm: the model re-ranks the top 20)" },
  "skill-listing-budget": { type: "number", description: "Characters for the skill listing (default: 1% of the model's context window x 4)" },
  "json-schema": { type: "string", description: "Answer with JSON valid against this JSON Schema (inline JSON or a file): in the result's structured_output" },
  "tool-profile": { type: "string", choices: ["default", "compact"], default: "default", description: "compact: Bash, Read, Write and Skill with short definitions, for small local models" },
  "list-skills": { type: "boolean", default: false, description: "Print the skills this run would use (JSON with --output-format json), then exit" },
  "llms-txt": { type: "boolean", default: false, description: "Print agentwire's full documentation for LLMs as one markdown document, then exit" },
  debug: { type: "boolean", default: false, description: "Debug logging on stderr" },
  help: { alias: "h", type: "boolean", default: false, description: "Show help" },
  version: { alias: "v", type: "boolean", default: false, description: "Show version" },
} as const satisfies Record<string, FlagOptions>;

/** `start` is a stream-json session both ways, whatever the defaults of a `-p` run are. */
const START_OPTIONS = {
  ...RUN_OPTIONS,
  "output-format": { ...RUN_OPTIONS["output-format"], default: "stream-json", description: "Output format (start always speaks stream-json)" },
  "input-format": { ...RUN_OPTIONS["input-format"], default: "stream-json", description: "Input format (start always reads stream-json commands)" },
} as const satisfies Record<string, FlagOptions>;

/**
 * Flags Claude Code hosts (the Agent SDK, GUIs) pass that agentwire accepts without acting on
 * them yet. Refusing them would break those hosts, so each is noted on stderr instead.
 */
const ACCEPTED_BUT_IGNORED: Record<string, FlagOptions> = {
  "fallback-model": { type: "string" },
  "task-budget": { type: "number" },
  thinking: { type: "string" },
  "thinking-display": { type: "string" },
  effort: { type: "string" },
  agent: { type: "string" },
  betas: { type: "string", array: true, variadic: true },
  "permission-prompts": { type: "string" },
  "allow-dangerously-skip-permissions": { type: "boolean" },
  "resume-session-at": { type: "string" },
  "resume-drops-turn": { type: "string" },
  workload: { type: "string" },
  "project-config-root": { type: "string" },
  "plugin-dir": { type: "string", array: true },
  "plugin-dir-no-mcp": { type: "string", array: true },
  channels: { type: "string", array: true },
  "session-mirror": { type: "boolean" },
  "debug-file": { type: "string" },
  "await-initialize": { type: "boolean" },
  "initialize-fields": { type: "string" },
  "include-hook-events": { type: "boolean" },
  "replay-user-messages": { type: "boolean" },
  "managed-settings": { type: "string" },
  "managed-settings-in-initialize": { type: "boolean" },
};

/** `agentwire start --help`: the approval frames a host must answer, so it never stalls on one. */
const START_EPILOGUE = [
  "Approvals: a tool call that needs permission prints one stdout line and waits",
  "for the answer on stdin (ID is the call's tool_use id):",
  '  stdout {"type":"system","subtype":"permission_request","id":ID,',
  '          "tool_name":"Write","input":{…},"reason":"…",…}',
  '  stdin  {"type":"tool_approval","id":ID,"approved":true}',
  '     or  {"type":"tool_approval","id":ID,"approved":false,"message":"why"}',
  '  ("updated_input":{…} with approved:true runs the call with that input).',
  `Unanswered after --approval-timeout seconds (default ${DEFAULT_APPROVAL_TIMEOUT_SECONDS}), a question is denied`,
  "with that reason, as are open questions when stdin closes or the turn is",
  "interrupted; system/permission_denied and an error tool_result follow.",
  "--permission-mode acceptEdits|bypassPermissions and --allowedTools ask less.",
  "--event-dialect flat: simpler events, described in protocol/README-flat.md.",
].join("\n");

const MOCK_SERVER_OPTIONS = {
  port: { type: "number", default: 0, description: "Port to listen on (0 = any free port)" },
  host: { type: "string", default: "127.0.0.1", description: "Loopback address to bind" },
  scenario: { type: "string", demandOption: true, description: "Scenario file (see fixtures/README.md)" },
  record: { type: "string", description: "Append every received request to this JSONL file" },
  help: { alias: "h", type: "boolean", default: false },
} as const satisfies Record<string, FlagOptions>;

/** `env` is read only to choose a provider from the API keys that are set. */
export async function parseArguments(argv: string[], processCwd: string, env: NodeJS.ProcessEnv): Promise<ParsedCommand> {
  const [first, ...rest] = argv;
  if (first === "mock-server") return parseMockServer(rest);
  // `agentwire help [start|mock-server]`, as git and npm have it, rather than a prompt "help".
  if (first === "help") return parseArguments([...rest.slice(0, 1), "--help"], processCwd, env);
  const isStart = first === "start";
  const table = { ...(isStart ? START_OPTIONS : RUN_OPTIONS), ...ACCEPTED_BUT_IGNORED };
  let parsed: Record<string, unknown>;
  const printValues: string[] = [];
  try {
    parsed = parseFlags(withoutPrintValues(isStart ? rest : argv, printValues), table).values;
  } catch (error) {
    return { kind: "error", message: describeParseError(error) };
  }
  if (parsed.help) return { kind: "help", text: await helpText(isStart) };
  if (parsed.version) return { kind: "version" };

  const positionals = (parsed._ as Array<string | number>).map(String);
  const promptText = [...printValues, ...positionals].filter((part) => part !== "").join(" ");
  const inputFormat = isStart ? "stream-json" : (parsed["input-format"] as string);
  const outputFormat = isStart ? "stream-json" : (parsed["output-format"] as string);

  const combinationError = checkCombinations({ parsed, inputFormat, outputFormat, promptText });
  if (combinationError) return { kind: "error", message: combinationError };
  // Before the model is settled: listing needs none, even for local servers.
  if (parsed["list-models"]) return listModelsCommand(parsed, outputFormat as OutputFormat);

  const skipPermissions = parsed["dangerously-skip-permissions"] === true;
  const cwd = typeof parsed.cwd === "string" ? parsed.cwd : processCwd;
  const settingSources = parseSettingSources(parsed["setting-sources"]);
  if ("error" in settingSources) return { kind: "error", message: settingSources.error };
  const trustProject = parsed["trust-project"] === true;
  const trust = sessionProjectTrust({ trustProject }, agentwireHome(env));
  const projectFiles = projectSettingsFiles(resolve(processCwd, cwd));
  // The shell grammar that reads hook commands loads only when there is a project file to check.
  const settingsFingerprint = existsSync(projectFiles.project) || existsSync(projectFiles.local) ? (await import("../trust/settings-fingerprint.js")).settingsFingerprint : undefined;
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
  if ("error" in loaded) return { kind: "error", message: loaded.error };
  const fileSettings = loaded.settings;
  // The settings' env counts from here on: it may hold the key or endpoint that picks the provider.
  const runEnv = Object.keys(fileSettings.env).length === 0 ? env : { ...env, ...fileSettings.env };
  const flags = flagsOverSettings(
    {
      model: typeof parsed.model === "string" && parsed.model !== "" ? parsed.model : undefined,
      permissionMode: skipPermissions ? "bypassPermissions" : (parsed["permission-mode"] as PermissionModeName | undefined),
      allowedTools: (parsed.allowedTools ?? []) as string[],
      disallowedTools: (parsed.disallowedTools ?? []) as string[],
      // Relative --add-dir paths are relative to where agentwire was started, like --cwd.
      addDirs: ((parsed["add-dir"] ?? []) as string[]).map((directory) => resolve(processCwd, directory)),
    },
    fileSettings,
  );

  const choice = chooseModel({ model: flags.model, provider: typeof parsed.provider === "string" ? parsed.provider : undefined, env: runEnv });
  if ("error" in choice) return { kind: "error", message: choice.error };
  const { provider, model } = choice;

  const outputSchema = typeof parsed["json-schema"] === "string" ? readJsonSchema(parsed["json-schema"], processCwd) : undefined;
  if (outputSchema && "error" in outputSchema) return { kind: "error", message: outputSchema.error };
  const approvalTimeout = parsed["approval-timeout"] as number;
  if (!(approvalTimeout > 0)) return { kind: "error", message: "--approval-timeout must be a positive number of seconds (a question nobody answers is then denied)." };
  const mcp = gatherMcpServers({
    values: (parsed["mcp-config"] ?? []) as string[],
    project: {
      read: parsed["strict-mcp-config"] !== true && usesProjectSettings(settingSources.sources),
      trust,
    },
    cwd: resolve(processCwd, cwd),
    processCwd,
    env: runEnv,
  });
  if ("error" in mcp) return { kind: "error", message: mcp.error };
  const candidate = {
    outputFormat,
    inputFormat,
    provider,
    model,
    baseUrl: parsed["base-url"],
    openaiApi: parsed["openai-api"],
    contextWindow: parsed["context-window"],
    maxTurns: parsed["max-turns"],
    maxBudgetUsd: parsed["max-budget-usd"],
    maxThinkingTokens: parsed["max-thinking-tokens"],
    cwd,
    includePartialMessages: parsed["include-partial-messages"],
    resume: parsed.resume,
    continue: parsed.continue,
    forkSession: parsed["fork-session"],
    // Empty, as Claude Code takes it: no id given.
    sessionId: parsed["session-id"] === "" ? undefined : parsed["session-id"],
    persistSession: parsed["session-persistence"],
    permissionMode: flags.permissionMode,
    allowedTools: flags.allowedTools,
    disallowedTools: flags.disallowedTools,
    permissionPromptTool: parsed["permission-prompt-tool"],
    tools: Array.isArray(parsed.tools) ? parseToolNames(parsed.tools as string[]) : undefined,
    addDirs: flags.addDirs,
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
    outputSchema: outputSchema?.schema,
    verbose: parsed.verbose,
    outputLastMessage: typeof parsed["output-last-message"] === "string" ? resolve(processCwd, parsed["output-last-message"]) : undefined,
    eventDialect: parsed["event-dialect"],
    mcpServers: mcp.servers,
    untrustedProjectMcpServers: mcp.untrustedProjectServers,
    hostMcpServers: mcp.hostServers,
    projectSdkMcpServers: mcp.projectSdkServers,
    trustProject,
    settingSources: settingSources.sources,
    settings: typeof parsed.settings === "string" ? parsed.settings : undefined,
    // Node timers hold at most 2^31-1 ms (~24.8 days); a longer wait would fire at once.
    approvalTimeoutMs: Math.min(2_147_483_647, Math.max(1, Math.round(approvalTimeout * 1000))),
  };
  const config = RunConfigSchema.safeParse(candidate, PARSE_ONCE);
  if (!config.success) return { kind: "error", message: formatIssues(config.error) };

  if (parsed["list-tools"]) return { kind: "list-tools", config: config.data };
  if (parsed["list-skills"]) return { kind: "list-skills", config: config.data };
  if (parsed["llms-txt"]) return { kind: "llms-txt", config: config.data, helpText: await helpText(false) };
  const ignoredFlags = Object.keys(ACCEPTED_BUT_IGNORED).filter((name) => parsed[name] !== undefined);
  return {
    kind: "run",
    config: config.data,
    fileSettings,
    ...(promptText ? { prompt: promptText } : {}),
    promptFiles: pickDefined({
      systemPrompt: parsed["system-prompt"],
      systemPromptFile: parsed["system-prompt-file"],
      appendSystemPrompt: parsed["append-system-prompt"],
      appendSystemPromptFile: parsed["append-system-prompt-file"],
    }),
    ignoredFlags,
    isStart,
    // -p/--print was given (with or without a prompt): a headless run even at a terminal.
    printFlag: parsed.print === true || printValues.length > 0,
  };
}

function listModelsCommand(parsed: Record<string, unknown>, outputFormat: OutputFormat): ParsedCommand {
  const baseUrl = RunConfigSchema.shape.baseUrl.safeParse(parsed["base-url"]);
  if (!baseUrl.success) return { kind: "error", message: `--base-url: ${baseUrl.error.issues[0]?.message ?? "invalid URL"}` };
  return {
    kind: "list-models",
    outputFormat,
    // yargs has checked --provider against PROVIDER_IDS.
    ...(typeof parsed.provider === "string" ? { provider: parsed.provider as ProviderId } : {}),
    ...(baseUrl.data ? { baseUrl: baseUrl.data } : {}),
  };
}

function checkCombinations(input: { parsed: Record<string, unknown>; inputFormat: string; outputFormat: string; promptText: string }): string | undefined {
  const { parsed, inputFormat, outputFormat, promptText } = input;
  if (inputFormat === "stream-json" && outputFormat !== "stream-json") {
    return "--input-format=stream-json requires --output-format=stream-json.";
  }
  if (inputFormat === "stream-json" && promptText) {
    return "A prompt argument cannot be combined with --input-format=stream-json; send it as a user message on stdin.";
  }
  if (parsed["include-partial-messages"] && outputFormat !== "stream-json") {
    return "--include-partial-messages requires --output-format=stream-json.";
  }
  if (parsed["event-dialect"] === "flat" && outputFormat !== "stream-json") return "--event-dialect flat requires --output-format=stream-json.";
  if (parsed.resume !== undefined && parsed.continue) return "--resume and --continue cannot be used together.";
  if (parsed["session-id"] && (parsed.resume !== undefined || parsed.continue)) {
    return "--session-id cannot be combined with --resume or --continue.";
  }
  if (parsed["system-prompt"] !== undefined && parsed["system-prompt-file"] !== undefined) {
    return "--system-prompt and --system-prompt-file cannot be used together.";
  }
  if (parsed["append-system-prompt"] !== undefined && parsed["append-system-prompt-file"] !== undefined) {
    return "--append-system-prompt and --append-system-prompt-file cannot be used together.";
  }
  if (parsed.resume === "") return "--resume needs a session id.";
  if (parsed["fork-session"] && parsed.resume === undefined && !parsed.continue) return "--fork-session needs --resume or --continue: it copies an existing session.";
  return undefined;
}

/**
 * `--help`: formatted by yargs from the same option tables, loaded only here (the build writes the
 * texts to dist/, and bin/agentwire prints those without loading the bundle at all).
 */
async function helpText(isStart: boolean): Promise<string> {
  const { default: yargs } = await import("yargs");
  return yargs([])
    .scriptName("agentwire")
    .usage(
      isStart
        ? "agentwire start --provider P --model M --cwd DIR [--verbose]\n\nA persistent session: stream-json commands on stdin until EOF, stream-json events on stdout."
        : "agentwire [-p] [prompt] [options]\nagentwire chat [options]   (also: agentwire alone at a terminal)\nagentwire start [options]\nagentwire sessions list|show|export|import|delete\nagentwire trust [DIR] | --list | --revoke [DIR]   (consent for a project's .mcp.json and skill rules)\nagentwire render [SESSION_ID|FILE]\nagentwire web [--port N] [--host H] [--open]   (a browser UI)\nagentwire mock-server --port N --scenario FILE\n\nA headless agent that speaks Claude Code's stream-json protocol with any model behind it.",
    )
    .epilogue(isStart ? START_EPILOGUE : "")
    .help(false)
    .version(false)
    .options(isStart ? START_OPTIONS : RUN_OPTIONS)
    .getHelp();
}

async function parseMockServer(argv: string[]): Promise<ParsedCommand> {
  const { default: yargs } = await import("yargs");
  const wantsHelp = argv.includes("--help") || argv.includes("-h");
  const parser = yargs(argv)
    .scriptName("agentwire mock-server")
    .usage("agentwire mock-server --port N --scenario FILE [--record FILE]\n\nServes scripted model turns over loopback in the Anthropic, OpenAI (Chat Completions, Responses) and Gemini streaming wire formats.")
    .help(false)
    .version(false)
    .options(wantsHelp ? { ...MOCK_SERVER_OPTIONS, scenario: { ...MOCK_SERVER_OPTIONS.scenario, demandOption: false } } : MOCK_SERVER_OPTIONS)
    .strict()
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new Error(message);
    });
  try {
    const parsed = await parser.parseAsync();
    if (parsed.help) return { kind: "help", text: await parser.getHelp() };
    return { kind: "mock-server", port: parsed.port, scenario: parsed.scenario as string, host: parsed.host, ...(parsed.record ? { record: parsed.record } : {}) };
  } catch (error) {
    return { kind: "error", message: error instanceof Error ? error.message : String(error) };
  }
}

/** `--json-schema`: inline JSON (as Claude Code takes it), or the path of a file holding it. */
function readJsonSchema(value: string, processCwd: string): { schema: Record<string, unknown> } | { error: string } {
  const inline = value.trimStart().startsWith("{");
  let text = value;
  if (!inline) {
    try {
      text = readFileSync(resolve(processCwd, value), "utf8");
    } catch (error) {
      return { error: `--json-schema: not inline JSON, and not a readable file: ${(error as Error).message}` };
    }
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    return { error: `--json-schema${inline ? "" : ` (${value})`} is not valid JSON: ${(error as Error).message}` };
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return { error: "--json-schema must be a JSON object (a JSON Schema)." };
  return { schema: schema as Record<string, unknown> };
}

/**
 * `--setting-sources user,project`: the sources to read; empty (`--setting-sources=`, the Agent
 * SDK's default) reads none; absent reads all.
 */
function parseSettingSources(value: unknown): { sources: SettingSource[] | undefined } | { error: string } {
  if (typeof value !== "string") return { sources: undefined };
  const sources = value.split(",").map((source) => source.trim()).filter((source) => source !== "");
  const unknown = sources.filter((source) => !(SETTING_SOURCES as readonly string[]).includes(source));
  if (unknown.length > 0) return { error: `--setting-sources: unknown source ${unknown.join(", ")} (the sources are ${SETTING_SOURCES.join(", ")}).` };
  return { sources: sources as SettingSource[] };
}

/** A number from an environment variable, or undefined when unset or not a number (then the schema reports a bad flag value only). */
function numberFrom(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** Single-letter aliases of RUN_OPTIONS: after `-p` they are flags, not its value. */
const SHORT_FLAGS = new Set(Object.values(RUN_OPTIONS).flatMap((options) => ("alias" in options ? [`-${options.alias}`] : [])));

/**
 * What agentwire takes beyond Claude Code's `-p`, a plain flag: `--print=prompt`, and a prompt
 * that starts with a dash right after `-p` (`-p "-what is this"`), which would otherwise read as
 * a cluster of short flags. Both prompts go to `values`; `-p` stays in argv, where it ends a
 * list flag's values as any flag does. A known flag after `-p` stays a flag (`-p -c`).
 */
function withoutPrintValues(argv: string[], values: string[]): string[] {
  const rest: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--") {
      rest.push(...argv.slice(index));
      break;
    }
    if (argument.startsWith("--print=")) {
      values.push(argument.slice("--print=".length));
      rest.push("--print");
      continue;
    }
    rest.push(argument);
    const next = argv[index + 1];
    if ((argument === "-p" || argument === "--print") && next !== undefined && isDashPrompt(next)) {
      values.push(next);
      index++;
    }
  }
  return rest;
}

/** `-what is this` or `- item`; a long flag (known or mistyped) and a known short flag are flags. */
function isDashPrompt(argument: string): boolean {
  return argument.startsWith("-") && !argument.startsWith("--") && !SHORT_FLAGS.has(argument);
}

/** An unknown flag is named as typed, with the nearest documented one when it looks mistyped. */
function describeParseError(error: unknown): string {
  return describeFlagError(error, Object.keys(RUN_OPTIONS), "agentwire");
}

function formatIssues(error: z.core.$ZodError): string {
  return error.issues.map((issue) => `--${issue.path.join(".").replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}: ${issue.message}`).join("\n");
}

function pickDefined(values: Record<string, unknown>): PromptSources {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => typeof value === "string")) as PromptSources;
}
