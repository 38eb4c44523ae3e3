import { statSync } from "node:fs";
import { prepareLauncher } from "../process/launcher.js";
import * as z from "zod/mini";
import "../validation/english-issues.js";
import { captureCommandOutput, createSpoolFile, HEAD_LINES, TAIL_LINES, type CommandOutput } from "../process/command-output.js";
import { defineTool, toolError } from "./define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";
import type { ToolContext } from "./define-tool.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { isInsideRoots } from "./paths.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";
import {
  startInvocation,
  planBashInvocation,
  readFinalDirectory,
  removeFinalDirectoryFile,
  type BashInvocation,
} from "./bash-invocation.js";
import { bashResult, type BashRun } from "./bash-result.js";
import { sessionSlot, type SessionState } from "./session-state.js";

const description = `Runs a shell command and returns what it printed (stdout, then stderr).

- The shell's working directory persists between calls: after \`cd\`, the next command begins there, as long as that directory still exists and lies inside the session's working directories (otherwise it begins in the session's working directory again). Nothing else persists: environment variables, functions and aliases set by one command are gone in the next.
- Absolute paths are the safer choice.
- \`timeout\` counts milliseconds: 120000 unless you set it, at most 600000. When it expires, the command and every process it started are stopped.
- stdin is closed, so a command that waits for input or asks a question cannot finish; pass non-interactive flags instead (\`--yes\`, \`-y\`, \`git rebase\` without \`-i\`).
- The call returns once the command has ended and no process holds its output open any more. For a server or a long build, set \`run_in_background\`: the call returns at once with a task id and an output file (Read shows what it printed so far), you are told when it ends, and TaskStop stops it. A process you leave running in the background with its output redirected (\`server > server.log 2>&1 &\`) goes on after the call too; either way it is stopped when agentwire exits.
- Long output is shortened in the middle: you get the first ${HEAD_LINES} and last ${TAIL_LINES} lines of each stream, plus the path of a file with all of it, which Read (offset/limit) pages through and Grep searches.
- What a command prints is shown to you; the user may not see it.`;

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;
const DEFAULT_BACKGROUND_TIMEOUT_MS = 600_000;
const MAX_BACKGROUND_TIMEOUT_MS = 7_200_000;
/** How often a running command reports progress. */
const PROGRESS_INTERVAL_MS = 1_000;
/** The directory the previous command ended in; undefined: the session's working directory. */
export const SHELL_DIRECTORY = sessionSlot<string | undefined>("bash.cwd", () => undefined);
/** Name prefix of the full-output files in the session's output directory. */
const OUTPUT_FILE_PREFIX = "bash";
const inputSchema = lazySchema(() =>
  z.strictObject({
    command: z.string().check(z.describe("Shell command line to run")),
    timeout: z
      .optional(z.number().check(z.positive(), z.maximum(MAX_BACKGROUND_TIMEOUT_MS)))
      .check(z.describe("Milliseconds the command may run before it is stopped (default 120000, at most 600000 in the foreground)")),
    description: z.optional(z.string()).check(
      z.describe(
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
    ),
    run_in_background: z
      .optional(z.boolean())
      .check(
        z.describe(
          `Start the command and return at once with a task id and the file its output goes to; you are told when it ends. With it, \`timeout\` is how long it may run before it is stopped (default ${DEFAULT_BACKGROUND_TIMEOUT_MS}, at most ${MAX_BACKGROUND_TIMEOUT_MS}).`,
        ),
      ),
  }),
);

export const createBashTool = () =>
  defineTool({
    name: "Bash",
    description,
    get inputSchema() {
      return inputSchema();
    },
    ...BUILTIN_TOOL_TRAITS.Bash,
    prepare: prepareLauncher,
    async execute(input, context): Promise<ToolResult> {
      const background = input.run_in_background === true;
      if (!background && input.timeout !== undefined && input.timeout > MAX_TIMEOUT_MS)
        return toolError("invalid_input", `timeout may be at most ${MAX_TIMEOUT_MS} ms for a command in the foreground.`);
      const timeoutMs = input.timeout ?? (background ? DEFAULT_BACKGROUND_TIMEOUT_MS : DEFAULT_TIMEOUT_MS);
      const startDirectory = shellStartDirectory(context.sessionState, context.cwd);
      const invocation = await planBashInvocation(input.command, context, startDirectory);
      if (!("file" in invocation)) return invocation;
      context.signal.throwIfAborted();
      if (background) {
        const { startBackgroundCommand } = await import("./background/background-command.js");
        return startBackgroundCommand(invocation, context, { command: input.command, description: input.description, timeoutMs });
      }
      const run = await runInvocation(invocation, context, timeoutMs);
      return "end" in run ? bashResult(invocation, run, context, timeoutMs) : run;
    },
  });

/**
 * Runs the command to its end and past it: what bwrap left in its namespace, the protected
 * entries to put back, the spool file, the directory the shell ended in. Resolves with an error
 * result when the program could not start.
 */
async function runInvocation(invocation: BashInvocation, context: ToolContext, timeoutMs: number): Promise<BashRun | ToolResult> {
  const startedAt = Date.now();
  const started = startInvocation(invocation, context, { timeoutMs, signal: context.signal });
  if ("startError" in started) return couldNotStart(invocation, started.startError.message);
  const { command, namespace } = started;
  const output = captureCommandOutput(command, () => createSpoolFile(context.outputDirectory, OUTPUT_FILE_PREFIX));
  const progressTimer =
    context.onProgress === undefined ? undefined : setInterval(() => reportProgress(context, output, startedAt), PROGRESS_INTERVAL_MS);
  try {
    const end = await command.ended;
    // bwrap is gone; what the command left in its namespace may take a moment more.
    await namespace?.ended();
    const undone = invocation.protectedWatch?.undoChanges() ?? [];
    await output.finish();
    const directoryNote = await rememberFinalDirectory(context, readFinalDirectory(invocation.finalDirectoryFile));
    if (command.pid === undefined) return couldNotStart(invocation, end.error?.message ?? "unknown error");
    return { end, stopReason: command.stopReason, output, directoryNote, undone };
  } finally {
    clearInterval(progressTimer);
    command.release();
    removeFinalDirectoryFile(invocation.finalDirectoryFile);
  }
}

/** A shell (or bwrap) that could not start: E2BIG for a command over the kernel's argument limit, ENOTDIR, ENOENT. */
function couldNotStart(invocation: BashInvocation, reason: string): ToolResult {
  return toolError("io_error", `Could not start ${invocation.file} in ${invocation.startDirectory}: ${reason}`);
}

function reportProgress(context: ToolContext, output: CommandOutput, startedAt: number): void {
  const elapsedMs = Date.now() - startedAt;
  context.onProgress?.({
    message: `Running for ${Math.round(elapsedMs / 1000)} s: ${output.totalBytes} bytes (${output.totalLines} lines) of output so far`,
    elapsedMs,
    details: { outputBytes: output.totalBytes, outputLines: output.totalLines },
  });
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
