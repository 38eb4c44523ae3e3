import { realpathSync } from "node:fs";
import path from "node:path";
import { projectDirectories } from "../paths/project-directories.js";
import { readTrustStore, type TrustStore } from "./trust-store.js";

/**
 * Whether what a repository brings (its `.mcp.json`, its skills' `allowed-tools`, later its
 * settings' hooks and rules) may take effect. A cloned repository is written by whoever wrote it:
 * until the user has looked at those files and trusted them (`agentwire trust`), they do not
 * start processes or approve calls.
 */
export interface ProjectTrust {
  /**
   * Whether the file (or skill folder, named with a trailing `/`) at `file`, belonging to the project rooted at `root`
   * (`trustRootOf`), is trusted as its `fingerprint` says it is now. The fingerprint is taken only
   * when a record could match it (hashing a skill folder walks it); an undefined one (the file
   * could not be hashed) is never trusted.
   */
  trusts(root: string, file: string, fingerprint: () => string | undefined): boolean;
  /** Why trust could not be looked up (an unusable store), for the warning; undefined when it could. */
  readonly problem: string | undefined;
}

/** `--trust-project` / `trustProject: true`: the host vouches for the project, for this run only. */
export const TRUST_FOR_THIS_RUN: ProjectTrust = { trusts: () => true, problem: undefined };

/** What `agentwire trust` recorded in `home`; read once, on first use. */
export function recordedProjectTrust(home: string): ProjectTrust {
  let loaded: { store: TrustStore } | { problem: string } | undefined;
  const load = () => (loaded ??= readTrustStore(home));
  return {
    trusts(root, file, fingerprint) {
      const read = load();
      if ("problem" in read) return false;
      const recorded = read.store.projects[root]?.files[projectFileKey(root, file)];
      return recorded !== undefined && recorded === fingerprint();
    },
    get problem() {
      const read = load();
      return "problem" in read ? read.problem : undefined;
    },
  };
}

/**
 * The root a project's trust is kept under: the repository root (the nearest directory with a
 * `.git`) above `directory`, or `directory` itself outside a repository; symlinks resolved, so
 * every path to the same checkout shares one record.
 */
export function trustRootOf(directory: string): string {
  return projectDirectories(realPath(directory)).at(-1)!;
}

/**
 * A file's name in its root's record: relative to the root. A folder (a skill) is passed, and
 * named, with a trailing `/`, so a file and a folder of the same name never share a record.
 */
export function projectFileKey(root: string, file: string): string {
  const relative = path.relative(root, realPath(file)).split(path.sep).join("/");
  return file.endsWith(path.sep) ? `${relative}/` : relative;
}

function realPath(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    return path.resolve(target);
  }
}
