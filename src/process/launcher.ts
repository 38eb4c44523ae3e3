import type { ChildProcess } from "node:child_process";
import { accessSync, constants as fileConstants } from "node:fs";
import { constants as osConstants } from "node:os";
import { Readable } from "node:stream";
import { childEnvironment } from "./child-environment.js";
import { LAUNCHER_SCRIPT } from "./launcher-script.js";
import type { ProcessEnd } from "./process-end.js";
import { signalQuietly, statFields } from "./process-table.js";

/**
 * Starts commands through one small long-lived process (launcher-script.ts) instead of forking
 * agentwire for each. Two costs go, both measured on a 2-core machine kept busy (the slow machine
 * of `npm run bench`): forking a ~60 MB Node process, and the scheduler's treatment of a process
 * that opens a session of its own (setsid, as Node's `detached` does): with autogroups, the
 * Linux default, each new session is a new scheduling group that waits its turn behind the busy
 * ones. Starting `/bin/true` took 9.0 ms that way and 1.9 ms through the launcher (2.3 ms and
 * 1.7 ms on the idle machine).
 *
 * The launcher has a session of its own, made once; each command leads a new process group in it,
 * so one signal still reaches its pipelines and `&` jobs, and it still has no controlling
 * terminal. The launcher also supervises what it started: when agentwire exits, however it exits,
 * the launcher reads the end of its input and stops every group left.
 *
 * Used for commands that read nothing (stdin /dev/null: Bash); a host without Perl, or
 * AGENTWIRE_PROCESS_LAUNCHER=0, falls back to Node's spawn (supervised-process.ts). A launcher
 * killed from outside is replaced at the next command.
 */

/**
 * setsid(2)'s and prctl(2)'s numbers where they are known. Node's `detached` makes the new session
 * in the child before it runs Perl, and Node waits for that exec: on the busy machine the child,
 * first in agentwire's scheduling group and then alone in a new one, took ~6 ms to get there
 * (~1.7 ms without the new session). The launcher makes its session itself instead, and asks to
 * be woken when agentwire dies (launcher-script.ts); elsewhere Node's `detached` makes the session.
 */
const SYSCALLS: Record<string, { setsid: number; prctl: number }> = {
  "linux-x64": { setsid: 112, prctl: 157 },
  "linux-arm64": { setsid: 157, prctl: 167 },
};

/** Where Perl is looked for: system folders only, never a PATH a repository's settings could point elsewhere. */
const PERL_CANDIDATES = ["/usr/bin/perl", "/bin/perl", "/usr/local/bin/perl"];

export interface LaunchRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** A third output pipe on descriptor 3 (bwrap's --info-fd). */
  infoPipe: boolean;
}

export interface LaunchedProcess {
  /** The process (and its group's) id, once it runs. */
  readonly pid: number | undefined;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly info: Readable | undefined;
  /** Resolves with the pid once the program runs, or with undefined when it could not start. */
  readonly started: Promise<number | undefined>;
  /** Resolves once it has exited and every pipe was read to its end. Never rejects. */
  readonly ended: Promise<ProcessEnd>;
  /**
   * Wakes the launcher should something have stopped it (SIGSTOP from a command: it is the
   * command's parent, so `kill -STOP $PPID` reaches it). Called when agentwire stops a command,
   * whose end only the launcher can report.
   */
  resumeLauncher(): void;
}

interface Job {
  request: LaunchRequest;
  pid: number | undefined;
  pipes: Readable[];
  /** Pipes the launcher was told to stop reading (a consumer's buffer is full). */
  held: Set<number>;
  pipesOpen: number;
  status: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  onStarted: (pid: number | undefined) => void;
  onEnded: (end: ProcessEnd) => void;
}

let launcher: Launcher | undefined;
let unavailable = false;

/** Launches `request` through the launcher; undefined when there is none (no Perl, or it stopped working). */
export function launch(request: LaunchRequest): LaunchedProcess | undefined {
  const running = runningLauncher();
  if (running === undefined) return undefined;
  const env = Object.entries(request.env).flatMap(([name, value]) => (value === undefined ? [] : [`${name}=${value}`]));
  const fields = [request.file, request.cwd, String(pipeCount(request)), String(request.args.length), ...request.args, ...env];
  // NUL ends a C string: Node's spawn refuses such an argument with its own error, so it gets the request.
  if (fields.some((field) => field.includes("\0"))) return undefined;
  return running.launch(request, fields);
}

/**
 * Starts the launcher ahead of a command that is on its way (the model has begun writing a Bash
 * call), so that its start overlaps with the rest of the response and the permission checks.
 */
export function prepareLauncher(): void {
  runningLauncher();
}

