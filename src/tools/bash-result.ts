import type { ToolErrorCode, ToolResult } from "../conversation/tool-result.js";
import type { CommandOutput } from "../process/command-output.js";
import { exitStatusOf, type ProcessEnd } from "../process/process-end.js";
import type { StopReason } from "../process/supervised-process.js";
import type { BashInvocation } from "./bash-invocation.js";
import { toolError, type ToolContext } from "./define-tool.js";
import { sandboxNote } from "./sandbox/sandbox-settings.js";

const NO_OUTPUT_TEXT = "(Bash completed with no output)";
/** Told to the model when a confined command fails. */
const CONFINED_FAILURE_NOTE =
  "(This command ran without a question because it was judged read-only, and so confined: it could not write outside $TMPDIR, use the network, see the home folder or anything outside the workspace and the system's folders (programs installed under the home folder are missing). If that is why it failed, ask the user to approve it.)";
/** `tool_use_result.confinement` of a confined command: a failure may be the confinement's refusal. */
const CONFINEMENT_NOTE = {
  note: 'The command was approved only because it was judged read-only, so it ran confined: it sees the system\'s programs and the workspace read-only, an empty home, only its own processes, no network, and can write only its TMPDIR. A "Read-only file system", "No such file or directory" outside the workspace or a failed connection may come from the confinement; approving the command explicitly runs it unconfined.',
};

/** What running a command left behind, for the result. */
export interface BashRun {
  end: ProcessEnd;
  stopReason: StopReason | undefined;
  output: CommandOutput;
  /** Told to the model when the shell's directory could not be kept. */
  directoryNote: string;
  /** Protected entries the sandbox put back. */
  undone: string[];
}

/** The tool result of a command that ran: its output, notes, and how it ended. Pure. */
export function bashResult(invocation: BashInvocation, run: BashRun, context: Pick<ToolContext, "sandbox">, timeoutMs: number): ToolResult {
  const { output, undone } = run;
  const stdout = trimTrailingNewlines(output.stdout.text());
  const stderr = trimTrailingNewlines(output.stderr.text());
  const fullOutputPath = output.fullOutputPath;
  const exitCode = exitStatusOf(run.end);
  // The model cannot tell a confinement's refusal from the command's own failure: say what it was under.
  const confinedFailure = invocation.confined && exitCode !== 0 ? CONFINED_FAILURE_NOTE : "";
  const combined = joinNonEmpty([stdout, stderr, fullOutputNote(output), run.directoryNote, protectedNote(undone), confinedFailure]);
  const details = {
    stdout,
    stderr,
    interrupted: run.stopReason !== undefined,
    isImage: false,
    noOutputExpected: false,
    exitCode,
    // agentwire extension: where the full output is, when it was too long to show.
    ...(fullOutputPath === undefined ? {} : { fullOutputPath }),
    // agentwire extension: the command was confined, so a failure may be the confinement's doing.
    ...(invocation.confined
      ? { confinement: CONFINEMENT_NOTE }
      : context.sandbox
        ? { sandbox: { ...sandboxNote(context.sandbox), ...(undone.length > 0 ? { undone } : {}) } }
        : {}),
  };

  if (run.stopReason === "timeout") {
    const message = `Command timed out after ${timeoutMs} ms; it and every process it started were stopped.`;
    return stoppedResult("timeout", joinNonEmpty([combined, message]), details);
  }
  if (run.stopReason === "aborted") {
    const message = "Command was aborted before it finished; it and every process it started were stopped.";
    return stoppedResult("aborted", joinNonEmpty([combined, message]), details);
  }
  if (exitCode !== 0) {
    // No ToolErrorCode fits a command that ran and failed: the tool worked, the command did not.
    return { content: joinNonEmpty([combined, `Exit code ${exitCode}`]), isError: true, code: "command_failed", details };
  }
  return { content: combined.length > 0 ? combined : NO_OUTPUT_TEXT, isError: false, details };
}

/** Tells the model which protected paths the sandbox put back as they were, and why. */
function protectedNote(undone: readonly string[]): string {
  if (undone.length === 0) return "";
  return `(The sandbox undid what the command did to ${undone.join(", ")}: these paths make agents, git or the shell run code later, so sandboxed commands may not create or change them. Ask the user to make such a change.)`;
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

function stoppedResult(code: ToolErrorCode, content: string, details: Record<string, unknown>): ToolResult {
  return { ...toolError(code, content), details };
}

function trimTrailingNewlines(text: string): string {
  return text.replace(/(\r?\n)+$/, "");
}

function joinNonEmpty(parts: string[]): string {
  return parts.filter((part) => part.length > 0).join("\n");
}
