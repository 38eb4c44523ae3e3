import { createRequire } from "node:module";
import { childEnvironment } from "../../process/child-environment.js";
import { baseArguments } from "./bwrap-arguments.js";
import type { SandboxSettings } from "./sandbox-settings.js";

/** A probe that has not answered in this long is as good as broken. */
const PROBE_TIMEOUT_MS = 10_000;

const HOW_TO_FIX = [
  "Install bubblewrap (apt-get install bubblewrap, or dnf install bubblewrap)",
  "and, if it reports that it cannot create a user namespace, allow unprivileged user namespaces",
  "(sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu 23.10 and later sysctl kernel.apparmor_restrict_unprivileged_userns=0).",
  "Commands are never run unconfined instead: --sandbox off runs them without the sandbox.",
].join(" ");

/**
 * Whether bwrap, found on PATH now, can set up the sandbox a session asks for: the same
 * namespaces and mounts a command gets, around `true`. Run once at session start, so a machine
 * without a working bwrap fails there, with the reason, instead of on every Bash call (or, worse,
 * by running commands unconfined). Returns the problem, or undefined when the sandbox works.
 */
export function sandboxProblem(settings: SandboxSettings): string | undefined {
  // Required here, not imported: node:child_process costs ~2 ms to load, and every run loads this
  // module before its first line while only sandboxed ones probe.
  const { spawnSync } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
  const probe = spawnSync("bwrap", [...baseArguments(settings), "true"], {
    stdio: ["ignore", "ignore", "pipe"],
    env: childEnvironment(process.env),
    encoding: "utf8",
    timeout: PROBE_TIMEOUT_MS,
  });
  const error = probe.error as NodeJS.ErrnoException | undefined;
  if (error?.code === "ENOENT") return `--sandbox ${settings.mode} needs bubblewrap (bwrap), which is not on PATH. ${HOW_TO_FIX}`;
  if (error) return `--sandbox ${settings.mode} needs bubblewrap (bwrap), which could not run: ${error.message}. ${HOW_TO_FIX}`;
  if (probe.status === 0) return undefined;
  const stderr = probe.stderr.trim() || `exit status ${probe.status ?? probe.signal}`;
  return `--sandbox ${settings.mode} needs bubblewrap (bwrap), which cannot set up the sandbox here: ${stderr}. ${HOW_TO_FIX}`;
}
