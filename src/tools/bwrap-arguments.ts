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
 * Every path is bound by its real path: bwrap cannot mount onto a path through a symlink, and a
 * path that does not exist (a root removed since) is left out rather than failing the command.
 * `realPath` (undefined for a missing path) is injected so the builder stays a pure function.
 */
export function bwrapArguments(sandboxed: SandboxedCommand, realPath: (path: string) => string | undefined): string[] {
  const { settings, roots } = sandboxed;
  const resolved = (paths: readonly string[]): string[] => [...new Set(paths.flatMap((entry) => realPath(entry) ?? []))];
  const writable = resolved([...(settings.mode === "workspace-write" ? roots : []), ...settings.allowWrite]);
  const protectedPaths = resolved([...writable.flatMap((root) => PROTECTED_GIT_PATHS.map((name) => path.join(root, name))), ...settings.protectedPaths]).filter((candidate) =>
    writable.some((root) => isSameOrInside(candidate, root)),
  );
  const tempDirectory = realPath(sandboxed.tempDirectory) ?? sandboxed.tempDirectory;
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
