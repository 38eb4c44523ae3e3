import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { join, resolve } from "node:path";
import type { OutputEvent, ResultEvent, TerminalReason } from "../../protocol/events.js";
import { parseArguments, type ParsedCommand } from "./arguments.js";
import type { RunConfig } from "./config.js";
import { chooseLogFormat, createLogger, type Logger } from "./log.js";
import { routeConsoleToLog } from "./route-console-to-log.js";
import { tuneV8ForSessions, usesNodeFetch } from "./v8-settings.js";
import { createLoggedProgress, createTextProgress } from "./text-progress.js";
import { createLineWriter } from "../server/jsonl.js";
import { toUserMessage } from "../session/user-input.js";
import { buildFailureResult } from "../session/result.js";
import type { Session } from "../session/session.js";
import { initEventBeforeSession, prepareSession } from "../session/prepare-session.js";
import { SessionSetupError, type SessionOptions } from "../session/session-options.js";
import { installDefaultSkills, upgradeRetiredDefaultSkills } from "../skills/default-skills.js";
import { randomUuid } from "../text/random-uuid.js";
import { versionLine } from "../version.js";

const DEFAULT_MAX_RETRIES = 10;

/**
 * Exit codes besides 0 (success) and 1 (the last turn ended in an error): a signal ends the run
 * with 128 + its number, as a shell reports it, after the running turn's `result`; a consumer
 * that closed stdout (EPIPE: `agentwire … | head -3`) gets 141, 128 + SIGPIPE, as if the pipe
 * had killed the process; 70 is an internal error.
 */
export const EXIT_CODES = { SIGHUP: 129, SIGINT: 130, STDOUT_CLOSED: 141, SIGTERM: 143, INTERNAL_ERROR: 70 } as const;
const HANDLED_SIGNALS = ["SIGHUP", "SIGINT", "SIGTERM"] as const;
type HandledSignal = (typeof HANDLED_SIGNALS)[number];

/**
 * What to do when stdout turns out to be closed. Until a session runs there is nothing to save:
 * exit at once. Writing to a closed pipe is not a crash: no stack trace, no further writes.
 */
let stdoutClosed = false;
let onStdoutClosed: () => void = () => process.exit(EXIT_CODES.STDOUT_CLOSED);
process.stdout.on("error", () => {
  if (stdoutClosed) return;
  stdoutClosed = true;
  onStdoutClosed();
});

/** A failure before any turn could run: reported on stderr and, in stream-json, as a `result`. */
class StartupError extends Error {
  constructor(
    message: string,
    readonly terminalReason: TerminalReason,
  ) {
    super(message);
  }
}

/** The installed package's root (the bundle is dist/cli.js): where protocol/ and skills/ are. */
const PACKAGE_ROOT = new URL("../", import.meta.url);

