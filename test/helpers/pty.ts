import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";

/** util-linux `script` runs a command on a real pseudo-terminal; it is in every Debian base system. */
export const HAS_SCRIPT = spawnSync("script", ["--version"]).status === 0;

export interface PtySession {
  /** Bytes typed at the keyboard. */
  type(keys: string): void;
  /** Everything the terminal showed so far, escape codes included. */
  readonly raw: string;
  /** Waits until the screen output (escape codes removed) matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code once the command and `script` have ended. */
  exited: Promise<number | null>;
  kill(): void;
}

/** Screen text without escape sequences and carriage returns, for matching. */
export function plainScreen(raw: string): string {
  // eslint-disable-next-line no-control-regex
  return raw.replace(/\u001b\[[0-9;?]*[A-Za-z~]/g, "").replace(/\r/g, "");
}

/**
 * Runs `command` (a shell command line) on a pseudo-terminal of `columns` x `rows`; what is
 * written to it arrives as keystrokes, what it prints comes back with the terminal's escape codes.
 */
export function spawnInPty(
  command: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; columns?: number; rows?: number; term?: string },
): PtySession {
  const setup = `stty cols ${options.columns ?? 100} rows ${options.rows ?? 40}; exec ${command}`;
  const child: ChildProcessWithoutNullStreams = spawn("script", ["-q", "-e", "-c", setup, "/dev/null"], {
    cwd: options.cwd,
    env: { ...options.env, TERM: options.term ?? "xterm-256color" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let raw = "";
  const listeners = new Set<() => void>();
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    raw += chunk;
    for (const listener of listeners) listener();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    type: (keys) => void child.stdin.write(keys),
    get raw() {
      return raw;
    },
    waitFor(pattern, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!pattern.test(plainScreen(raw))) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`the terminal never showed ${pattern}; it showed:\n${plainScreen(raw)}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    exited,
    kill: () => child.kill("SIGKILL"),
  };
}
