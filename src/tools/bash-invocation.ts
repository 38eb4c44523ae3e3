import { randomUUID } from "../text/random-uuid.js";
import { accessSync, closeSync, constants as fileConstants, fstatSync, openSync, readSync, unlinkSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ToolContext } from "./define-tool.js";
import { toolError } from "./define-tool.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { isInsideRoots } from "./paths.js";
import { bwrapArguments, protectedCandidates, socketDirectories } from "./sandbox/bwrap-arguments.js";
import { BWRAP_INFO_ARGUMENTS, watchBwrapNamespace, type BwrapNamespace } from "./sandbox/bwrap-exit.js";
import { watchProtectedEntries } from "./sandbox/protected-entries-watch.js";
import { confinementArguments } from "./sandbox/confinement-arguments.js";
import { LOCAL_PATH_FACTS } from "./sandbox/confinement.js";
import { hardenedGitEnvironment } from "./sandbox/git-hardening.js";
import { startSupervisedProcess, type SupervisedProcess } from "../process/supervised-process.js";

/** A started command, and under bwrap the PID namespace it runs in. */
export interface InvocationProcess {
  command: SupervisedProcess;
  namespace: BwrapNamespace | undefined;
}

/**
 * Starts a planned command under supervision (its own process group, killed with agentwire),
 * from the environment a command gets: agentwire's, with the settings files' `env` over it,
 * without credentials (what `--pass-env` hands over aside), git hardened for a command judged
 * read-only. A command (or the model that wrote it) may be hostile. Bash in the foreground and
 * in the background start their commands here. Stopping the command also stops its bwrap
 * namespace, which the group signal can miss (bwrap-exit.ts).
 */
export function startInvocation(
  invocation: BashInvocation,
  context: ToolContext,
  limits: { timeoutMs: number; signal?: AbortSignal },
): InvocationProcess | { startError: Error } {
  let namespace: BwrapNamespace | undefined;
  const command = startSupervisedProcess({
    file: invocation.file,
    args: invocation.args,
    cwd: invocation.startDirectory,
    environment: {
      inherited: context.settingsEnv ? { ...process.env, ...context.settingsEnv } : process.env,
      pass: context.passEnv,
      ...(invocation.judged ? { harden: hardenedGitEnvironment } : {}),
    },
    stdin: "ignore",
    infoPipe: invocation.underBwrap,
    ...limits,
    // Called later than this function returns: on a timer, an abort, or a caller's stop.
    onStop: () => namespace?.stop(),
  });
  if ("startError" in command) return command;
  namespace = command.info === undefined ? undefined : watchBwrapNamespace(command.info);
  return { command, namespace };
}

/** Shells that understand the POSIX syntax of the wrapper below; others (fish, nu) fall back to bash. */
const POSIX_SHELL_NAMES = new Set(["bash", "zsh", "sh", "dash", "ksh"]);
const FALLBACK_SHELL = "/bin/bash";

/** How one Bash call is run: which program, under which wrapping, and where its traces go. */
export interface BashInvocation {
  file: string;
  args: string[];
  startDirectory: string;
  /** Where the shell writes the directory it ended in. */
  finalDirectoryFile: string;
  /** Approved only as read-only: runs confined, under bash, with git's code-running settings overridden. */
  confined: boolean;
  /** Judged read-only (confined or not where bwrap is missing): git is hardened either way. */
  judged: boolean;
  /** Under bwrap, which reports its namespace's init process on an extra pipe. */
  underBwrap: boolean;
  /** Protected entries bwrap could not bind (missing ones), checked and put back after the command. */
  protectedWatch: ReturnType<typeof watchProtectedEntries> | undefined;
}

/**
 * Decides how `command` runs from `startDirectory`: plainly in the user's shell, under the
 * session's sandbox, or confined because it was approved only as read-only. A confined command
 * that would start outside the workspace is refused instead.
 */