async function main(argv: string[]): Promise<number> {
  const startedAt = Date.now();
  if (argv[0] === "sessions" || (argv[0] === "help" && argv[1] === "sessions")) {
    const { runSessionsCommand } = await import("./sessions-command.js");
    return runSessionsCommand(argv[0] === "help" ? ["--help"] : argv.slice(1), process.cwd(), process.env);
  }
  if (argv[0] === "trust" || (argv[0] === "help" && argv[1] === "trust")) {
    const { runTrustCommand } = await import("./trust-command.js");
    return runTrustCommand(argv[0] === "help" ? ["--help"] : argv.slice(1), process.cwd(), process.env);
  }
  if (argv[0] === "render" || (argv[0] === "help" && argv[1] === "render")) {
    const { runRenderCommand } = await import("./render-command.js");
    return runRenderCommand(argv[0] === "help" ? ["--help"] : argv.slice(1), process.cwd(), process.env);
  }
  if (argv[0] === "web" || (argv[0] === "help" && argv[1] === "web")) {
    const { runWebCommand } = await import("./web-command.js");
    return runWebCommand(argv[0] === "help" ? ["--help"] : argv.slice(1), process.cwd(), process.env, fileURLToPath(PACKAGE_ROOT));
  }
  const chatCommand = argv[0] === "chat";
  const parsed = await parseArguments(chatCommand ? argv.slice(1) : argv, process.cwd(), process.env);
  switch (parsed.kind) {
    case "help":
      process.stdout.write(`${parsed.text}\n`);
      return 0;
    case "version":
      process.stdout.write(`${versionLine()}\n`);
      return 0;
    case "mock-server": {
      const { runMockServerCommand, MockServerSetupError } = await import("../mock-server/command.js");
      try {
        await runMockServerCommand({ port: parsed.port, scenario: parsed.scenario, host: parsed.host, ...(parsed.record ? { record: parsed.record } : {}) });
        return 0;
      } catch (error) {
        if (!(error instanceof MockServerSetupError)) throw error;
        process.stderr.write(`agentwire mock-server: ${error.message}\n`);
        return 1;
      }
    }
    case "error":
      return reportStartupFailure(argv, new StartupError(parsed.message, "invalid_arguments"), startedAt);
    case "list-tools":
      try {
        // Both build every tool: loaded only for this listing.
        const [{ chooseBuiltinTools }, { formatToolList }] = await Promise.all([import("../session/session-tools.js"), import("./list-tools.js")]);
        process.stdout.write(formatToolList(chooseBuiltinTools(parsed.config), parsed.config.outputFormat));
        return 0;
      } catch (error) {
        if (error instanceof SessionSetupError) return reportStartupFailure(argv, new StartupError(error.message, error.terminalReason), startedAt);
        throw error;
      }
    case "list-skills": {
      const { listSkills } = await import("./list-skills.js");
      const listing = await listSkills({ ...parsed.config, cwd: resolve(parsed.config.cwd) }, process.env);
      process.stderr.write(listing.stderr);
      process.stdout.write(listing.stdout);
      return 0;
    }
    case "llms-txt": {
      const { llmsTxt } = await import("./llms-txt.js");
      process.stdout.write(llmsTxt(parsed.helpText, PACKAGE_ROOT));
      return 0;
    }
    case "list-models": {
      // Loaded on demand, like the mock server: ordinary runs never need it.
      const { collectModelListings, formatModelListings } = await import("./list-models.js");
      const listings = await collectModelListings({ env: process.env, ...(parsed.provider ? { provider: parsed.provider } : {}), ...(parsed.baseUrl ? { baseUrl: parsed.baseUrl } : {}) });
      process.stdout.write(formatModelListings(listings, parsed.outputFormat));
      return 0;
    }
    case "run":
      try {
        if (wantsChat(chatCommand, parsed)) {
          await tuneV8ForSessions({ persistent: true });
          const { runChatCommand } = await import("./chat-command.js");
          return await runChatCommand(parsed, process.env);
        }
        return await runHeadless(parsed);
      } catch (error) {
        if (error instanceof SessionSetupError) return reportStartupFailure(argv, new StartupError(error.message, error.terminalReason), startedAt);
        if (error instanceof StartupError) return reportStartupFailure(argv, error, startedAt);
        throw error;
      }
  }
}

/**
 * `agentwire chat …`, and `agentwire` with no prompt and no -p at a terminal, as Claude Code:
 * a person typing, not a program piping.
 */
function wantsChat(chatCommand: boolean, command: Extract<ParsedCommand, { kind: "run" }>): boolean {
  const streams = command.config.inputFormat !== "text" || command.config.outputFormat !== "text";
  if (chatCommand && streams) throw new StartupError("agentwire chat is for a person at a terminal; --input-format and --output-format do not apply (agentwire start is the stream-json session).", "invalid_arguments");
  if (command.isStart || streams) return false;
  if (chatCommand) return true;
  return !command.printFlag && command.prompt === undefined && process.stdin.isTTY === true && process.stdout.isTTY === true;
}

