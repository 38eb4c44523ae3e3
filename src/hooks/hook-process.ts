import { existsSync } from "node:fs";
import { captureCappedOutput } from "../process/capped-output.js";
import { exitStatusOf } from "../process/process-end.js";
import { startSupervisedProcess } from "../process/supervised-process.js";

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
 * Contract: never rejects (spawn failures become `not_started`).
 */
export async function runHookProcess(request: HookProcessRequest): Promise<HookProcessResult> {
  if (request.signal?.aborted) return { outcome: "aborted", stdout: "", stderr: "" };
  const hook = startSupervisedProcess({
    file: shell(),
    args: ["-c", request.command],
    cwd: request.cwd,
    environment: { inherited: { ...process.env, ...request.settingsEnv }, pass: request.passEnv, added: request.hookEnv },
    stdin: "pipe",
    timeoutMs: request.timeoutMs,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  if ("startError" in hook) return { outcome: "not_started", error: hook.startError.message };
  const { stdout, stderr } = captureCappedOutput(hook, MAX_CAPTURED_BYTES);
  // A hook that exits without reading its input closes the pipe under the write: not an error.
  hook.stdin?.on("error", () => undefined);
  hook.stdin?.end(request.input);
  const end = await hook.ended;
  hook.release();
  if (end.error) return { outcome: "not_started", error: end.error.message };
  const stopped = hook.stopReason === "timeout" ? "timed_out" : hook.stopReason;
  if (stopped) return { outcome: stopped, stdout: stdout.text(), stderr: stderr.text() };
  return { outcome: "exited", exitCode: exitStatusOf(end), stdout: stdout.text(), stderr: stderr.text() };
}
