import { DEFAULT_APPROVAL_TIMEOUT_SECONDS, EventDialectSchema, InputFormatSchema, OutputFormatSchema, PERMISSION_MODES } from "./config.js";
import type { FlagOptions } from "./flag-parser.js";
import { PROVIDER_IDS } from "../providers/registry.js";
import { SANDBOX_MODES } from "../tools/sandbox/sandbox-settings.js";

/**
 * The command line's option tables: what the fast parser (flag-parser.ts) reads, and what yargs
 * formats `--help` from (help-text.ts).
 */

export const RUN_OPTIONS = {
  // A flag, as Claude Code's -p: the word after it is the prompt only because it is the positional.
  print: {
    alias: "p",
    type: "boolean",
    nargs: 0,
    default: false,
    description: "Run headless and print the response (the prompt is the argument, or stdin)",
  },
  "output-format": { type: "string", choices: OutputFormatSchema.options, default: "text", description: "Output format" },
  "input-format": {
    type: "string",
    choices: InputFormatSchema.options,
    default: "text",
    description: "Input format (stream-json: one command per stdin line)",
  },
  verbose: {
    type: "boolean",
    default: false,
    description:
      "Text output: show the run's progress on stderr (on by default when stderr is a terminal); stream-json output is always complete",
  },
  "output-last-message": { type: "string", description: "Also write the final answer to this file" },
  "event-dialect": {
    type: "string",
    choices: EventDialectSchema.options,
    default: "claude",
    description: "stream-json events: Claude Code's (claude), or the seed design's flat list (flat; protocol/README-flat.md)",
  },
  "approval-timeout": {
    type: "number",
    default: DEFAULT_APPROVAL_TIMEOUT_SECONDS,
    description: "Seconds an approval question waits for the host's answer before the call is denied",
  },
  model: { type: "string", description: "Model id or alias (opus, sonnet, haiku)" },
  provider: {
    type: "string",
    choices: [...PROVIDER_IDS],
    description: "Model provider (default: inferred from --model, else from the API key that is set)",
  },
  "base-url": { type: "string", description: "Endpoint of the model API (OpenAI-compatible servers: http://host:port/v1)" },
  "openai-api": {
    type: "string",
    choices: ["chat", "responses"],
    description: "OpenAI wire API (default: responses for OpenAI reasoning models, else chat)",
  },
  "context-window": { type: "number", description: "Context window of the model in tokens (for local models)" },
  "system-prompt": { type: "string", description: "Replace the default system prompt" },
  "system-prompt-file": { type: "string", description: "Read the system prompt from a file" },
  "append-system-prompt": { type: "string", description: "Append to the default system prompt" },
  "append-system-prompt-file": { type: "string", description: "Append the contents of a file to the system prompt" },
  "max-turns": { type: "number", description: "Maximum model requests per user turn (default 200)" },
  "max-budget-usd": {
    type: "number",
    description: "Stop once this run's model requests have cost this many US dollars (result subtype error_max_budget_usd)",
  },
  "max-thinking-tokens": { type: "number", description: "Enable extended thinking with this token budget" },
  cwd: { type: "string", description: "Working directory for tools and sessions (default: current directory)" },
  "include-partial-messages": { type: "boolean", default: false, description: "Emit stream_event lines with raw streaming deltas" },
  resume: { alias: "r", type: "string", description: "Resume a session by id" },
  continue: { alias: "c", type: "boolean", default: false, description: "Continue the most recent session in this directory" },
  "session-id": { type: "string", description: "Use this UUID for a new session" },
  "fork-session": {
    type: "boolean",
    default: false,
    description: "With --resume or --continue: continue in a new session that starts as a copy (the original is left as it was)",
  },
  "session-persistence": { type: "boolean", default: true, description: "Write the session to disk (--no-session-persistence to disable)" },
  "permission-mode": {
    type: "string",
    choices: PERMISSION_MODES,
    description: "Permission mode (default: the settings files' permissions.defaultMode, else default)",
  },
  "dangerously-skip-permissions": { type: "boolean", default: false, description: "Run every tool without asking" },
  // Claude Code's list flags take every word up to the next flag: put the prompt before them, or after --.
  allowedTools: {
    type: "string",
    array: true,
    variadic: true,
    description: 'Permission rules for calls that run without asking, e.g. "Read" "Bash(npm run:*)"',
  },
  disallowedTools: { type: "string", array: true, variadic: true, description: "Permission rules for calls that are always refused" },
  "permission-prompt-tool": { type: "string", description: "stdio: ask the host with can_use_tool control requests (Claude Agent SDK)" },
  tools: {
    type: "string",
    array: true,
    variadic: true,
    description:
      'Tools the model may use: "Bash,Read", "default" (all), or "" (none). WebSearch uses the provider\'s own search, else the SearXNG instance named by AGENTWIRE_SEARXNG_URL',
  },
  "add-dir": { type: "string", array: true, variadic: true, description: "More directories tools may use besides the working directory" },
  "mcp-config": {
    type: "string",
    array: true,
    variadic: true,
    description:
      "MCP servers: a JSON file or JSON text {\"mcpServers\": {...}} in Claude Code's format (repeatable); the project's .mcp.json is read too",
  },
  "strict-mcp-config": {
    type: "boolean",
    default: false,
    description: "Use only the servers of --mcp-config, not the project's .mcp.json",
  },
  "trust-project": {
    type: "boolean",
    default: false,
    description:
      "Trust what this project brings (its .mcp.json servers, its skills' allowed-tools) for this run only, without agentwire trust (for CI checkouts)",
  },
  "setting-sources": {
    type: "string",
    description: "Comma-separated setting sources to read (user, project, local); without project, nothing the project brings takes effect",
  },
  settings: {
    type: "string",
    description:
      "More settings, over the settings files (~/.claude/settings.json, .claude/settings.json, …): a settings.json file or its JSON text",
  },
  sandbox: {
    type: "string",
    choices: [...SANDBOX_MODES],
    default: "off",
    description:
      "Run Bash commands under bubblewrap: workspace-write (writes only in the working directories and a private TMPDIR, no network) or read-only (no writes but TMPDIR); off runs them unconfined",
  },
  "sandbox-allow-write": {
    type: "string",
    array: true,
    description: "With --sandbox: another path sandboxed commands may write (repeatable)",
  },
  "sandbox-network": { type: "boolean", default: false, description: "With --sandbox: let sandboxed commands use the network" },
  "pass-env": {
    type: "string",
    array: true,
    description:
      "Hand this credential variable (an API key, token or password) to Bash commands and MCP servers, which otherwise never see one (repeatable)",
  },
  "list-tools": {
    type: "boolean",
    default: false,
    description: "Print each tool's name and description (JSON schemas with --output-format json), then exit",
  },
  "list-models": {
    type: "boolean",
    default: false,
    description: "Print the models of each provider (live where a key is set), then exit; --provider picks one",
  },
  "auto-compact": {
    type: "boolean",
    default: true,
    description:
      "Compact the conversation when it nears the model's context window, or overflows it (--no-auto-compact: only /compact does)",
  },
  "auto-compact-threshold": {
    type: "number",
    description:
      "Compact at this percentage of the context window (default: the window minus the output reserve and a safety margin; env AGENTWIRE_AUTOCOMPACT_PCT)",
  },
  "memory-files": {
    type: "boolean",
    default: true,
    description:
      "Add AGENTS.md and CLAUDE.md (repository root to cwd, and $AGENTWIRE_HOME/AGENTS.md) to the context (--no-memory-files to turn off)",
  },
  skills: { type: "boolean", default: true, description: "Discover SKILL.md skills (--no-skills to turn off)" },
  "skills-dir": {
    type: "string",
    array: true,
    description: "Another folder of skills, after the project's and before the user's (repeatable)",
  },
  "default-skills": {
    type: "boolean",
    default: true,
    description: "Install the bundled skills into $AGENTWIRE_HOME/skills on first run (--no-default-skills to skip)",
  },
  "skill-ranking": {
    type: "string",
    choices: ["bm25", "llm"],
    default: "bm25",
    description: "How skills are ranked against the prompt when their listing does not fit (llm: the model re-ranks the top 20)",
  },
  "skill-listing-budget": {
    type: "number",
    description: "Characters for the skill listing (default: 1% of the model's context window x 4)",
  },
  "json-schema": {
    type: "string",
    description: "Answer with JSON valid against this JSON Schema (inline JSON or a file): in the result's structured_output",
  },
  "tool-profile": {
    type: "string",
    choices: ["default", "compact"],
    default: "default",
    description: "compact: Bash, Read, Write and Skill with short definitions, for small local models",
  },
  agents: {
    type: "string",
    description:
      'Subagent definitions as JSON, as Claude Code takes them: {"name":{"description":"…","prompt":"…","tools":["Read"],"model":"inherit"}}',
  },
  "list-agents": {
    type: "boolean",
    default: false,
    description: "Print the agent types the Agent tool could start in this run (JSON with --output-format json), then exit",
  },
  "list-skills": {
    type: "boolean",
    default: false,
    description: "Print the skills this run would use (JSON with --output-format json), then exit",
  },
  "llms-txt": {
    type: "boolean",
    default: false,
    description: "Print agentwire's full documentation for LLMs as one markdown document, then exit",
  },
  debug: { type: "boolean", default: false, description: "Debug logging on stderr" },
  help: { alias: "h", type: "boolean", default: false, description: "Show help" },
  version: { alias: "v", type: "boolean", default: false, description: "Show version" },
} as const satisfies Record<string, FlagOptions>;