async function runHeadless(command: Extract<ParsedCommand, { kind: "run" }>): Promise<number> {
  const config = { ...command.config, cwd: resolve(command.config.cwd) };
  const logFormat = chooseLogFormat(process.env, config.debug, process.stderr.isTTY === true);
  const log = createLogger(config.debug ? "debug" : process.env.AGENTWIRE_LOG_LEVEL, logFormat);
  routeConsoleToLog(log);
  const notices = [...(config.skills ? installBundledSkills(log, config.defaultSkills) : []), ...(command.ignoredFlags.length > 0 ? [describeIgnoredFlags(command.ignoredFlags)] : [])];

  const writeLine = createLineWriter(process.stdout);
  const results: ResultEvent[] = [];
  // In text and json modes stdout holds only the answer. What happens meanwhile goes to stderr in
  // text mode, for the person watching; json mode is for programs, so stderr stays empty there, as
  // Claude Code's does, and the log has it. When stderr is a JSON log, text mode's notices are
  // records in it, not lines of another shape among them.
  const detailedProgress = config.outputFormat === "text" && (config.verbose || process.stderr.isTTY === true);
  const progress =
    config.outputFormat === "stream-json"
      ? undefined
      : config.outputFormat === "json"
        ? createLoggedProgress(log, "info")
        : logFormat === "json"
          ? createLoggedProgress(log, "warn")
          : await createTextProgress({ detailed: detailedProgress, stderr: process.stderr, stdoutIsTerminal: process.stdout.isTTY === true, env: process.env });
  const flat = config.outputFormat === "stream-json" && config.eventDialect === "flat" ? (await import("../server/flat-dialect.js")).createFlatTranslator() : undefined;
  const output = (event: OutputEvent): void => {
    if (event.type === "result") results.push(event);
    if (progress) progress(event);
    else if (stdoutClosed) return;
    else if (flat) for (const line of flat(event)) writeLine(line);
    else writeLine(event);
  };
  // Control requests to the host need a host that reads stdout and writes stdin: stream-json both ways.
  // The stdin command side (host channel, approvals, the command router) only for stream-json input:
  // a -p run never loads it, nor the protocol schemas it validates commands with.
  const streamInput = config.inputFormat === "stream-json" ? await loadStreamInput() : undefined;
  const host = streamInput ? new streamInput.HostChannel(output) : undefined;
  const approvals = approvalChannel(config, command.isStart);
  let session: Session | undefined;
  const frames = approvals === "frames" && streamInput ? new streamInput.FrameApprovals(output, () => session?.sessionId ?? "", config.approvalTimeoutMs) : undefined;
  // Bash's full outputs live in a folder of this process, removed at exit whatever the exit path.
  const toolOutputDirectory = join(tmpdir(), `agentwire-${randomUuid().slice(0, 8)}-${process.pid}`);
  process.once("exit", () => rmSync(toolOutputDirectory, { recursive: true, force: true }));
  const sessionOptions: SessionOptions = {
    ...config,
    // The flat dialect streams text as deltas, whatever --include-partial-messages says.
    includePartialMessages: config.includePartialMessages || flat !== undefined,
    maxRetries: maxRetries(process.env),
    ...streamIdleTimeout(process.env),
    ...promptSettings(command.promptFiles),
    env: process.env,
    fileSettings: command.fileSettings,
    onEvent: output,
    ...(approvals === "control" && host && streamInput ? { approve: streamInput.controlApprover(host) } : {}),
    ...(frames ? { approve: frames.approve } : {}),
    toolOutputDirectory,
    logger: log,
    notices,
  };
  const prepared = prepareSession(sessionOptions);
  // A prompt run announces its session before the tools', the loop's and the providers' code
  // loads (~25 ms): a host sees the session start at once. Not when something the session code
  // checks could still refuse the run (a --json-schema), nor before a prompt from stdin arrived,
  // nor when MCP servers are configured (init lists them once they have started).
  const mcpConfigured = Object.keys(config.mcpServers).length + config.hostMcpServers.length + config.projectSdkMcpServers.length > 0;
  const announcedEarly = config.inputFormat === "text" && command.prompt !== undefined && command.prompt.trim() !== "" && !config.outputSchema && !mcpConfigured;
  if (announcedEarly) output(await initEventBeforeSession(prepared));
  const nodeFetch = usesNodeFetch(prepared.settings.provider, config.mcpServers);
  await tuneV8ForSessions(config.inputFormat === "stream-json" ? { persistent: true } : { persistent: false, nodeFetch });
  const { createSession } = await import("../session/session.js");
  session = createSession(sessionOptions, prepared);
  for (const name of config.projectSdkMcpServers) {
    session.addMcpServer({ name, error: "not started: only the host can declare an in-process (type \"sdk\") server, in --mcp-config or initialize, not the project's .mcp.json" });
  }
  // Without stream-json input nobody answers the control requests an in-process server needs.
  if (!streamInput) for (const name of config.hostMcpServers) session.addMcpServer({ name, error: "not started: an in-process (type \"sdk\") server is served by the host, which needs --input-format stream-json" });
  if (config.outputSchema) {
    await session.setOutputSchema(config.outputSchema).catch((error: Error) => {
      throw new SessionSetupError(`--json-schema is not a valid JSON Schema: ${error.message}`, "invalid_arguments");
    });
  }

  // The prompt is read once the settings are known to work: a bad flag fails before stdin is read.
  // Piped input to a prompt argument is read while the init line goes out: a host that leaves
  // stdin open still sees the session start at once.
  const prompt = config.inputFormat === "text" ? await promptSource(command.prompt, log) : undefined;
  const signals = handleSignals(session, log, { persistent: config.inputFormat === "stream-json" });
  const running = session;
  // Nobody reads any more: stop the turn (its tools' processes die with it), keep what the session
  // file has, and leave quietly. A stuck turn cannot hold the exit for more than a few seconds.
  onStdoutClosed = () => {
    log.info("stdout was closed by its reader; ending the session");
    process.stdin.destroy();
    setTimeout(() => process.exit(EXIT_CODES.STDOUT_CLOSED), 5_000).unref();
    void running.close().finally(() => process.exit(EXIT_CODES.STDOUT_CLOSED));
  };

  if (prompt !== undefined) {
    if (!announcedEarly) {
      await session.mcpReady();
      output(await session.initEvent());
    }
    await session.runTurn(toUserMessage(await prompt.text));
  } else if (streamInput) {
    await streamInput.serveStreamInput({
      input: process.stdin,
      session,
      output,
      log,
      models: [{ value: config.model, displayName: config.model, description: `${config.provider} model` }],
      host,
      frames,
      pid: process.pid,
      announceSessionState: process.env.CLAUDE_CODE_SDK_READS_SESSION_STATE === "1",
      hostMcpServers: config.hostMcpServers,
      env: process.env,
    });
  }
  // SessionEnd hooks run before the process ends (a signal's path closes the session itself).
  if (!signals.received && !stdoutClosed) await session.close();
  signals.dispose();
  const last = results.at(-1);
  // With a JSON log the render progress is not shown; the error is a record like the rest.
  const reportError = logFormat === "json" ? (message: string) => log.error(message) : (message: string) => process.stderr.write(`Error: ${message}\n`);
  if (!stdoutClosed) writeFinalOutput(config, last, { errorShown: detailedProgress && logFormat === "text", reportError });
  if (config.outputLastMessage && last) writeLastMessage(config.outputLastMessage, last, log);
  if (stdoutClosed) return EXIT_CODES.STDOUT_CLOSED;
  if (signals.received) return EXIT_CODES[signals.received];
  return last?.is_error ? 1 : 0;
}

