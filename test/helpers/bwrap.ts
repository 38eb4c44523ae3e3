import { spawnSync } from "node:child_process";

/**
 * Why bubblewrap cannot build agentwire's sandbox on this machine (not installed, user namespaces
 * disallowed), or undefined when it can: tests of `--sandbox` skip with this reason in their name.
 */
export const bwrapProblem: string | undefined = (() => {
  const probe = spawnSync("bwrap", ["--die-with-parent", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true"], { encoding: "utf8" });
  if (probe.error) return probe.error.message;
  return probe.status === 0 ? undefined : probe.stderr.trim() || `exit status ${probe.status}`;
})();

/** Appended to the name of a suite that needs bwrap, so a skipped run says why. */
export const needsBwrap = bwrapProblem === undefined ? "" : ` (skipped: bwrap cannot run here: ${bwrapProblem})`;
