import { randomUUID } from "../text/random-uuid.js";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { OutputEvent, ResultEvent } from "../../protocol/events.js";
import type { RunConfig } from "./config.js";
import { EXIT_CODES, handleSignals, stdoutState } from "./exit-paths.js";
import { writeFinalOutput, writeLastMessage } from "./final-output.js";
import { chooseLogFormat, createLogger, type LogFormat, type Logger } from "./log.js";
import type { ParsedCommand } from "./parsed-command.js";
import { promptSettings, promptSource } from "./prompt-input.js";
import { routeConsoleToLog } from "./route-console-to-log.js";
import { describeIgnoredFlags, installBundledSkills } from "./run-notices.js";
import { createLoggedProgress, createTextProgress } from "./text-progress.js";
import { tuneV8ForSessions, usesNodeFetch } from "./v8-settings.js";
import { MULTI_REQUEST_RUN, noteRunCoverage } from "./code-cache-hooks.js";
import { createLineWriter } from "../server/jsonl.js";
import { initEventBeforeSession, prepareSession } from "../session/prepare-session.js";
import type { Session } from "../session/session.js";
import { DEFAULT_MAX_RETRIES, SessionSetupError, type SessionOptions } from "../session/session-options.js";
import { toUserMessage } from "../session/user-input.js";
import { awaitBackgroundTasks, backgroundWaitMs } from "./background-wait.js";

type RunCommand = Extract<ParsedCommand, { kind: "run" }>;
type StreamInput = Awaited<ReturnType<typeof loadStreamInput>>;

/**
 * A run without a person at a terminal: one prompt (`-p`), or stream-json commands on stdin
 * until it closes. Returns the exit code.
 */