async function loadStreamInput() {
  const [{ HostChannel }, { controlApprover, FrameApprovals }, { serveStreamInput }] = await Promise.all([
    import("../server/host-channel.js"),
    import("../server/host-approvals.js"),
    import("../server/stream-input.js"),
  ]);
  return { HostChannel, controlApprover, FrameApprovals, serveStreamInput };
}

/**
 * A first run gets the bundled skills in $AGENTWIRE_HOME/skills, and a notice saying so. Every
 * run updates the copies an earlier version installed and nobody edited, where that version
 * granted more than the skill needs (also with --no-default-skills: it fixes, it adds nothing).
 */
function installBundledSkills(log: Logger, install: boolean): Notice[] {
  const target = join(process.env.AGENTWIRE_HOME || join(homedir(), ".agentwire"), "skills");
  const bundled = fileURLToPath(new URL("skills", PACKAGE_ROOT));
  const notices: Notice[] = [];
  try {
    const installed = install ? installDefaultSkills(bundled, target) : [];
    if (installed.length > 0) notices.push({ code: "default_skills_installed", message: `Installed the default skills (${installed.join(", ")}) into ${target}; --no-default-skills skips this.` });
    const upgraded = upgradeRetiredDefaultSkills(bundled, target);
    if (upgraded.length > 0) {
      notices.push({ code: "default_skills_updated", message: `Updated the default skills ${upgraded.join(", ")} in ${target}: their earlier versions approved more commands than they need.` });
    }
  } catch (error) {
    // An unwritable AGENTWIRE_HOME is reported once by the session (session_not_persisted).
    log.debug({ err: error, target }, "default skills not installed");
  }
  return notices;
}

