import { randomUUID } from "node:crypto";
import { readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { setFlagsFromString } from "node:v8";
import { join, resolve } from "node:path";
import type { OutputEvent, ResultEvent, TerminalReason } from "../protocol/events.js";
import { parseArguments, type ParsedCommand } from "./cli/arguments.js";
import { composeSystemPrompt, defaultSystemPrompt } from "./agent/system-prompt.js";
import { SessionAccounting } from "./agent/turn-accounting.js";
import type { RunConfig } from "./config.js";
import { createLogger, type Logger } from "./log.js";
import { apiKeySource, createProvider, providerSettingsError, type ProviderSettings } from "./providers/registry.js";
import { createLineWriter } from "./server/jsonl.js";
import { buildFailureResult } from "./server/result.js";
import { AgentSession } from "./server/session.js";
import { serveStreamInput } from "./server/stream-input.js";
import { toUserMessage } from "./server/user-input.js";
import {
  agentwireHome,
  loadSession,
  newestSessionId,
  newSessionId,
  SessionNotFoundError,
  sessionExists,
  SessionStore,
  type LoadedSession,
} from "./sessions/store.js";
import { formatToolList } from "./cli/list-tools.js";
import type { ToolDefinition } from "./tools/define-tool.js";
import { builtinTools, selectTools } from "./tools/registry.js";
import { parseRuleList, toolsCoveredBy } from "./permissions/rules.js";
import { HostChannel } from "./server/host-channel.js";
import { AGENTWIRE_VERSION } from "./version.js";

const DEFAULT_MAX_RETRIES = 10;

/** A failure before any turn could run: reported on stderr and, in stream-json, as a `result`. */
class StartupError extends Error {
  constructor(
    message: string,
    readonly terminalReason: TerminalReason,
  ) {
    super(message);
  }
}

async function main(argv: string[]): Promise<number> {
  const startedAt = Date.now();
  const parsed = await parseArguments(argv, process.cwd(), process.env);
  switch (parsed.kind) {
    case "help":
      process.stdout.write(`${parsed.text}\n`);
      return 0;
    case "version":
      process.stdout.write(`${AGENTWIRE_VERSION} (agentwire)\n`);
      return 0;
    case "mock-server": {
      const { runMockServerCommand } = await import("./mock-server/command.js");
      await runMockServerCommand({ port: parsed.port, scenario: parsed.scenario, host: parsed.host, ...(parsed.record ? { record: parsed.record } : {}) });
      return 0;
    }
    case "error":
      return reportStartupFailure(argv, new StartupError(parsed.message, "invalid_arguments"), startedAt);
    case "list-tools":
      try {
        process.stdout.write(formatToolList(chooseTools(parsed.config), parsed.config.outputFormat));
        return 0;
      } catch (error) {
        if (error instanceof StartupError) return reportStartupFailure(argv, error, startedAt);
        throw error;
      }
    case "list-models": {
      // Loaded on demand, like the mock server: ordinary runs never need it.
      const { collectModelListings, formatModelListings } = await import("./cli/list-models.js");
      const listings = await collectModelListings({ env: process.env, ...(parsed.provider ? { provider: parsed.provider } : {}), ...(parsed.baseUrl ? { baseUrl: parsed.baseUrl } : {}) });
      process.stdout.write(formatModelListings(listings, parsed.outputFormat));
      return 0;
    }
    case "run":
      try {
        return await runHeadless(parsed);
      } catch (error) {
        if (error instanceof StartupError) return reportStartupFailure(argv, error, startedAt);
        throw error;
      }
  }
}

async function runHeadless(command: Extract<ParsedCommand, { kind: "run" }>): Promise<number> {
  const config = { ...command.config, cwd: resolve(command.config.cwd) };
  const log = createLogger(config.debug ? "debug" : process.env.AGENTWIRE_LOG_LEVEL);
  for (const flag of command.ignoredFlags) log.warn(`--${flag} is accepted for Claude Code compatibility and has no effect yet`);
  if (!isDirectory(config.cwd)) throw new StartupError(`Working directory does not exist: ${config.cwd}`, "invalid_arguments");
  for (const directory of config.addDirs) {
    if (!isDirectory(directory)) throw new StartupError(`--add-dir directory does not exist: ${directory}`, "invalid_arguments");
  }
  const tools = chooseTools(config);
  const providerSettings: ProviderSettings = {
    provider: config.provider,
    env: process.env,
    model: config.model,
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    ...(config.openaiApi ? { openaiApi: config.openaiApi } : {}),
  };
  const settingsError = providerSettingsError(providerSettings);
  if (settingsError) throw new StartupError(settingsError, "invalid_arguments");

  const home = agentwireHome(process.env);
  const loaded = resolveSession(config, home);
  for (const diagnostic of loaded?.diagnostics ?? []) log.warn({ session: loaded?.sessionId }, diagnostic);
  const sessionId = loaded?.sessionId ?? config.sessionId ?? newSessionId();
  // Bash's full outputs: disposable and possibly gigabytes, so in the OS temp folder rather than
  // AGENTWIRE_HOME (which keeps sessions), per process (two runs resuming one session must not
  // share it), and removed at exit. The model is told the path, and Read may page through it.
  const toolOutputDirectory = join(tmpdir(), `agentwire-${sessionId}-${process.pid}`);
  process.once("exit", () => rmSync(toolOutputDirectory, { recursive: true, force: true }));
  const systemPrompt = composeSystemPrompt(
    readPromptSource(command.promptFiles.systemPrompt, command.promptFiles.systemPromptFile) ??
      defaultSystemPrompt({ cwd: config.cwd, platform: process.platform, date: new Date().toISOString().slice(0, 10), model: config.model }),
    readPromptSource(command.promptFiles.appendSystemPrompt, command.promptFiles.appendSystemPromptFile),
  );

  // Read the prompt before creating anything else: a missing prompt should fail fast.
  const prompt = config.inputFormat === "text" ? (command.prompt ?? (await readPromptFromStdin())) : undefined;
  if (config.inputFormat === "text" && !prompt?.trim()) {
    throw new StartupError("Input must be provided either through stdin or as a prompt argument when using --print", "invalid_arguments");
  }

  const writeLine = createLineWriter(process.stdout);
  // Control requests to the host need a host that reads stdout and writes stdin: stream-json both ways.
  const host = config.inputFormat === "stream-json" ? new HostChannel((event) => output(event)) : undefined;
  const results: ResultEvent[] = [];
  const output = (event: OutputEvent): void => {
    if (event.type === "result") results.push(event);
    if (config.outputFormat === "stream-json") writeLine(event);
  };
  const session = new AgentSession({
    config,
    sessionId,
    systemPrompt,
    provider: createProvider(providerSettings),
    tools,
    apiKeySource: apiKeySource(config.provider, process.env),
    history: loaded?.history ?? [],
    accounting: new SessionAccounting(loaded ? { modelUsage: loaded.modelUsage, totalCostUsd: loaded.totalCostUsd } : undefined, { contextWindow: config.contextWindow }),
    store: config.sessionPersistence ? SessionStore.create(home, config.cwd, sessionId, AGENTWIRE_VERSION) : undefined,
    output,
    log,
    maxRetries: maxRetries(process.env),
    permissions: {
      rules: { allow: parseRuleList(config.allowedTools), deny: parseRuleList(config.disallowedTools), ask: [] },
      // The output directory is a root too, so Read can page through a long Bash output.
      roots: [config.cwd, ...config.addDirs, toolOutputDirectory],
    },
    toolOutputDirectory,
    approvals: approvalChannel(config, command.isStart),
    host,
  });
  const signals = handleSignals(session, log, { persistent: config.inputFormat === "stream-json" });

  if (prompt !== undefined) {
    output(session.initEvent());
    await session.runTurn(toUserMessage(prompt));
  } else {
    await serveStreamInput({
      input: process.stdin,
      session,
      output,
      log,
      models: [{ value: config.model, displayName: config.model, description: `${config.provider} model` }],
      host,
      announceSessionState: process.env.CLAUDE_CODE_SDK_READS_SESSION_STATE === "1",
    });
  }
  signals.dispose();
  const last = results.at(-1);
  writeFinalOutput(config, last);
  if (signals.received) return signals.received === "SIGINT" ? 130 : 143;
  return last?.is_error ? 1 : 0;
}

/**
 * Permission questions go to the host only when it has said it will answer: the Agent SDK passes
 * --permission-prompt-tool stdio; agentwire's own `start` sessions and `--permission-mode
 * interactive` use the simple frames. Otherwise there is nobody to ask, as in CI.
 */
function approvalChannel(config: RunConfig, isStart: boolean): "control" | "frames" | "none" {
  if (config.inputFormat !== "stream-json") return "none";
  if (config.permissionPromptTool === "stdio") return "control";
  if (isStart || config.permissionMode === "interactive") return "frames";
  return "none";
}

/** `--tools` and whole-tool `--disallowedTools` rules applied to the built-in tools. */
function chooseTools(config: RunConfig): ToolDefinition[] {
  // A whole-tool deny rule refuses every call of the tools it covers, so they are not offered.
  const disallowedToolNames = parseRuleList(config.disallowedTools)
    .filter((rule) => rule.content === undefined || rule.content === "*")
    .flatMap((rule) => toolsCoveredBy(rule.toolName));
  const selected = selectTools(builtinTools(), { tools: config.tools, disallowedToolNames });
  if ("error" in selected) throw new StartupError(selected.error, "invalid_arguments");
  return selected.tools;
}

function resolveSession(config: RunConfig, home: string): LoadedSession | undefined {
  if (config.sessionId && sessionExists(home, config.cwd, config.sessionId)) {
    throw new StartupError(`Session ID ${config.sessionId} is already in use.`, "invalid_arguments");
  }
  const sessionId = config.resume ?? (config.continue ? newestSessionId(home, config.cwd) : undefined);
  if (config.continue && !sessionId) throw new StartupError(`No conversation found to continue in ${config.cwd}`, "session_not_found");
  if (!sessionId) return undefined;
  try {
    return loadSession(home, config.cwd, sessionId);
  } catch (error) {
    if (error instanceof SessionNotFoundError) throw new StartupError(error.message, "session_not_found");
    throw error;
  }
}

/** `json` prints only the last result; `text` prints its text (errors go to stderr). */
function writeFinalOutput(config: RunConfig, last: ResultEvent | undefined): void {
  if (!last || config.outputFormat === "stream-json") return;
  if (config.outputFormat === "json") {
    createLineWriter(process.stdout)(last);
    return;
  }
  if (last.is_error) process.stderr.write(`Error: ${(last.errors ?? ["unknown error"]).join("; ")}\n`);
  else process.stdout.write(`${last.result ?? ""}\n`);
}

function reportStartupFailure(argv: string[], error: StartupError, startedAt: number): number {
  process.stderr.write(`Error: ${error.message}\n`);
  const format = requestedOutputFormat(argv);
  if (format === "stream-json" || format === "json") {
    createLineWriter(process.stdout)(
      buildFailureResult({
        sessionId: randomUUID(),
        terminalReason: error.terminalReason,
        message: error.message,
        durationMs: Date.now() - startedAt,
        newUuid: randomUUID,
      }),
    );
  }
  return 1;
}

/** Best-effort look at argv when it could not be parsed, so even that failure is reported in-protocol. */
function requestedOutputFormat(argv: string[]): string | undefined {
  if (argv[0] === "start") return "stream-json";
  const index = argv.findIndex((argument) => argument === "--output-format" || argument.startsWith("--output-format="));
  if (index === -1) return undefined;
  const argument = argv[index]!;
  return argument.includes("=") ? argument.slice(argument.indexOf("=") + 1) : argv[index + 1];
}

function readPromptSource(text: string | undefined, file: string | undefined): string | undefined {
  if (text !== undefined) return text;
  if (file === undefined) return undefined;
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new StartupError(`Cannot read prompt file ${file}: ${(error as Error).message}`, "invalid_arguments");
  }
}

