import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./agentwire.js";

/**
 * Where `tsc --incremental` keeps what it learnt between runs: in this checkout (ignored by git),
 * not in node_modules, which git worktrees may share through a symlink. tsc re-checks every file
 * whose text, or whose dependencies' declarations, changed, and repeats the stored errors of the
 * others, so a warm run reports exactly what a cold one does in a third of the time.
 */
const BUILD_INFO = join(ROOT, ".cache", "tsc");

/** Runs `tsc --noEmit -p project`; resolves to its report, "" when the project compiles. */
export function typecheck(project: string, name: string): Promise<string> {
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const args = [tsc, "--noEmit", "-p", project, "--incremental", "--tsBuildInfoFile", join(BUILD_INFO, `${name}.tsbuildinfo`)];
  return promisify(execFile)(process.execPath, args, { cwd: ROOT }).then(
    () => "",
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
}
