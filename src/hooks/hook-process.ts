import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { constants } from "node:os";
import { childEnvironment } from "../process/child-environment.js";
import { releaseProcessGroupIfEmpty, stopProcessGroup, superviseProcessGroup } from "../process/process-supervisor.js";

/** More of either stream than a hook has any reason to write; the rest is read and dropped. */
const MAX_CAPTURED_BYTES = 1024 * 1024;

/** Claude Code runs hook commands with bash; where there is none, the POSIX shell. Looked up on first use. */
let hookShell: string | undefined;
const shell = (): string => (hookShell ??= existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh");

export interface HookProcessRequest {
  /** The hook's command line, run by the shell. */
  command: string;
  /** What the hook reads on stdin: the event as JSON. */
  input: string;
  cwd: string;
  /** Variables the settings files set (`env`): added to agentwire's environment before credentials are removed. */
  settingsEnv: Readonly<Record<string, string>>;
  /** Credential variables the user hands to child processes on purpose (`--pass-env`). */
  passEnv: readonly string[];
  /** Set after the credential filter: `CLAUDE_PROJECT_DIR`. */
  hookEnv: Readonly<Record<string, string>>;
  timeoutMs: number;
  /** Aborting stops the hook and everything it started (the turn was interrupted, the session closed). */
  signal?: AbortSignal;
}

export type HookProcessResult =
  | { outcome: "exited"; exitCode: number; stdout: string; stderr: string }
  | { outcome: "timed_out" | "aborted"; stdout: string; stderr: string }
  | { outcome: "not_started"; error: string };

/**
 * Runs one hook command: the event's JSON on stdin, stdout and stderr captured (up to 1 MiB
 * each). The shell leads a process group of its own, supervised like Bash's, so a timeout or an
 * abort stops the hook with every process it started, and nothing it leaves behind outlives
 * agentwire. Its environment is agentwire's without credentials (src/process/child-environment.ts).
 * Contract: never rejects.
 */
export function runHookProcess(request: HookProcessRequest): Promise<HookProcessResult> {
  if (request.signal?.aborted) return Promise.resolve({ outcome: "aborted", stdout: "", stderr: "" });
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(shell(), ["-c", request.command], {
        cwd: request.cwd,
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
        env: { ...childEnvironment({ ...process.env, ...request.settingsEnv }, request.passEnv), ...request.hookEnv },
      });
    } catch (error) {
      resolve({ outcome: "not_started", error: (error as Error).message });
      return;
    }
    const stdout = new CappedText();
    const stderr = new CappedText();
    child.stdout.on("data", (chunk: Buffer) => stdout.append(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.append(chunk));
    // A hook that exits without reading its input closes the pipe under the write: not an error.
    child.stdin.on("error", () => undefined);
    child.stdin.end(request.input);
    const processGroup = child.pid;
    if (processGroup !== undefined) superviseProcessGroup(processGroup);
    let stopped: "timed_out" | "aborted" | undefined;
    const stop = (reason: "timed_out" | "aborted"): void => {
      if (stopped !== undefined || processGroup === undefined) return;
      stopped = reason;
      stopProcessGroup(processGroup);
    };
    const timer = setTimeout(() => stop("timed_out"), request.timeoutMs);
    const onAbort = (): void => stop("aborted");
    request.signal?.addEventListener("abort", onAbort, { once: true });
    const finish = (result: HookProcessResult): void => {
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      if (processGroup !== undefined) releaseProcessGroupIfEmpty(processGroup);
      resolve(result);
    };
    child.once("error", (error) => {
      if (child.pid === undefined) finish({ outcome: "not_started", error: error.message });
    });
    child.once("close", (code, signal) => {
      if (stopped) finish({ outcome: stopped, stdout: stdout.text(), stderr: stderr.text() });
      else finish({ outcome: "exited", exitCode: exitCodeOf(code, signal), stdout: stdout.text(), stderr: stderr.text() });
    });
  });
}

/** Collects a stream's bytes up to MAX_CAPTURED_BYTES. */
class CappedText {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  append(chunk: Buffer): void {
    if (this.size >= MAX_CAPTURED_BYTES) return;
    const kept = chunk.subarray(0, MAX_CAPTURED_BYTES - this.size);
    this.chunks.push(kept);
    this.size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

/** A shell killed by a signal exits, as a shell reports it, with 128 + the signal's number. */
function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return signal === null ? 1 : 128 + (constants.signals[signal] ?? 0);
}
