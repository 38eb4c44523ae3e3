import { spawn, type ChildProcessByStdio } from "node:child_process";
import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import { access, constants as fileConstants, mkdir, open, rm } from "node:fs/promises";
import { constants as osConstants, tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import * as z from "zod";
import { childEnvironment } from "../process/child-environment.js";
import { CommandOutput, createSpoolFile, HEAD_LINES, TAIL_LINES } from "./command-output.js";
import { defineTool, toolError } from "./define-tool.js";
import type { ToolContext } from "./define-tool.js";
import type { ToolErrorCode, ToolResult } from "../conversation/tool-result.js";
import { isInsideRoots } from "./paths.js";
import { releaseProcessGroupIfEmpty, stopProcessGroup, superviseProcessGroup } from "../process/process-supervisor.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";
import { bwrapArguments, protectedCandidates, socketDirectories } from "./sandbox/bwrap-arguments.js";
import { BWRAP_INFO_ARGUMENTS, BWRAP_INFO_DESCRIPTOR, namespaceInitPid, waitForNamespaceEnd } from "./sandbox/bwrap-exit.js";
import { watchProtectedEntries } from "./sandbox/protected-entries-watch.js";
import { confinementArguments } from "./sandbox/confinement-arguments.js";
import { LOCAL_PATH_FACTS } from "./sandbox/confinement.js";
import { hardenedGitEnvironment } from "./sandbox/git-hardening.js";
import { sandboxNote } from "./sandbox/sandbox-settings.js";
import { sessionSlot, type SessionState } from "./session-state.js";

const description = `Runs a shell command and returns what it printed (stdout, then stderr).

- The shell's working directory persists between calls: after \`cd\`, the next command begins there, as long as that directory still exists and lies inside the session's working directories (otherwise it begins in the session's working directory again). Nothing else persists: environment variables, functions and aliases set by one command are gone in the next.
- Absolute paths are the safer choice.
- \`timeout\` counts milliseconds: 120000 unless you set it, at most 600000. When it expires, the command and every process it started are stopped.
- stdin is closed, so a command that waits for input or asks a question cannot finish; pass non-interactive flags instead (\`--yes\`, \`-y\`, \`git rebase\` without \`-i\`).
- The call returns once the command has ended and no process holds its output open any more. A process you leave running in the background with its output redirected (\`server > server.log 2>&1 &\`) goes on after the call and is stopped when agentwire exits.
- Long output is shortened in the middle: you get the first ${HEAD_LINES} and last ${TAIL_LINES} lines of each stream, plus the path of a file with all of it, which Read (offset/limit) pages through and Grep searches.
- What a command prints is shown to you; the user may not see it.`;

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;
/** How often a running command reports progress. */
const PROGRESS_INTERVAL_MS = 1_000;
/** The directory the previous command ended in; undefined: the session's working directory. */
export const SHELL_DIRECTORY = sessionSlot<string | undefined>("bash.cwd", () => undefined);
/** Name prefix of the full-output files in the session's output directory. */
const OUTPUT_FILE_PREFIX = "bash";
const NO_OUTPUT_TEXT = "(Bash completed with no output)";
/** Shells that understand the POSIX syntax of the wrapper below; others (fish, nu) fall back to bash. */
const POSIX_SHELL_NAMES = new Set(["bash", "zsh", "sh", "dash", "ksh"]);
const FALLBACK_SHELL = "/bin/bash";
/** Told to the model when a confined command fails. */
const CONFINED_FAILURE_NOTE =
  "(This command ran without a question because it was judged read-only, and so confined: it could not write outside $TMPDIR, use the network, see the home folder or anything outside the workspace and the system's folders (programs installed under the home folder are missing). If that is why it failed, ask the user to approve it.)";
/** `tool_use_result.confinement` of a confined command: a failure may be the confinement's refusal. */
const CONFINEMENT_NOTE = {
  note: "The command was approved only because it was judged read-only, so it ran confined: it sees the system's programs and the workspace read-only, an empty home, only its own processes, no network, and can write only its TMPDIR. A \"Read-only file system\", \"No such file or directory\" outside the workspace or a failed connection may come from the confinement; approving the command explicitly runs it unconfined.",
};

const inputSchema = z
  .object({
    command: z.string().describe("Shell command line to run"),
    timeout: z
      .number()
      .positive()
      .max(MAX_TIMEOUT_MS)
      .optional()
      .describe("Milliseconds the command may run before it is stopped (default 120000, at most 600000)"),
    description: z
      .string()
      .optional()
      .describe(
        `A few words saying what the command does, for a person who may see only this line and not the command. Name the effect in plain language ("Run the unit tests", "Show recent commits"), not the command's text, flags or paths, and without judging it: no "complex", "dangerous" or "risky".

Five to ten words suit a simple command:
- ls -la → "Show all files with details"
- git log --oneline -5 → "Show the last five commits"
- npm test → "Run the test suite"

A command whose purpose is hard to see at a glance (a pipeline, unusual flags) deserves a little more:
- du -sh * | sort -h | tail -3 → "Find the three largest entries in this folder"
- git clean -fdx → "Delete every untracked and ignored file"
- grep -rl TODO src | wc -l → "Count the source files that mention TODO"`,
      ),
    // Accepted so calls written for Claude Code validate, but background jobs are not implemented
    // yet: the command runs in the foreground. Claude Code's wording would promise otherwise.
    run_in_background: z
      .boolean()
      .optional()
      .describe("Accepted for compatibility, but not supported yet: the command always runs in the foreground."),
  })
  .strict();

type StopReason = "timeout" | "aborted";
/** How a command's process ended: its exit code or signal, or why it could not start. */
interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: Error;
}

