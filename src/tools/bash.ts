import { randomUUID } from "node:crypto";
import { access, constants as fileConstants, readFile, rm, stat } from "node:fs/promises";
import { constants as osConstants, tmpdir } from "node:os";
import path from "node:path";
import { z } from "zod";
import { defineTool, toolError } from "./define-tool.js";
import type { ToolContext, ToolErrorCode, ToolResult } from "./define-tool.js";

const description = `Executes a shell command and returns its output (stdout, then stderr).

- The working directory carries over between calls: after \`cd\`, the next command starts in the new directory (if it still exists). Shell state (environment variables, functions, aliases) does not carry over.
- Prefer absolute paths.
- \`timeout\` is in milliseconds: default 120000, max 600000. When it runs out, the command and every process it started are stopped.
- stdin is closed, so interactive commands and prompts cannot work; use non-interactive flags (\`--yes\`, \`-y\`, \`git rebase\` without \`-i\`).
- Commands always run in the foreground, and the call returns only when every process still holding the output has finished; do not start servers or watchers with \`&\`.
- Output over about 15000 characters at the start and end of each stream is cut in the middle; redirect to a file and Read it in parts when you need everything.
- Command output is shown to you, not reliably to the user.`;

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;
/** Time a process group gets to exit after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 1_000;
/**
 * Per stream, the model sees at most this much from the start and from the end of the output.
 * Only these bytes are held in memory, however much the command prints; a later issue spools the
 * full output to disk.
 */
const HEAD_BYTES = 15_000;
const TAIL_BYTES = 15_000;
const NEWLINE_BYTE = 0x0a;
/** ToolContext.sessionState key holding the directory the previous command ended in. */
const WORKING_DIRECTORY_STATE_KEY = "bash.cwd";
const NO_OUTPUT_TEXT = "(Bash completed with no output)";
/** Shells that understand the POSIX syntax of the wrapper below; others (fish, nu) fall back to bash. */
const POSIX_SHELL_NAMES = new Set(["bash", "zsh", "sh", "dash", "ksh"]);
const FALLBACK_SHELL = "/bin/bash";