/** Reads a piped prompt; never waits on an interactive terminal. */
async function readPromptFromStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function maxRetries(env: NodeJS.ProcessEnv): number {
  const value = Number(env.AGENTWIRE_MAX_RETRIES ?? env.CLAUDE_CODE_MAX_RETRIES);
  return Number.isInteger(value) && value >= 0 ? value : DEFAULT_MAX_RETRIES;
}

/**
 * SIGTERM (and SIGINT in print mode) interrupts the running turn, which still ends with its
 * `result`, then the process exits (143 / 130). In a persistent stream-json session SIGINT is a
 * "stop" button, as in a terminal: it interrupts the running turn and the session keeps serving;
 * SIGINT while idle exits. A second signal before the turn has ended exits at once.
 */
function handleSignals(
  session: AgentSession,
  log: Logger,
  mode: { persistent: boolean },
): { received: NodeJS.Signals | undefined; dispose(): void } {
  const state: { received: NodeJS.Signals | undefined; dispose(): void } = {
    received: undefined,
    dispose() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
  let interruptedTurn = false;
  function onSignal(signal: NodeJS.Signals): void {
    log.info(`received ${signal}`);
    if (state.received) process.exit(signal === "SIGINT" ? 130 : 143);
    if (signal === "SIGINT" && mode.persistent && session.busy && !interruptedTurn) {
      interruptedTurn = true;
      session.interrupt();
      session.whenIdle().then(() => (interruptedTurn = false));
      return;
    }
    state.received = signal;
    // No more input and no further turns: finish (interrupt) the running turn, then exit.
    process.stdin.destroy();
    const wasBusy = session.busy;
    session.close();
    if (!wasBusy) process.exit(signal === "SIGINT" ? 130 : 143);
  }
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return state;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

// Node's fetch parses HTTP with a WebAssembly module; at exit V8 waits for its background
// optimizing compiles, which delayed every exit by ~60 ms (measured: 68 ms → 10 ms between the
// exit handler and process end). Baseline WASM code is plenty for parsing SSE.
setFlagsFromString("--liftoff-only");

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`agentwire: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(70);
  },
);