export const createBashTool = () =>
  defineTool({
  name: "Bash",
  description,
  inputSchema,
  ...BUILTIN_TOOL_TRAITS.Bash,
  async execute(input, context): Promise<ToolResult> {
    const timeoutMs = input.timeout ?? DEFAULT_TIMEOUT_MS;
    // A command approved only by the read-only judgement runs under bash, the grammar it was
    // judged in, confined where bwrap works, and with git's code-running settings overridden.
    const judged = context.confinement;
    const confined = judged !== undefined && (await judged.problem()) === undefined;
    const shell = judged ? FALLBACK_SHELL : await chooseShell();
    const startDirectory = shellStartDirectory(context.sessionState, context.cwd);
    if (confined && !isInsideRoots(startDirectory, context.workspace.roots)) {
      return toolError("outside_workspace", `The command was judged read-only, so it runs confined to the workspace, but the shell's directory ${startDirectory} is outside it. cd back into ${context.cwd} first.`);
    }
    // A confined or sandboxed command can write only where bwrap lets it: its private temporary directory.
    const scratchDirectory = confined || context.sandbox ? await sandboxTempDirectory(context) : tmpdir();
    const finalDirectoryFile = path.join(scratchDirectory, `agentwire-bash-cwd-${randomUUID()}`);
    const command = [shell, "-c", wrapCommand(input.command, finalDirectoryFile)];
    const home = process.env.HOME;
    const sandboxed = context.sandbox && !confined
      ? { settings: context.sandbox, roots: context.workspace.roots, tempDirectory: scratchDirectory, cwd: startDirectory, command, socketDirectories: socketDirectories(home), home }
      : undefined;
    const { file, args } = confined
      ? { file: "bwrap", args: confinementArguments({ roots: context.workspace.roots, home, hidden: judged.hidden, tempDirectory: scratchDirectory, cwd: startDirectory, command }, LOCAL_PATH_FACTS) }
      : sandboxed
        ? { file: "bwrap", args: bwrapArguments(sandboxed, LOCAL_PATH_FACTS.realPath) }
        : { file: command[0]!, args: command.slice(1) };
    const underBwrap = file === "bwrap";
    // Protected entries bwrap could not bind (missing ones) are checked, and put back, after the command.
    const protectedWatch = sandboxed ? watchProtectedEntries(protectedCandidates(sandboxed, LOCAL_PATH_FACTS.realPath)) : undefined;

    context.signal.throwIfAborted();
    const startedAt = Date.now();
    // detached: the shell (or bwrap around it) leads its own process group, so one signal to the
    // group reaches every process the command started, including `&` jobs and pipelines.
    // Node's spawn rather than execa: the output is captured by hand below (head and tail), the
    // process group is supervised and stopped by process-supervisor.ts, so execa would only add
    // its load and first-call cost (~15 ms on the session's first command).
    let subprocess;
    try {
      // Without agentwire's credentials: a command (or the model that wrote it) may be hostile.
      subprocess = spawn(file, underBwrap ? [...BWRAP_INFO_ARGUMENTS, ...args] : args, {
        cwd: startDirectory,
        detached: true,
        stdio: ["ignore", "pipe", "pipe", underBwrap ? "pipe" : "ignore"],
        env: judged ? hardenedGitEnvironment(childEnvironment(withSettingsEnv(context), context.passEnv)) : childEnvironment(withSettingsEnv(context), context.passEnv),
      }) as ChildProcessByStdio<null, Readable, Readable>; // stdout and stderr are pipes: the type cannot tell with a fourth descriptor

    } catch (error) {
      // Some failures throw at once instead of emitting 'error' (E2BIG for a command over the
      // kernel's argument limit, ENOTDIR): the same answer as a shell that cannot start.
      return toolError("io_error", `Could not start ${file} in ${startDirectory}: ${(error as Error).message}`);
    }
    let bwrapInfo = "";
    subprocess.stdio[BWRAP_INFO_DESCRIPTOR]?.on("data", (chunk: Buffer) => (bwrapInfo += chunk.toString()));
    const finished = new Promise<ProcessEnd>((resolve) => {
      subprocess.once("close", (code, signal) => resolve({ code, signal }));
      // A command that could not start emits 'error' and never 'close'.
      subprocess.on("error", (error) => {
        if (subprocess.pid === undefined) resolve({ code: null, signal: null, error });
      });
    });
    if (subprocess.pid !== undefined) superviseProcessGroup(subprocess.pid);
    const output = new CommandOutput(() => createSpoolFile(context.outputDirectory, OUTPUT_FILE_PREFIX), {
      pause: () => {
        subprocess.stdout.pause();
        subprocess.stderr.pause();
      },
      resume: () => {
        subprocess.stdout.resume();
        subprocess.stderr.resume();
      },
    });
    subprocess.stdout.on("data", (chunk: Buffer) => output.append("stdout", chunk));
    subprocess.stderr.on("data", (chunk: Buffer) => output.append("stderr", chunk));

    let stopReason: StopReason | undefined;
    const stop = (reason: StopReason): void => {
      if (stopReason !== undefined || subprocess.pid === undefined) return;
      stopReason = reason;
      stopProcessGroup(subprocess.pid);
    };
    const timeoutTimer = setTimeout(() => stop("timeout"), timeoutMs);
    const onAbort = (): void => stop("aborted");
    context.signal.addEventListener("abort", onAbort, { once: true });
    const progressTimer = context.onProgress === undefined ? undefined : setInterval(() => reportProgress(context, output, startedAt), PROGRESS_INTERVAL_MS);

    let result;
    let directoryNote = "";
    let undone: string[] = [];
    try {
      result = await finished;
      // bwrap is gone; what the command left in its namespace may take a moment more.
      const namespaceInit = underBwrap ? namespaceInitPid(bwrapInfo) : undefined;
      if (namespaceInit !== undefined) await waitForNamespaceEnd(namespaceInit);
      undone = protectedWatch?.undoChanges() ?? [];
      await output.finish();
      directoryNote = await rememberFinalDirectory(context, await readFinalDirectory(finalDirectoryFile));
    } finally {
      clearTimeout(timeoutTimer);
      clearInterval(progressTimer);
      context.signal.removeEventListener("abort", onAbort);
      if (subprocess.pid !== undefined) releaseProcessGroupIfEmpty(subprocess.pid);
      await rm(finalDirectoryFile, { force: true });
    }

    if (subprocess.pid === undefined) {
      const reason = result.error?.message ?? "unknown error";
      return toolError("io_error", `Could not start ${file} in ${startDirectory}: ${reason}`);
    }

    const stdout = trimTrailingNewlines(output.stdout.text());
    const stderr = trimTrailingNewlines(output.stderr.text());
    const fullOutputPath = output.fullOutputPath;
    const exitCode = result.code ?? signalExitCode(result.signal);
    // The model cannot tell a confinement's refusal from the command's own failure: say what it was under.
    const confinedFailure = confined && exitCode !== 0 ? CONFINED_FAILURE_NOTE : "";
    const combined = joinNonEmpty([stdout, stderr, fullOutputNote(output), directoryNote, protectedNote(undone), confinedFailure]);
    const details = {
      stdout,
      stderr,
      interrupted: stopReason !== undefined,
      isImage: false,
      noOutputExpected: false,
      exitCode,
      // agentwire extension: where the full output is, when it was too long to show.
      ...(fullOutputPath === undefined ? {} : { fullOutputPath }),
      // agentwire extension: the command was confined, so a failure may be the confinement's doing.
      ...(confined ? { confinement: CONFINEMENT_NOTE } : context.sandbox ? { sandbox: { ...sandboxNote(context.sandbox), ...(undone.length > 0 ? { undone } : {}) } } : {}),
    };

    if (stopReason === "timeout") {
      const message = `Command timed out after ${timeoutMs} ms; it and every process it started were stopped.`;
      return stoppedResult("timeout", joinNonEmpty([combined, message]), details);
    }
    if (stopReason === "aborted") {
      const message = "Command was aborted before it finished; it and every process it started were stopped.";
      return stoppedResult("aborted", joinNonEmpty([combined, message]), details);
    }
    if (exitCode !== 0) {
      // No ToolErrorCode fits a command that ran and failed: the tool worked, the command did not.
      return { content: joinNonEmpty([combined, `Exit code ${exitCode}`]), isError: true, code: "command_failed", details };
    }
    return { content: combined.length > 0 ? combined : NO_OUTPUT_TEXT, isError: false, details };
  },
});