export async function runHeadless(command: RunCommand, packageRoot: URL): Promise<number> {
  const config = { ...command.config, cwd: resolve(command.config.cwd) };
  const logFormat = chooseLogFormat(process.env, config.debug, process.stderr.isTTY === true);
  const log = createLogger(config.debug ? "debug" : process.env.AGENTWIRE_LOG_LEVEL, logFormat);
  routeConsoleToLog(log);
  const notices = [
    ...(config.skills ? installBundledSkills(log, config.defaultSkills, packageRoot) : []),
    ...(command.ignoredFlags.length > 0 ? [describeIgnoredFlags(command.ignoredFlags)] : []),
  ];
  const events = await eventOutput(config, log, logFormat);
  const started: { session?: Session } = {};
  const host = await hostSide(config, command.isStart, events.output, () => started.session?.sessionId ?? "");
  // Bash's full outputs live in a folder of this process, removed at exit whatever the exit path.
  const toolOutputDirectory = join(tmpdir(), `agentwire-${randomUUID().slice(0, 8)}-${process.pid}`);
  process.once("exit", () => rmSync(toolOutputDirectory, { recursive: true, force: true }));
  const sessionOptions: SessionOptions = {
    ...config,
    // The flat dialect streams text as deltas, whatever --include-partial-messages says.
    includePartialMessages: config.includePartialMessages || events.flat,
    maxRetries: maxRetries(process.env),
    ...streamIdleTimeout(process.env),
    ...promptSettings(command.promptFiles),
    env: process.env,
    fileSettings: command.fileSettings,
    onEvent: events.output,
    ...(host.approve ? { approve: host.approve } : {}),
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
  const announcedEarly =
    config.inputFormat === "text" && command.prompt !== undefined && command.prompt.trim() !== "" && !config.outputSchema && !mcpConfigured;
  if (announcedEarly) events.output(await initEventBeforeSession(prepared));
  const session = await startSession(config, sessionOptions, prepared, host.streamInput);
  started.session = session;

  // The prompt is read once the settings are known to work: a bad flag fails before stdin is read.
  // Piped input to a prompt argument is read while the init line goes out: a host that leaves
  // stdin open still sees the session start at once.
  const prompt = config.inputFormat === "text" ? await promptSource(command.prompt, log) : undefined;
  const signals = handleSignals(session, log, { persistent: config.inputFormat === "stream-json" });
  // Nobody reads any more: stop the turn (its tools' processes die with it), keep what the session
  // file has, and leave quietly. A stuck turn cannot hold the exit for more than a few seconds.
  stdoutState.onClosed = () => {
    log.info("stdout was closed by its reader; ending the session");
    process.stdin.destroy();
    setTimeout(() => process.exit(EXIT_CODES.STDOUT_CLOSED), 5_000).unref();
    void session.close().finally(() => process.exit(EXIT_CODES.STDOUT_CLOSED));
  };

  await serve({ config, session, output: events.output, host, log, prompt, announcedEarly });
  const errorShown = events.detailedProgress && logFormat === "text";
  return finish({ config, session, signals, log, logFormat, results: events.results, errorShown });
}

/** The prompt's one turn, or the stdin commands until stdin closes. */
async function serve(run: {
  config: RunConfig;
  session: Session;
  output: (event: OutputEvent) => void;
  host: Awaited<ReturnType<typeof hostSide>>;
  log: Logger;
  prompt: { text: Promise<string> } | undefined;
  announcedEarly: boolean;
}): Promise<void> {
  const { config, session, output, host, log, prompt } = run;
  if (prompt !== undefined) {
    if (!run.announcedEarly) {
      await session.mcpReady();
      output(await session.initEvent());
    }
    await session.runTurn(toUserMessage(await prompt.text));
    await awaitBackgroundTasks(session, output, log, backgroundWaitMs(process.env));
  } else if (host.streamInput) {
    await host.streamInput.serveStreamInput({
      input: process.stdin,
      session,
      output,
      log,
      models: [{ value: config.model, displayName: config.model, description: `${config.provider} model` }],
      host: host.channel,
      frames: host.frames,
      pid: process.pid,
      announceSessionState: process.env.CLAUDE_CODE_SDK_READS_SESSION_STATE === "1",
      hostMcpServers: config.hostMcpServers,
      env: process.env,
    });
    // stdin has ended, but tasks the model started may still have something to tell it.
    await awaitBackgroundTasks(session, output, log, backgroundWaitMs(process.env));
  }
}

/** After the last turn: the session closed, the answer written where it goes, and the exit code. */
async function finish(run: {
  config: RunConfig;
  session: Session;
  signals: ReturnType<typeof handleSignals>;
  log: Logger;
  logFormat: LogFormat;
  results: readonly ResultEvent[];
  errorShown: boolean;
}): Promise<number> {
  const { config, signals, log } = run;
  // SessionEnd hooks run before the process ends (a signal's path closes the session itself).
  if (!signals.received && !stdoutState.closed) await run.session.close();
  signals.dispose();
  const last = run.results.at(-1);
  // With a JSON log the render progress is not shown; the error is a record like the rest.
  const reportError =
    run.logFormat === "json" ? (message: string) => log.error(message) : (message: string) => process.stderr.write(`Error: ${message}\n`);
  if (!stdoutState.closed) writeFinalOutput(config, last, { errorShown: run.errorShown, reportError });
  if (config.outputLastMessage && last) writeLastMessage(config.outputLastMessage, last, log);
  if (stdoutState.closed) return EXIT_CODES.STDOUT_CLOSED;
  if (signals.received) return EXIT_CODES[signals.received];
  return last?.is_error ? 1 : 0;
}

/**
 * Where the run's events go. In text and json modes stdout holds only the answer. What happens
 * meanwhile goes to stderr in text mode, for the person watching; json mode is for programs, so
 * stderr stays empty there, as Claude Code's does, and the log has it. When stderr is a JSON log,
 * text mode's notices are records in it, not lines of another shape among them.
 */
async function eventOutput(config: RunConfig, log: Logger, logFormat: LogFormat) {
  const writeLine = createLineWriter(process.stdout);
  const results: ResultEvent[] = [];
  const detailedProgress = config.outputFormat === "text" && (config.verbose || process.stderr.isTTY === true);
  const progress =
    config.outputFormat === "stream-json"
      ? undefined
      : config.outputFormat === "json"
        ? createLoggedProgress(log, "info")
        : logFormat === "json"
          ? createLoggedProgress(log, "warn")
          : await createTextProgress({
              detailed: detailedProgress,
              stderr: process.stderr,
              stdoutIsTerminal: process.stdout.isTTY === true,
              env: process.env,
            });
  const flat =
    config.outputFormat === "stream-json" && config.eventDialect === "flat"
      ? (await import("../session/wire/flat-dialect.js")).createFlatTranslator()
      : undefined;
  const output = (event: OutputEvent): void => {
    if (event.type === "result") {
      results.push(event);
      if (event.num_turns > 1) noteRunCoverage(MULTI_REQUEST_RUN);
    }
    if (progress) progress(event);
    else if (stdoutState.closed) return;
    else if (flat) for (const line of flat(event)) writeLine(line);
    else writeLine(event);
  };
  return { output, results, detailedProgress, flat: flat !== undefined };
}

/**
 * The host's side of a stream-json run: the stdin command side, and who answers permission
 * questions. Control requests to the host need a host that reads stdout and writes stdin:
 * stream-json both ways. The stdin side (host channel, approvals, the command router) loads only
 * for stream-json input: a -p run never loads it, nor the protocol schemas it validates commands with.
 */
async function hostSide(config: RunConfig, isStart: boolean, output: (event: OutputEvent) => void, sessionId: () => string) {
  const streamInput = config.inputFormat === "stream-json" ? await loadStreamInput() : undefined;
  const channel = streamInput ? new streamInput.HostChannel(output) : undefined;
  const approvals = approvalChannel(config, isStart);
  const frames =
    approvals === "frames" && streamInput ? new streamInput.FrameApprovals(output, sessionId, config.approvalTimeoutMs) : undefined;
  const approve = approvals === "control" && channel && streamInput ? streamInput.controlApprover(channel) : frames?.approve;
  return { streamInput, channel, frames, approve };
}

/** The session itself, once its code has loaded, with what the command line could not start. */
async function startSession(
  config: RunConfig,
  options: SessionOptions,
  prepared: ReturnType<typeof prepareSession>,
  streamInput: StreamInput | undefined,
): Promise<Session> {
  const nodeFetch = usesNodeFetch(prepared.settings.provider, config.mcpServers);
  await tuneV8ForSessions(config.inputFormat === "stream-json" ? { persistent: true } : { persistent: false, nodeFetch });
  const { createSession } = await import("../session/session.js");
  const session = createSession(options, prepared);
  for (const name of config.projectSdkMcpServers) {
    session.addMcpServer({
      name,
      error:
        'not started: only the host can declare an in-process (type "sdk") server, in --mcp-config or initialize, not the project\'s .mcp.json',
    });
  }
  // Without stream-json input nobody answers the control requests an in-process server needs.
  if (!streamInput)
    for (const name of config.hostMcpServers)
      session.addMcpServer({
        name,
        error: 'not started: an in-process (type "sdk") server is served by the host, which needs --input-format stream-json',
      });
  if (config.outputSchema) {
    await session.setOutputSchema(config.outputSchema).catch((error: Error) => {
      throw new SessionSetupError(`--json-schema is not a valid JSON Schema: ${error.message}`, "invalid_arguments");
    });
  }
  return session;
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

/** AGENTWIRE_STREAM_IDLE_TIMEOUT_MS, when it is a positive whole number of milliseconds. */
function streamIdleTimeout(env: NodeJS.ProcessEnv): { streamIdleTimeoutMs?: number } {
  const value = Number(env.AGENTWIRE_STREAM_IDLE_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? { streamIdleTimeoutMs: value } : {};
}

function maxRetries(env: NodeJS.ProcessEnv): number {
  const value = Number(env.AGENTWIRE_MAX_RETRIES ?? env.CLAUDE_CODE_MAX_RETRIES);
  return Number.isInteger(value) && value >= 0 ? value : DEFAULT_MAX_RETRIES;
}
