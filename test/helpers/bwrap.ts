import { sandboxProblem } from "../../src/tools/sandbox/sandbox-probe.js";

/**
 * Why bubblewrap cannot build agentwire's sandbox on this machine (not installed, user namespaces
 * disallowed), or undefined when it can: agentwire's own probe, so the tests run exactly where a
 * session would accept `--sandbox`, and tests of it skip with this reason in their name.
 */
export const bwrapProblem: string | undefined = sandboxProblem({
  mode: "workspace-write",
  allowWrite: [],
  network: false,
  protectedPaths: [],
  protectedNames: [],
});

/** Appended to the name of a suite that needs bwrap, so a skipped run says why. */
export const needsBwrap = bwrapProblem === undefined ? "" : ` (skipped: bwrap cannot run here: ${bwrapProblem})`;
