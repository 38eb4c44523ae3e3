import type { ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { childEnvironment } from "./child-environment.js";
import { launch, type LaunchedProcess } from "./launcher.js";
import type { ProcessEnd } from "./process-end.js";
import { prepareSupervision, releaseProcessGroupIfEmpty, stopProcessGroup, superviseProcessGroup } from "./process-supervisor.js";

/**
 * The one way agentwire starts a child that runs someone else's code (a Bash command, a hook, an
 * MCP stdio server): without agentwire's credentials, leading a process group of its own that the
 * supervisor stops when agentwire exits, however it exits, and stopped with everything it started
 * on a timeout or an abort. Callers keep only what is theirs: what to run and what its output means.
 * A child that reads nothing starts through the process launcher (launcher.ts), which is much
 * cheaper on a busy machine; one that reads its stdin (a hook, an MCP server), or any child where
 * the launcher is missing, through Node's spawn. Not execa: capture and group stopping are done
 * here, so execa would only add its load and first-call cost.
 */

/** What the child's environment is made of. */
export interface ChildEnvironmentRequest {
  /** Where it starts: agentwire's environment, with the settings files' `env` over it. */
  inherited: Readonly<Record<string, string | undefined>>;
  /** Credential names the user hands to children on purpose (`--pass-env`). */
  pass?: readonly string[] | undefined;
  /** Set after the credentials are removed, because the caller names them on purpose (a hook's `CLAUDE_PROJECT_DIR`, an MCP server's `env` block). */
  added?: Readonly<Record<string, string>>;
  /** Applied last: overrides that must win over everything else (git hardening of read-only commands). */
  harden?: (env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv;
}

export interface SupervisedProcessRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  environment: ChildEnvironmentRequest;
  /** "pipe" for a child that reads what the caller writes; "ignore" closes its stdin. */
  stdin: "pipe" | "ignore";
  /** A fourth descriptor read by the caller (bwrap reports the sandbox's init process there). */
  infoPipe?: boolean;
  /** Stops the group when it runs this long. */
  timeoutMs?: number;
  /** Stops the group when aborted. */
  signal?: AbortSignal;
  /** Runs when agentwire stops the child (timeout, abort, `stop`), for what the group signal cannot reach. */
  onStop?: () => void;
}

export type StopReason = "timeout" | "aborted";

export interface SupervisedProcess {
  /** The child's pid, which is also its process group's id; undefined until it runs, and when it could not start. */
  readonly pid: number | undefined;
  /** Resolves once the program runs; rejects with the reason when it could not start. */
  readonly spawned: Promise<void>;
  readonly stdin: Writable | null;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly info: Readable | undefined;
  /** Resolves when the child has exited and its pipes have closed, or it failed to start. Never rejects. */
  readonly ended: Promise<ProcessEnd>;
  /** Why agentwire stopped it, if it did. */
  readonly stopReason: StopReason | undefined;
  /** Stops the whole group (SIGTERM, then SIGKILL); the first reason is kept. */
  stop(reason: StopReason): void;
  /**
   * Ends this run's supervision: the timer and the abort listener go, and the group is forgotten
   * once no member is left (background jobs keep it supervised until agentwire exits). Call it on
   * every path once the child has ended; calling it again is harmless.
   */
  release(): void;
}

/**
 * Starts `file` as the leader of a new process group, supervised. Returns the reason instead when
 * spawn throws at once (E2BIG for an argument list over the kernel's limit, ENOTDIR); a failure
 * reported later (ENOENT) resolves `ended` with `error` set.
 */
export function startSupervisedProcess(request: SupervisedProcessRequest): SupervisedProcess | { startError: Error } {
  const environment = request.environment;
  const launched =
    request.stdin === "ignore"
      ? launch({
          file: request.file,
          args: request.args,
          cwd: request.cwd,
          env: (environment.harden ?? same)({ ...childEnvironment(environment.inherited, environment.pass), ...environment.added }),
          infoPipe: request.infoPipe === true,
        })
      : undefined;
  if (launched) return superviseLaunched(launched, request);
  let child: ChildProcess;
  prepareSupervision();
  // Loaded at the first start, not with this module: a run that starts no child skips its ~0.7 ms of CPU.
  const { spawn } = process.getBuiltinModule("node:child_process");
  try {
    // detached: the child leads its own group, so one signal reaches its pipelines and `&` jobs.
    child = spawn(request.file, request.args, {
      cwd: request.cwd,
      detached: true,
      stdio: request.infoPipe ? [request.stdin, "pipe", "pipe", "pipe"] : [request.stdin, "pipe", "pipe"],
      env: (environment.harden ?? same)({ ...childEnvironment(environment.inherited, environment.pass), ...environment.added }),
    });
  } catch (error) {
    return { startError: error as Error };
  }
  return supervise(child, request);
}

function supervise(child: ChildProcess, request: SupervisedProcessRequest): SupervisedProcess {
  const processGroup = child.pid;
  const ended = new Promise<ProcessEnd>((resolve) => {
    child.once("close", (code, signal) => resolve({ code, signal }));
    // A child that could not start emits 'error' and never 'close'.
    child.on("error", (error) => {
      if (child.pid === undefined) resolve({ code: null, signal: null, error });
    });
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  // Callers that never wait for the start learn of a failure from `ended`.
  spawned.catch(() => undefined);
  if (processGroup !== undefined) superviseProcessGroup(processGroup);
  const stopping = stopControls(request, () => processGroup);
  return {
    pid: processGroup,
    spawned,
    stdin: child.stdin,
    // Both are pipes by construction above.
    stdout: child.stdout!,
    stderr: child.stderr!,
    info: request.infoPipe ? ((child.stdio[3] as Readable | null) ?? undefined) : undefined,
    ended,
    get stopReason() {
      return stopping.reason();
    },
    stop: stopping.stop,
    release() {
      stopping.release();
      if (processGroup !== undefined) releaseProcessGroupIfEmpty(processGroup);
    },
  };
}

/** A child the launcher started: the launcher supervises its group, so releasing it only ends the timer and the listener. */
function superviseLaunched(launched: LaunchedProcess, request: SupervisedProcessRequest): SupervisedProcess {
  const stopping = stopControls(
    request,
    () => launched.pid,
    () => launched.resumeLauncher(),
  );
  void launched.started.then(() => stopping.started());
  const spawned = launched.started.then(async (pid) => {
    if (pid === undefined) throw (await launched.ended).error;
  });
  spawned.catch(() => undefined);
  return {
    get pid() {
      return launched.pid;
    },
    spawned,
    stdin: null,
    stdout: launched.stdout,
    stderr: launched.stderr,
    info: launched.info,
    ended: launched.ended,
    get stopReason() {
      return stopping.reason();
    },
    stop: stopping.stop,
    release: stopping.release,
  };
}

/**
 * The timeout, the abort listener and the stop they lead to, for a group known by `processGroup()`
 * once it runs. A stop asked for before that reaches the group when `started` names it; `onStop`
 * runs first (it wakes a launcher that would otherwise never name the group).
 */
function stopControls(request: SupervisedProcessRequest, processGroup: () => number | undefined, onStop?: () => void) {
  let stopReason: StopReason | undefined;
  let signalled = false;
  const signalGroup = (): void => {
    const group = processGroup();
    if (stopReason === undefined || signalled || group === undefined) return;
    signalled = true;
    stopProcessGroup(group);
  };
  const stop = (reason: StopReason): void => {
    if (stopReason !== undefined) return;
    stopReason = reason;
    onStop?.();
    signalGroup();
    request.onStop?.();
  };
  const timer = request.timeoutMs === undefined ? undefined : setTimeout(() => stop("timeout"), request.timeoutMs);
  const onAbort = (): void => stop("aborted");
  request.signal?.addEventListener("abort", onAbort, { once: true });
  return {
    stop,
    reason: () => stopReason,
    started: signalGroup,
    release() {
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
    },
  };
}

const same = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => env;
