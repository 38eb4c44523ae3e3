import path from "node:path";
import { isSameOrInside } from "../paths/real-path.js";
import type { SandboxSettings } from "./sandbox-settings.js";

/** Inside a writable root, the files through which a command could run code outside the sandbox later (a git hook, `core.hooksPath` or an alias in the config). */
const PROTECTED_GIT_PATHS = [".git/hooks", ".git/config"];

export interface SandboxedCommand {
  settings: SandboxSettings;
  /** The workspace roots of the call (cwd, each --add-dir, the tool output directory). */
  roots: readonly string[];
  /** The command's private, always writable temporary directory; TMPDIR points at it. */
  tempDirectory: string;
  /** Where the command starts. */
  cwd: string;
  /** The program to run inside, and its arguments (the shell and its `-c` script). */
  command: readonly string[];
}

/**
 * bwrap's arguments for one command. Mounts apply in order, so the order is the policy:
 * 1. the whole filesystem read-only, with a fresh /dev and a /proc of the new PID namespace
 *    (`baseArguments`);
 * 2. the writable paths (the roots in workspace-write mode, and the allowed paths);
 * 3. the protected paths read-only again on top of them, where they exist (bwrap cannot bind
 *    what is not there);
 * 4. the private temporary directory, last, so nothing above can cover it.
 * `exists` is injected so the builder stays a pure function of its inputs.
 */
export function bwrapArguments(sandboxed: SandboxedCommand, exists: (path: string) => boolean): string[] {
  const { settings, roots, tempDirectory } = sandboxed;
  const writable = unique([...(settings.mode === "workspace-write" ? roots : []), ...settings.allowWrite]);
  const protectedPaths = unique([...writable.flatMap((root) => PROTECTED_GIT_PATHS.map((name) => path.join(root, name))), ...settings.protectedPaths]).filter(
    (candidate) => exists(candidate) && writable.some((root) => isSameOrInside(candidate, root)),
  );
  return [
    ...baseArguments(settings),
    ...writable.flatMap((target) => ["--bind", target, target]),
    ...protectedPaths.flatMap((target) => ["--ro-bind", target, target]),
    "--bind", tempDirectory, tempDirectory,
    "--setenv", "TMPDIR", tempDirectory,
    "--chdir", sandboxed.cwd,
    "--",
    ...sandboxed.command,
  ];
}

function unique(paths: string[]): string[] {
  return [...new Set(paths.map((entry) => path.resolve(entry)))];
}

/**
 * The namespaces and the read-only view of the machine every sandboxed command starts from (and
 * the start-up probe tries). The sandbox ends with the process that started it: the Bash tool
 * and agentwire's supervisor kill bwrap's process group, and once bwrap is gone the kernel kills
 * everything left in its PID namespace, even a process that left the group.
 */
export function baseArguments(settings: Pick<SandboxSettings, "network">): string[] {
  return [
    "--die-with-parent",
    "--unshare-pid",
    ...(settings.network ? [] : ["--unshare-net"]),
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
  ];
}
