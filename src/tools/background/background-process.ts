import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { finished } from "node:stream";
import { exitStatusOf } from "../../process/process-end.js";
import type { StopReason } from "../../process/supervised-process.js";
import { removeFinalDirectoryFile, startInvocation, type BashInvocation } from "../bash-invocation.js";
import type { ToolContext } from "../define-tool.js";

/** How a background process ended. */
export interface BackgroundEnd {
  exitCode: number;
  /** Why agentwire stopped it, if it did. */
  stopReason: StopReason | undefined;
}

export interface BackgroundProcessOptions {
  /** Both streams go there, interleaved as they come. */
  outputFile: string;
  /** Stops the whole group after this long. */
  timeoutMs: number;
  /** Each stdout chunk as it comes (a Monitor turns its lines into events). */
  onStdout?: (chunk: Buffer) => void;
  /** Once, after the process and everything holding its output have gone. */
  onEnd: (end: BackgroundEnd) => void;
}

/**
 * Where a task's output file goes: the session's output directory, which Read may read, so the
 * model can look at what a task printed so far.
 */
export async function taskOutputFile(context: Pick<ToolContext, "outputDirectory">, taskId: string): Promise<string> {
  const directory = path.join(context.outputDirectory, "tasks");
  await mkdir(directory, { recursive: true, mode: 0o700 });
  return path.join(directory, `${taskId}.output`);
}

/**
 * Starts a planned command that outlives the tool call: supervised like every command (its own
 * process group, killed when agentwire exits however it exits), not tied to the turn's abort
 * signal, its output written to a file. Returns a function that stops it, or why it could not start.
 */
export function startBackgroundProcess(
  invocation: BashInvocation,
  context: ToolContext,
  options: BackgroundProcessOptions,
): { stop: () => void } | { startError: string } {
  const started = startInvocation(invocation, context, { timeoutMs: options.timeoutMs });
  if ("startError" in started) {
    removeFinalDirectoryFile(invocation.finalDirectoryFile);
    return { startError: started.startError.message };
  }
  const { command } = started;
  const output = createWriteStream(options.outputFile, { flags: "w", mode: 0o600 });
  // A full disk must not crash agentwire; the command runs on, its output lost.
  output.on("error", () => undefined);
  command.stdout.on("data", (chunk: Buffer) => {
    output.write(chunk);
    options.onStdout?.(chunk);
  });
  command.stderr.on("data", (chunk: Buffer) => output.write(chunk));
  void command.ended.then((end) => {
    command.release();
    removeFinalDirectoryFile(invocation.finalDirectoryFile);
    invocation.protectedWatch?.undoChanges();
    // Told once the file holds everything (so Read shows it all), or once writing it failed.
    finished(output, () => options.onEnd({ exitCode: end.error ? 127 : exitStatusOf(end), stopReason: command.stopReason }));
    output.end();
  });
  return { stop: () => command.stop("aborted") };
}