/** `start` is a stream-json session both ways, whatever the defaults of a `-p` run are. */
export const START_OPTIONS = {
  ...RUN_OPTIONS,
  "output-format": {
    ...RUN_OPTIONS["output-format"],
    default: "stream-json",
    description: "Output format (start always speaks stream-json)",
  },
  "input-format": {
    ...RUN_OPTIONS["input-format"],
    default: "stream-json",
    description: "Input format (start always reads stream-json commands)",
  },
} as const satisfies Record<string, FlagOptions>;

/**
 * Flags Claude Code hosts (the Agent SDK, GUIs) pass that agentwire accepts without acting on
 * them yet. Refusing them would break those hosts, so each is noted on stderr instead.
 */
export const ACCEPTED_BUT_IGNORED: Record<string, FlagOptions> = {
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
export const START_EPILOGUE = [
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

export const MOCK_SERVER_OPTIONS = {
  port: { type: "number", default: 0, description: "Port to listen on (0 = any free port)" },
  host: { type: "string", default: "127.0.0.1", description: "Loopback address to bind" },
  scenario: { type: "string", demandOption: true, description: "Scenario file (see fixtures/README.md)" },
  record: { type: "string", description: "Append every received request to this JSONL file" },
  help: { alias: "h", type: "boolean", default: false },
} as const satisfies Record<string, FlagOptions>;