const inputSchema = z
  .object({
    command: z.string().describe("The command to execute"),
    timeout: z
      .number()
      .positive()
      .max(MAX_TIMEOUT_MS)
      .optional()
      .describe("Optional timeout in milliseconds (max 600000 for a foreground command)"),
    description: z
      .string()
      .optional()
      .describe(
        `Clear, concise description of what this command does in active voice. Never use words like "complex" or "risk" in the description - just describe what it does.

Say what the command does in plain words: do not echo the command's text, its flags, or file paths - the user reads this description, often without seeing the command.

For simple commands (git, npm, standard CLI tools), keep it brief (5-10 words):
- ls → "List files in current directory"
- git status → "Show working tree status"
- npm install → "Install package dependencies"

For commands that are harder to parse at a glance (piped commands, obscure flags, etc.), add enough context to clarify what it does:
- find . -name "*.tmp" -exec rm {} \\; → "Find and delete all .tmp files recursively"
- git reset --hard origin/main → "Discard all local changes and match remote main"
- curl -s url | jq '.data[]' → "Fetch JSON from URL and extract data array elements"`,
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

export const bashTool = defineTool({
  name: "Bash",
  description,
  inputSchema,
  readOnly: false,
  async execute(input, context): Promise<ToolResult> {
    const timeoutMs = input.timeout ?? DEFAULT_TIMEOUT_MS;
    const shell = await chooseShell();
    const startDirectory = await startingDirectory(context);
    const finalDirectoryFile = path.join(tmpdir(), `agentwire-bash-cwd-${randomUUID()}`);
    const stdoutCapture = new OutputCapture();
    const stderrCapture = new OutputCapture();

    context.signal.throwIfAborted();
    // Loaded on first use: most runs never call Bash, and execa is a large part of start-up.
    const { execa } = await import("execa");
    // detached: the shell leads its own process group, so one signal to the group reaches every
    // process the command started, including `&` jobs and pipelines.
    const subprocess = execa(shell, ["-c", wrapCommand(input.command, finalDirectoryFile)], {
      cwd: startDirectory,
      detached: true,
      stdin: "ignore",
      // Captured by hand below: execa's own buffering keeps everything, ours keeps head and tail.
      buffer: false,
      reject: false,
    });
    subprocess.stdout.on("data", (chunk: Buffer) => stdoutCapture.append(chunk));
    subprocess.stderr.on("data", (chunk: Buffer) => stderrCapture.append(chunk));

    let stopReason: StopReason | undefined;
    const stop = (reason: StopReason): void => {
      if (stopReason !== undefined || subprocess.pid === undefined) return;
      stopReason = reason;
      killProcessGroup(subprocess.pid);
    };
    const timeoutTimer = setTimeout(() => stop("timeout"), timeoutMs);
    const onAbort = (): void => stop("aborted");
    context.signal.addEventListener("abort", onAbort, { once: true });

    let result;
    try {
      result = await subprocess;
      const finalDirectory = await readFinalDirectory(finalDirectoryFile);
      if (finalDirectory !== undefined) context.sessionState.set(WORKING_DIRECTORY_STATE_KEY, finalDirectory);
    } finally {
      clearTimeout(timeoutTimer);
      context.signal.removeEventListener("abort", onAbort);
      await rm(finalDirectoryFile, { force: true });
    }

    if (subprocess.pid === undefined) {
      const reason = result.originalMessage ?? result.shortMessage ?? "unknown error";
      return toolError("io_error", `Could not start ${shell} in ${startDirectory}: ${reason}`);
    }

    const stdout = trimTrailingNewlines(stdoutCapture.text());
    const stderr = trimTrailingNewlines(stderrCapture.text());
    const output = joinNonEmpty([stdout, stderr]);
    const exitCode = result.exitCode ?? signalExitCode(result.signal);
    const details = {
      stdout,
      stderr,
      interrupted: stopReason !== undefined,
      isImage: false,
      noOutputExpected: false,
      exitCode,
    };

    if (stopReason === "timeout") {
      const message = `Command timed out after ${timeoutMs} ms; it and every process it started were stopped.`;
      return stoppedResult("timeout", joinNonEmpty([output, message]), details);
    }
    if (stopReason === "aborted") {
      const message = "Command was aborted before it finished; it and every process it started were stopped.";
      return stoppedResult("aborted", joinNonEmpty([output, message]), details);
    }
    if (exitCode !== 0) {
      // No ToolErrorCode fits a command that ran and failed: the tool worked, the command did not.
      return { content: joinNonEmpty([output, `Exit code ${exitCode}`]), isError: true, code: "command_failed", details };
    }
    return { content: output.length > 0 ? output : NO_OUTPUT_TEXT, isError: false, details };
  },
});

/**
 * Keeps the first HEAD_BYTES and a rolling window of the last TAIL_BYTES of a stream, and counts
 * the newlines it drops in between so the marker can say how many lines are missing.
 */
class OutputCapture {
  private readonly headChunks: Buffer[] = [];
  private headBytes = 0;
  private tailChunks: Buffer[] = [];
  private tailBytes = 0;
  private droppedBytes = 0;
  private droppedNewlines = 0;

  append(chunk: Buffer): void {
    let rest = chunk;
    const headRoom = HEAD_BYTES - this.headBytes;
    if (headRoom > 0) {
      const headPart = rest.subarray(0, headRoom);
      this.headChunks.push(headPart);
      this.headBytes += headPart.length;
      rest = rest.subarray(headPart.length);
    }
    if (rest.length === 0) return;
    this.tailChunks.push(rest);
    this.tailBytes += rest.length;
    while (this.tailBytes > TAIL_BYTES) {
      const oldest = this.tailChunks[0];
      if (oldest === undefined) break;
      const excess = this.tailBytes - TAIL_BYTES;
      const dropped = oldest.subarray(0, excess);
      this.droppedBytes += dropped.length;
      this.droppedNewlines += countNewlines(dropped);
      this.tailBytes -= dropped.length;
      if (dropped.length === oldest.length) this.tailChunks.shift();
      else this.tailChunks[0] = oldest.subarray(dropped.length);
    }
  }

  text(): string {
    const head = Buffer.concat(this.headChunks);
    const tail = Buffer.concat(this.tailChunks);
    if (this.droppedBytes === 0) return Buffer.concat([head, tail]).toString("utf8");
    // Cut at line boundaries where there are any, so the model never sees half a line (or half a
    // UTF-8 character) next to the marker.
    const headEnd = head.lastIndexOf(NEWLINE_BYTE) + 1 || head.length;
    const firstTailNewline = tail.indexOf(NEWLINE_BYTE);
    // Snapping to a newline that ends the tail would leave no tail at all.
    const tailStart = firstTailNewline !== -1 && firstTailNewline < tail.length - 1 ? firstTailNewline + 1 : 0;
    const truncatedLines = this.droppedNewlines + (tailStart > 0 ? 1 : 0);
    const truncatedBytes = head.length - headEnd + this.droppedBytes + tailStart;
    const headText = head.subarray(0, headEnd).toString("utf8");
    const separator = headText.endsWith("\n") ? "" : "\n";
    // A single enormous line (minified code, binary noise) loses no line breaks; count bytes then.
    const marker =
      truncatedLines > 0
        ? `[... ${truncatedLines} lines truncated ...]\n`
        : `[... ${truncatedBytes} bytes truncated ...]\n`;
    return headText + separator + marker + tail.subarray(tailStart).toString("utf8");
  }
}

function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let index = bytes.indexOf(NEWLINE_BYTE); index !== -1; index = bytes.indexOf(NEWLINE_BYTE, index + 1)) {
    count += 1;
  }
  return count;
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

/** Where the previous command of this session ended, unless that directory has gone since. */
async function startingDirectory(context: ToolContext): Promise<string> {
  const previous = context.sessionState.get(WORKING_DIRECTORY_STATE_KEY);
  if (typeof previous === "string") {
    try {
      if ((await stat(previous)).isDirectory()) return previous;
    } catch {
      // Removed or unreadable: start over from the session directory.
    }
  }
  return context.cwd;
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

async function readFinalDirectory(finalDirectoryFile: string): Promise<string | undefined> {
  try {
    const directory = (await readFile(finalDirectoryFile, "utf8")).replace(/\n$/, "");
    return directory.length > 0 ? directory : undefined;
  } catch {
    return undefined;
  }
}

/** SIGTERM the whole group, then SIGKILL whatever ignored it. Errors mean the group is gone. */
function killProcessGroup(processGroupId: number): void {
  try {
    process.kill(-processGroupId, "SIGTERM");
  } catch {
    return;
  }
  setTimeout(() => {
    try {
      process.kill(-processGroupId, "SIGKILL");
    } catch {
      // Everyone exited on SIGTERM.
    }
  }, KILL_GRACE_MS);
}

/** Shell convention: a process ended by signal N reports status 128 + N. */
function signalExitCode(signal: string | undefined): number {
  const signalNumber = signal === undefined ? undefined : osConstants.signals[signal as NodeJS.Signals];
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