/** Tells the model which protected paths the sandbox put back as they were, and why. */
function protectedNote(undone: readonly string[]): string {
  if (undone.length === 0) return "";
  return `(The sandbox undid what the command did to ${undone.join(", ")}: these paths make agents, git or the shell run code later, so sandboxed commands may not create or change them. Ask the user to make such a change.)`;
}

function reportProgress(context: ToolContext, output: CommandOutput, startedAt: number): void {
  const elapsedMs = Date.now() - startedAt;
  context.onProgress?.({
    message: `Running for ${Math.round(elapsedMs / 1000)} s: ${output.totalBytes} bytes (${output.totalLines} lines) of output so far`,
    elapsedMs,
    details: { outputBytes: output.totalBytes, outputLines: output.totalLines },
  });
}

/** Tells the model where the rest of a long output is, or why it could not be kept. */
function fullOutputNote(output: CommandOutput): string {
  if (!output.stdout.isTruncated && !output.stderr.isTruncated) return "";
  const size = `${output.totalLines} lines, ${output.totalBytes} bytes`;
  if (output.fullOutputPath !== undefined) {
    return `(Output too long to show whole. The full output (${size}, stdout and stderr interleaved) is in ${output.fullOutputPath}; page through it with Read offset/limit or search it with Grep.)`;
  }
  return `(Output too long to show whole (${size}); the full output could not be saved: ${output.spoolError ?? "unknown error"}. Redirect to a file inside the working directory to keep it.)`;
}

