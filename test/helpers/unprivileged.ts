import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, lchownSync, lstatSync, readdirSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { expectWellFormedRun, PRINT_ARGS, runAgentwire, type RunResult, type Workspace } from "./agentwire.js";

/**
 * The security tests run agentwire as a user without root's powers: root reads and writes past
 * every permission bit, so a misjudged command that "could not" touch a file proves nothing when
 * the suite runs as root (as CI does). As root, a throwaway user is created with `useradd` and
 * removed by `remove()`; as any other user, that user already is unprivileged and is used as is.
 */
export interface UnprivilegedUser {
  name: string;
  uid: number;
  gid: number;
  /** Gives `path` and everything under it to the user (a no-op when the suite is not root). */
  own(path: string): void;
  /** Deletes a user this helper created, with its processes gone first. */
  remove(): void;
}

/** The user, or why none can be had (the suite is root but cannot create users). */
export function createUnprivilegedUser(): UnprivilegedUser | { problem: string } {
  const me = userInfo();
  if (me.uid !== 0) return { name: me.username, uid: me.uid, gid: me.gid, own: () => {}, remove: () => {} };
  const name = `aw${randomBytes(4).toString("hex")}`;
  try {
    // No home directory and no login shell: the tests give it a HOME of their own in a temp folder.
    execFileSync("useradd", ["--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group", name], { stdio: "pipe" });
  } catch (error) {
    return { problem: `running as root, and useradd could not create a test user: ${(error as Error).message.split("\n")[0]}` };
  }
  const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
  return {
    name,
    uid,
    gid,
    own: (path) => chownTree(path, uid, gid),
    remove() {
      try {
        execFileSync("pkill", ["-KILL", "-u", name], { stdio: "ignore" });
      } catch {
        // pkill exits 1 when nothing matched.
      }
      try {
        execFileSync("userdel", [name], { stdio: "ignore" });
      } catch {
        // Already gone.
      }
    },
  };
}

/** createUnprivilegedUser for one test file: the user is removed after the file's last test. */
export function unprivilegedUserForSuite(): UnprivilegedUser | { problem: string } {
  const user = createUnprivilegedUser();
  afterAll(() => {
    if (!("problem" in user)) user.remove();
  });
  return user;
}

/**
 * Runs agentwire with `args` as `user`, after handing everything the test made in `workspace` to
 * that user. Throws the problem when there is no such user (call it only from tests skipped then).
 */
export function runAsUser(
  user: UnprivilegedUser | { problem: string },
  workspace: Workspace,
  args: string[],
  env?: Record<string, string>,
): Promise<RunResult> {
  if ("problem" in user) throw new Error(user.problem);
  user.own(workspace.root);
  return runAgentwire(args, { workspace, user, ...(env === undefined ? {} : { env }) });
}

/**
 * The security tests' run: one prompt in print mode (PRINT_ARGS, then `flags`), where nobody can
 * approve anything, as `user` (see runAsUser); the run must be well formed and end with its one
 * result.
 */
export async function runPromptAsUser(
  user: UnprivilegedUser | { problem: string },
  workspace: Workspace,
  flags: string[] = [],
  env?: Record<string, string>,
): Promise<RunResult> {
  const run = await runAsUser(user, workspace, [...PRINT_ARGS, ...flags], env);
  expectWellFormedRun(run, 1);
  return run;
}

/** Appended to the name of a suite that needs the user, so a skipped run says why. */
export function needsUnprivilegedUser(user: UnprivilegedUser | { problem: string }): string {
  return "problem" in user ? ` (skipped: ${user.problem})` : "";
}

function chownTree(path: string, uid: number, gid: number): void {
  const stats = lstatSync(path);
  if (stats.isSymbolicLink()) return lchownSync(path, uid, gid);
  chownSync(path, uid, gid);
  if (stats.isDirectory()) for (const entry of readdirSync(path)) chownTree(join(path, entry), uid, gid);
}