function runningLauncher(): Launcher | undefined {
  if (unavailable || process.env.AGENTWIRE_PROCESS_LAUNCHER === "0") return undefined;
  if (launcher === undefined || launcher.broken) {
    const perl = findPerl();
    if (perl === undefined) {
      unavailable = true;
      return undefined;
    }
    launcher = new Launcher(perl);
  }
  return launcher;
}

/** stdout, stderr, and bwrap's info pipe when asked for. */
const pipeCount = (request: LaunchRequest): number => (request.infoPipe ? 3 : 2);

function findPerl(): string | undefined {
  for (const candidate of PERL_CANDIDATES) {
    try {
      accessSync(candidate, fileConstants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

class Launcher {
  broken = false;
  /** Whether it has reported anything: a start, or a failure to start. */
  private reported = false;
  private readonly process: ChildProcess;
  /** At agentwire's exit; removed when the launcher ends, so a replaced one leaves no listener behind. */
  private readonly resumeAtExit = (): void => this.resume();
  private readonly jobs = new Map<string, Job>();
  private nextId = 1;
  private pending: Buffer | undefined;

  constructor(perl: string) {
    const { spawn } = process.getBuiltinModule("node:child_process");
    const syscalls = SYSCALLS[`${process.platform}-${process.arch}`];
    const sigcont = osConstants.signals.SIGCONT;
    // An empty environment: no PERL5OPT or PERL5LIB can add code to the launcher.
    const numbers = [osConstants.errno.EINTR, ...(syscalls ? [syscalls.setsid, syscalls.prctl, sigcont] : [])];
    this.process = spawn(perl, ["-e", LAUNCHER_SCRIPT, ...numbers.map(String)], {
      detached: syscalls === undefined,
      stdio: ["pipe", "pipe", "ignore"],
      env: childEnvironment({}),
    });
    this.process.on("error", () => this.fail(true));
    // Exit code 1 before any report: the script refused to run (setsid failed, no pipe).
    this.process.on("exit", (code) => this.fail(code === 1 && !this.reported));
    // A stopped launcher would never read the end of its input: woken, it stops what is left.
    process.once("exit", this.resumeAtExit);
    // A write after the launcher ended (EPIPE): its exit event says what follows.
    this.process.stdin?.on("error", () => undefined);
    this.process.stdout?.on("data", (chunk: Buffer) => this.receive(chunk));
    // Neither the launcher nor its pipes keep agentwire alive; a running command does (see refresh).
    this.process.unref();
    (this.process.stdin as { unref?: () => void } | null)?.unref?.();
    this.refresh();
  }

  launch(request: LaunchRequest, fields: string[]): LaunchedProcess {
    const id = String(this.nextId++);
    let onStarted!: (pid: number | undefined) => void;
    let onEnded!: (end: ProcessEnd) => void;
    const started = new Promise<number | undefined>((resolve) => (onStarted = resolve));
    const ended = new Promise<ProcessEnd>((resolve) => (onEnded = resolve));
    const count = pipeCount(request);
    const job: Job = { request, pid: undefined, pipes: [], held: new Set(), pipesOpen: count, status: undefined, onStarted, onEnded };
    for (let fd = 1; fd <= count; fd++) {
      const pipe = new Readable({ read: () => this.release(id, job, fd) });
      // Node's ChildProcess ends when its pipes have been read to their end: so does this.
      pipe.once("end", () => {
        job.pipesOpen--;
        this.settle(id, job);
      });
      job.pipes.push(pipe);
    }
    this.jobs.set(id, job);
    this.refresh();
    const payload = Buffer.from(fields.join("\0"));
    this.send(Buffer.concat([Buffer.from(`S ${id} ${payload.length}\n`), payload]));
    return {
      get pid() {
        return job.pid;
      },
      stdout: job.pipes[0]!,
      stderr: job.pipes[1]!,
      info: job.pipes[2],
      started,
      ended,
      resumeLauncher: () => this.resume(),
    };
  }

  private resume(): void {
    // Gone already: the exit handler deals with that.
    if (!this.broken && this.process.pid !== undefined) signalQuietly(this.process.pid, "SIGCONT");
  }

  private send(request: string | Buffer): void {
    if (!this.broken) this.process.stdin?.write(request);
  }

  /** A consumer wants more: the launcher may read that pipe again. */
  private release(id: string, job: Job, fd: number): void {
    if (job.held.delete(fd)) this.send(`G ${id} ${fd}\n`);
  }

  private receive(chunk: Buffer): void {
    const buffer = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    let offset = 0;
    for (;;) {
      const lineEnd = buffer.indexOf(10, offset);
      if (lineEnd < 0) break;
      const [kind, id = "", first = "", second = ""] = buffer.toString("latin1", offset, lineEnd).split(" ");
      if (kind === "D") {
        const length = Number(second);
        if (buffer.length < lineEnd + 1 + length) break;
        this.data(id, Number(first), buffer.subarray(lineEnd + 1, lineEnd + 1 + length));
        offset = lineEnd + 1 + length;
        continue;
      }
      offset = lineEnd + 1;
      this.report(kind, id, first, second);
    }
    // The unparsed rest gets its own copy: it must not pin the whole chunk it came in.
    this.pending = offset >= buffer.length ? undefined : Buffer.from(buffer.subarray(offset));
  }

  private data(id: string, fd: number, bytes: Buffer): void {
    const job = this.jobs.get(id);
    const pipe = job?.pipes[fd - 1];
    if (job === undefined || pipe === undefined) return;
    if (!pipe.push(bytes) && !job.held.has(fd)) {
      job.held.add(fd);
      this.send(`H ${id} ${fd}\n`);
    }
  }

  private report(kind: string | undefined, id: string, first: string, second: string): void {
    const job = this.jobs.get(id);
    if (job === undefined) return;
    if (kind === "P" || kind === "F") this.reported = true;
    if (kind === "P") {
      job.pid = Number(first);
      job.onStarted(job.pid);
    } else if (kind === "C") {
      job.pipes[Number(first) - 1]?.push(null);
    } else if (kind === "X") {
      const signalNumber = Number(second);
      job.status = { code: signalNumber === 0 ? Number(first) : null, signal: signalNumber === 0 ? null : signalName(signalNumber) };
      // As Node does at a child's exit: a pipe nobody listens to is drained, so the end comes.
      for (const pipe of job.pipes) if (pipe.listenerCount("data") === 0 && pipe.listenerCount("readable") === 0) pipe.resume();
      this.settle(id, job);
    } else if (kind === "F") {
      this.jobs.delete(id);
      this.refresh();
      for (const pipe of job.pipes) pipe.push(null);
      job.onStarted(undefined);
      job.onEnded({ code: null, signal: null, error: startError(job.request.file, Number(first)) });
    }
  }

  private settle(id: string, job: Job): void {
    if (job.status === undefined || job.pipesOpen > 0 || !this.jobs.delete(id)) return;
    this.refresh();
    job.onEnded(job.status);
  }

  /** The launcher's output keeps agentwire alive while a command runs, and only then. */
  private refresh(): void {
    const stdout = this.process.stdout as (Readable & { ref?: () => void; unref?: () => void }) | null;
    if (this.jobs.size > 0) stdout?.ref?.();
    else stdout?.unref?.();
  }

  /**
   * The launcher died (killed from outside: a command can signal its parent): its commands lost
   * their pipes and their supervisor, so everything in its session is stopped, also what finished
   * commands left running and commands it had not reported yet; the next command starts a new
   * launcher. One that cannot start (`cannotStart`: Perl did not run, or the script refused) sends
   * the rest of the run to Node's spawn; one merely killed, even before its first report (it may
   * have waited idle since the model began a Bash call), is replaced at the next command.
   */
  private fail(cannotStart: boolean): void {
    if (this.broken) return;
    this.broken = true;
    process.off("exit", this.resumeAtExit);
    if (cannotStart) unavailable = true;
    const session = this.process.pid;
    if (session !== undefined) {
      signalQuietly(session, "SIGKILL");
      killSession(session);
    }
    for (const [id, job] of this.jobs) {
      this.jobs.delete(id);
      if (job.pid !== undefined) signalQuietly(-job.pid, "SIGKILL");
      for (const pipe of job.pipes) pipe.push(null);
      job.onStarted(job.pid);
      const when = job.pid === undefined ? "before it reported the command's start" : "while the command ran";
      job.onEnded({ code: null, signal: null, error: new Error(`the process launcher ended ${when}`) });
    }
    this.refresh();
  }
}

/**
 * SIGKILLs every process of the session `session` (the launcher's, which it led): the session's
 * number cannot be reused while one of them lives. Linux's /proc; elsewhere only the known groups go.
 */
function killSession(session: number): void {
  const { readdirSync, readFileSync } = process.getBuiltinModule("node:fs");
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(statFields(stat)[3]) === session) signalQuietly(Number(entry), "SIGKILL");
    } catch {
      // Gone meanwhile.
    }
  }
}

function signalName(signalNumber: number): NodeJS.Signals | null {
  const entry = Object.entries(osConstants.signals).find(([, number]) => number === signalNumber);
  return (entry?.[0] as NodeJS.Signals | undefined) ?? null;
}

/** The error Node's spawn reports for the same failure ("spawn /bin/bash ENOENT"). */
function startError(file: string, errno: number): NodeJS.ErrnoException {
  const code = Object.entries(osConstants.errno).find(([, number]) => number === errno)?.[0] ?? `errno ${errno}`;
  return Object.assign(new Error(`spawn ${file} ${code}`), { code, errno: -errno, syscall: `spawn ${file}`, path: file });
}