/**
 * Keeps the directory the command ended in for the next call, if it is inside the workspace;
 * otherwise the next call starts in the session's working directory again (as Claude Code does),
 * and the model is told.
 */
async function rememberFinalDirectory(context: ToolContext, finalDirectory: string | undefined): Promise<string> {
  if (finalDirectory === undefined) return "";
  const allowed = context.workspace.allowOutside || (await isInsideRoots(finalDirectory, context.workspace.roots));
  if (allowed) {
    context.sessionState.set(SHELL_DIRECTORY, finalDirectory);
    return "";
  }
  context.sessionState.clear(SHELL_DIRECTORY);
  return `Shell cwd was reset to ${context.cwd}`;
}

/** agentwire's environment, with the settings files' `env` over it. */
function withSettingsEnv(context: ToolContext): NodeJS.ProcessEnv {
  return context.settingsEnv ? { ...process.env, ...context.settingsEnv } : process.env;
}

async function chooseShell(): Promise<string> {
  const userShell = process.env.SHELL;
  if (userShell !== undefined && POSIX_SHELL_NAMES.has(path.basename(userShell))) {
    try {
      await access(userShell, fileConstants.X_OK);
      return userShell;
    } catch {
      // SHELL points at something missing or not executable: use the fallback.
    }
  }
  return FALLBACK_SHELL;
}

