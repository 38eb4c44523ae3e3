import { realpathSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { childEnvironment } from "../../process/child-environment.js";
import { confinementArguments, type PathFacts } from "./confinement-arguments.js";

/**
 * What the Bash tool gets for a call that runs only because its command was judged read-only:
 * such a command runs confined (confinement-arguments.ts) wherever bwrap can build the
 * confinement, and with git's code-running configuration overridden (git-hardening.ts) always.
 */
export interface ReadOnlyConfinement {
  /**
   * Why bwrap cannot confine commands on this machine, or undefined when it can. Asked before
   * every confined command; the machine is probed once, on the first call.
   */
  problem(): Promise<string | undefined>;
  /** Paths hidden from a confined command even where a workspace root shows them (agentwire's home). */
  hidden: readonly string[];
}

/** A probe that has not answered in this long is as good as broken. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * The session's confinement. The probe — bwrap building the same confinement around `true` —
 * runs on the first `problem()`, so start-up never waits for it. `onUnavailable` hears the
 * problem once, when the probe finds one, before that first caller does.
 */
export function createReadOnlyConfinement(options: {
  hidden: readonly string[];
  onUnavailable: (problem: string) => void;
}): ReadOnlyConfinement {
  let probe: Promise<string | undefined> | undefined;
  return {
    hidden: options.hidden,
    problem() {
      probe ??= probeConfinement().then((problem) => {
        if (problem !== undefined) options.onUnavailable(problem);
        return problem;
      });
      return probe;
    },
  };
}

/** The file system as the confinement builder reads it. */
export const LOCAL_PATH_FACTS: PathFacts = {
  realPath(candidate) {
    try {
      return realpathSync(candidate);
    } catch {
      return undefined;
    }
  },
  isDirectory(realPath) {
    try {
      return statSync(realPath).isDirectory();
    } catch {
      return false;
    }
  },
};

async function probeConfinement(): Promise<string | undefined> {
  // A private folder of its own, as a command's TMPDIR is (the system's temp folder may hold the home).
  const temp = await mkdtemp(path.join(tmpdir(), "agentwire-probe-"));
  try {
    return await runProbe(
      confinementArguments(
        { roots: [], home: process.env.HOME, hidden: [], tempDirectory: temp, cwd: "/", command: ["true"] },
        LOCAL_PATH_FACTS,
      ),
    );
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

function runProbe(args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    let stderr = "";
    // Loaded at the first start, not with this module: a run that starts no child skips its ~0.7 ms of CPU.
    const { spawn } = process.getBuiltinModule("node:child_process");
    const child = spawn("bwrap", args, {
      stdio: ["ignore", "ignore", "pipe"],
      timeout: PROBE_TIMEOUT_MS,
      env: childEnvironment(process.env),
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", (error: NodeJS.ErrnoException) =>
      resolve(error.code === "ENOENT" ? "bubblewrap (bwrap) is not on PATH" : `bubblewrap (bwrap) could not run: ${error.message}`),
    );
    child.once("close", (code, signal) => {
      if (code === 0) resolve(undefined);
      else resolve(`bubblewrap (bwrap) cannot build the confinement here: ${stderr.trim() || `exit status ${code ?? signal}`}`);
    });
  });
}