export async function planBashInvocation(
  command: string,
  context: ToolContext,
  startDirectory: string,
): Promise<BashInvocation | ToolResult> {
  // A command approved only by the read-only judgement runs under bash, the grammar it was
  // judged in, confined where bwrap works, and with git's code-running settings overridden.
  const judged = context.confinement;
  const confined = judged !== undefined && (await judged.problem()) === undefined;
  const shell = judged ? FALLBACK_SHELL : chooseShell();
  if (confined && !isInsideRoots(startDirectory, context.workspace.roots)) {
    return toolError(
      "outside_workspace",
      `The command was judged read-only, so it runs confined to the workspace, but the shell's directory ${startDirectory} is outside it. cd back into ${context.cwd} first.`,
    );
  }
  // A confined or sandboxed command can write only where bwrap lets it: its private temporary directory.
  const scratchDirectory = confined || context.sandbox ? await sandboxTempDirectory(context) : tmpdir();
  const finalDirectoryFile = path.join(scratchDirectory, `agentwire-bash-cwd-${randomUUID()}`);
  const shellCommand = [shell, "-c", wrapCommand(command, finalDirectoryFile)];
  const home = process.env.HOME;
  const sandboxed =
    context.sandbox && !confined
      ? {
          settings: context.sandbox,
          roots: context.workspace.roots,
          tempDirectory: scratchDirectory,
          cwd: startDirectory,
          command: shellCommand,
          socketDirectories: socketDirectories(home),
          home,
        }
      : undefined;
  const bwrapArgs = confined
    ? confinementArguments(
        {
          roots: context.workspace.roots,
          home,
          hidden: judged.hidden,
          tempDirectory: scratchDirectory,
          cwd: startDirectory,
          command: shellCommand,
        },
        LOCAL_PATH_FACTS,
      )
    : sandboxed
      ? bwrapArguments(sandboxed, LOCAL_PATH_FACTS.realPath)
      : undefined;
  return {
    file: bwrapArgs ? "bwrap" : shellCommand[0]!,
    args: bwrapArgs ? [...BWRAP_INFO_ARGUMENTS, ...bwrapArgs] : shellCommand.slice(1),
    startDirectory,
    finalDirectoryFile,
    confined,
    judged: judged !== undefined,
    underBwrap: bwrapArgs !== undefined,
    protectedWatch: sandboxed ? watchProtectedEntries(protectedCandidates(sandboxed, LOCAL_PATH_FACTS.realPath)) : undefined,
  };
}

/** The user's shell if it speaks POSIX and can run. Checked synchronously: one access(2), no thread-pool round trip. */
function chooseShell(): string {
  const userShell = process.env.SHELL;
  if (userShell !== undefined && POSIX_SHELL_NAMES.has(path.basename(userShell))) {
    try {
      accessSync(userShell, fileConstants.X_OK);
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
 * and at most a path's worth of bytes. Read synchronously: a few calls on a tiny local file,
 * where each asynchronous step would be a round trip through the thread pool, and each wake-up
 * waits for a turn on a busy machine (about 1 ms of every Bash call there).
 */
export function readFinalDirectory(finalDirectoryFile: string): string | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(finalDirectoryFile, fileConstants.O_RDONLY | (fileConstants.O_NOFOLLOW ?? 0) | (fileConstants.O_NONBLOCK ?? 0));
    if (!fstatSync(descriptor).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_FINAL_DIRECTORY_BYTES);
    const bytesRead = readSync(descriptor, buffer, 0, buffer.length, 0);
    const directory = buffer.toString("utf8", 0, bytesRead).replace(/\n$/, "");
    return directory.length > 0 ? directory : undefined;
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** Removes the final-directory file; one unlink, as the file is gone if the shell never wrote it. */
export function removeFinalDirectoryFile(finalDirectoryFile: string): void {
  try {
    unlinkSync(finalDirectoryFile);
  } catch {
    // Never written (the command called `exit`, or could not start): nothing to remove.
  }
}