/**
 * The session's private temporary directory for sandboxed commands (their TMPDIR), inside the
 * tool output directory, so it is removed with it and files a command leaves there last as long
 * as the session.
 */
async function sandboxTempDirectory(context: ToolContext): Promise<string> {
  const directory = path.join(context.outputDirectory, "tmp");
  await mkdir(directory, { recursive: true, mode: 0o700 });
  // Its real path: bwrap binds it there, and a symlink on the way may lie in a covered folder.
  return LOCAL_PATH_FACTS.realPath(directory) ?? directory;
}

/**
 * Where the next command of this session starts: where the previous one ended, unless that
 * directory has gone since, else the session's directory. Exported for the permission checks
 * that depend on it (git's configuration is the repository's around this directory).
 */
export function shellStartDirectory(sessionState: SessionState, cwd: string): string {
  const previous = sessionState.get(SHELL_DIRECTORY);
  if (previous !== undefined) {
    try {
      if (statSync(previous).isDirectory()) return previous;
    } catch {
      // Removed or unreadable: start over from the session directory.
    }
  }
  return cwd;
}

/**
 * Appends a trailer that records the shell's final directory and keeps the command's exit status.
 * The trailer sits on its own line so a trailing comment or a missing `;` in the command cannot
 * swallow it. A command that calls `exit` itself skips it, and the directory stays as it was.
 */
function wrapCommand(command: string, finalDirectoryFile: string): string {
  return `${command}\n__agentwire_status=$?; pwd -P > ${quoteForShell(finalDirectoryFile)}; exit $__agentwire_status`;
}

function quoteForShell(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Longest final directory read back: a path, never more. */
const MAX_FINAL_DIRECTORY_BYTES = 4096;

/**
 * The directory the command ended in, from the file its shell wrote. A sandboxed command can
 * replace that file (it lives in its TMPDIR): with a FIFO to hang agentwire, or a link to
 * /dev/zero to fill its memory. So: no following links, no blocking open, a regular file only,
 * and at most a path's worth of bytes.
 */
async function readFinalDirectory(finalDirectoryFile: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(finalDirectoryFile, fileConstants.O_RDONLY | (fileConstants.O_NOFOLLOW ?? 0) | (fileConstants.O_NONBLOCK ?? 0));
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_FINAL_DIRECTORY_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const directory = buffer.toString("utf8", 0, bytesRead).replace(/\n$/, "");
    return directory.length > 0 ? directory : undefined;
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

/** Shell convention: a process ended by signal N reports status 128 + N. */
function signalExitCode(signal: NodeJS.Signals | null): number {
  const signalNumber = signal === null ? undefined : osConstants.signals[signal];
  return signalNumber === undefined ? 1 : 128 + signalNumber;
}

function stoppedResult(code: ToolErrorCode, content: string, details: Record<string, unknown>): ToolResult {
  return { ...toolError(code, content), details };
}

function trimTrailingNewlines(text: string): string {
  return text.replace(/(\r?\n)+$/, "");
}

function joinNonEmpty(parts: string[]): string {
  return parts.filter((part) => part.length > 0).join("\n");
}