type Notice = NonNullable<SessionOptions["notices"]>[number];

/** One sentence for every flag a Claude Code host passed that agentwire does not act on yet. */
function describeIgnoredFlags(flags: string[]): Notice {
  const names = flags.map((flag) => `--${flag}`);
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)!}`;
  const verb = names.length === 1 ? "is" : "are";
  return { code: "flags_ignored", message: `${list} ${verb} accepted for Claude Code compatibility but ${names.length === 1 ? "has" : "have"} no effect yet.` };
}

/** `--system-prompt[-file]` and `--append-system-prompt[-file]` as session settings. */
function promptSettings(files: Extract<ParsedCommand, { kind: "run" }>["promptFiles"]): { systemPrompt?: string; appendSystemPrompt?: string } {
  const systemPrompt = readPromptSource(files.systemPrompt, files.systemPromptFile);
  const appendSystemPrompt = readPromptSource(files.appendSystemPrompt, files.appendSystemPromptFile);
  return { ...(systemPrompt === undefined ? {} : { systemPrompt }), ...(appendSystemPrompt === undefined ? {} : { appendSystemPrompt }) };
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

/** `json` prints only the last result; `text` prints its text (errors go to stderr, unless the progress showed them). */
function writeFinalOutput(config: RunConfig, last: ResultEvent | undefined, progress: { errorShown: boolean; reportError: (message: string) => void }): void {
  if (!last || config.outputFormat === "stream-json") return;
  if (config.outputFormat === "json") {
    createLineWriter(process.stdout)(last);
    return;
  }
  if (last.is_error) {
    if (!progress.errorShown) progress.reportError((last.errors ?? ["unknown error"]).join("; "));
  } else process.stdout.write(`${finalAnswer(last)}\n`);
}

/** With --json-schema the answer is the structured output, ready for jq. */
function finalAnswer(result: ResultEvent): string {
  return result.structured_output !== undefined ? JSON.stringify(result.structured_output) : (result.result ?? "");
}

/**
 * `--output-last-message FILE` (as Codex has it): the answer of a successful last turn, whatever
 * the output format. A failed turn has no answer: the file is not written, and stderr says why.
 */
function writeLastMessage(file: string, last: ResultEvent, log: Logger): void {
  if (last.is_error) {
    log.warn(`the last turn failed; ${file} was not written.`);
    return;
  }
  try {
    writeFileSync(file, `${finalAnswer(last)}\n`);
  } catch (error) {
    log.warn(`could not write ${file}: ${(error as Error).message}`);
  }
}

async function reportStartupFailure(argv: string[], error: StartupError, startedAt: number): Promise<number> {
  process.stderr.write(`Error: ${error.message}\n`);
  const format = requestedOutputFormat(argv);
  if (format === "stream-json" || format === "json") {
    const result = buildFailureResult({
      sessionId: randomUuid(),
      terminalReason: error.terminalReason,
      message: error.message,
      durationMs: Date.now() - startedAt,
      newUuid: randomUuid,
    });
    const flat = format === "stream-json" && optionValue(argv, "--event-dialect") === "flat";
    createLineWriter(process.stdout)(flat ? (await import("../server/flat-dialect.js")).flatResult(result) : result);
  }
  return 1;
}

/** Best-effort look at argv when it could not be parsed, so even that failure is reported in-protocol. */
function requestedOutputFormat(argv: string[]): string | undefined {
  return argv[0] === "start" ? "stream-json" : optionValue(argv, "--output-format");
}

function optionValue(argv: string[], name: string): string | undefined {
  const index = argv.findIndex((argument) => argument === name || argument.startsWith(`${name}=`));
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

/**
 * How long a prompt argument waits for piped input to start. Data already written (`echo x |`,
 * `< file`) or an empty or closed stdin answer at once; only a pipe nobody writes to waits.
 */
const PIPED_INPUT_WAIT_MS = 3_000;

/**
 * The prompt of a text-input run. Without a prompt argument, stdin is the prompt, read to its end
 * (and required). With one, piped input is appended (`git diff | agentwire -p "review this"`), as
 * `claude -p` does: the returned promise settles once stdin ends, or after a short wait if no data
 * comes. A terminal is never read.
 */
async function promptSource(argument: string | undefined, log: Logger): Promise<{ text: Promise<string> }> {
  if (argument === undefined || argument.trim() === "") {
    const piped = process.stdin.isTTY ? undefined : await readStream(process.stdin);
    if (!piped?.trim()) throw new StartupError("Input must be provided either through stdin or as a prompt argument when using --print", "invalid_arguments");
    return { text: Promise.resolve(piped) };
  }
  if (process.stdin.isTTY) return { text: Promise.resolve(argument) };
  // Wrapped: an async function would otherwise wait for the piped input before returning.
  return { text: readPipedInput(PIPED_INPUT_WAIT_MS, log).then((piped) => (piped === undefined || piped.trim() === "" ? argument : `${argument}\n\n${piped}`)) };
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** All of stdin once its first bytes come within `waitMs`; undefined if none come (and stdin is let go). */
function readPipedInput(waitMs: number, log: Logger): Promise<string | undefined> {
  const stdin = process.stdin;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const giveUp = setTimeout(() => {
      stdin.off("data", onData).off("end", onEnd).off("error", onEnd);
      stdin.destroy();
      log.warn(`no input arrived on stdin within ${waitMs / 1000} s; running the prompt without it (redirect stdin from /dev/null to skip the wait).`);
      resolve(undefined);
    }, waitMs);
    const onData = (chunk: Buffer): void => {
      clearTimeout(giveUp);
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      clearTimeout(giveUp);
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    stdin.on("data", onData).once("end", onEnd).once("error", onEnd);
  });
}

/** AGENTWIRE_STREAM_IDLE_TIMEOUT_MS, when it is a positive whole number of milliseconds. */
function streamIdleTimeout(env: NodeJS.ProcessEnv): { streamIdleTimeoutMs?: number } {
  const value = Number(env.AGENTWIRE_STREAM_IDLE_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? { streamIdleTimeoutMs: value } : {};
}

function maxRetries(env: NodeJS.ProcessEnv): number {
  const value = Number(env.AGENTWIRE_MAX_RETRIES ?? env.CLAUDE_CODE_MAX_RETRIES);
  return Number.isInteger(value) && value >= 0 ? value : DEFAULT_MAX_RETRIES;
}

/**
 * SIGTERM and SIGHUP (a closed terminal or SSH session), and SIGINT in print mode, interrupt the
 * running turn, which still ends with its `result` where stdout is still open; the session closes
 * (tool processes killed, temp files removed) and the process exits with 128 + the signal number.
 * In a persistent stream-json session SIGINT is a "stop" button, as in a terminal: it interrupts
 * the running turn and the session keeps serving; SIGINT while idle exits. A second signal before
 * the turn has ended exits at once.
 */
function handleSignals(session: Session, log: Logger, mode: { persistent: boolean }): { received: HandledSignal | undefined; dispose(): void } {
  const state: { received: HandledSignal | undefined; dispose(): void } = {
    received: undefined,
    dispose() {
      for (const signal of HANDLED_SIGNALS) process.off(signal, onSignal);
    },
  };
  let interruptedTurn = false;
  function onSignal(signal: HandledSignal): void {
    log.info(`received ${signal}`);
    if (state.received) process.exit(EXIT_CODES[signal]);
    if (signal === "SIGINT" && mode.persistent && session.busy && !interruptedTurn) {
      interruptedTurn = true;
      session.interrupt();
      void session.whenIdle().then(() => (interruptedTurn = false));
      return;
    }
    state.received = signal;
    // No more input and no further turns: finish (interrupt) the running turn, then exit.
    process.stdin.destroy();
    const wasBusy = session.busy;
    const closing = session.close();
    if (!wasBusy) void closing.finally(() => process.exit(EXIT_CODES[signal]));
  }
  for (const signal of HANDLED_SIGNALS) process.on(signal, onSignal);
  return state;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`agentwire: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(EXIT_CODES.INTERNAL_ERROR);
  },
);
