import path from "node:path";
import { isSameOrInside } from "../paths/real-path.js";
import type { SandboxSettings } from "./sandbox-settings.js";

/**
 * Inside a writable root, the repository's metadata: through its hooks, its config
 * (`core.hooksPath`, aliases), `commondir`, `info/` or alternates a command could make code run
 * outside the sandbox later. The whole `.git` (a folder, or a worktree's file), since protecting
 * parts of it left the rest to redirect them; it is then a mount point, so it cannot be renamed.
 */
const PROTECTED_GIT_PATHS = [".git"];

/**
 * Where the Unix sockets of a desktop live (the session bus, Docker, X11, tmux and the user's
 * runtime folder): a read-only bind does not stop `connect()`, so without network they are
 * covered with empty folders, and the variables that point at agents are unset.
 */
const SOCKET_VARIABLES = ["SSH_AUTH_SOCK", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"];

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
  /** Folders holding Unix sockets (see socketDirectories), covered when there is no network. */
  socketDirectories: readonly string[];
}

/**
 * bwrap's arguments for one command. Mounts apply in order, so the order is the policy:
 * 1. the whole filesystem read-only, with a fresh /dev and a /proc of the new PID namespace
 *    (`baseArguments`);
 * 2. without network, empty folders over the socket folders;
 * 3. the writable paths (the roots in workspace-write mode, and the allowed paths);
 * 4. the protected paths read-only again on top of them, where they exist (bwrap cannot bind
 *    what is not there), each folder between them and their root pinned by a bind of its own
 *    first: a mount point cannot be renamed, so `mv parent elsewhere` cannot move the protected
 *    path out of the way and put a writable copy in its place;
 * 5. the private temporary directory, last, so nothing above can cover it.
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
  const pinned = [...new Set(protectedPaths.flatMap((target) => foldersBetween(writable, target)))];
  const tempDirectory = realPath(sandboxed.tempDirectory) ?? sandboxed.tempDirectory;
  const hidden = settings.network ? [] : resolved(sandboxed.socketDirectories);
  return [
    ...baseArguments(settings),
    ...hidden.flatMap((target) => ["--tmpfs", target]),
    ...(settings.network ? [] : SOCKET_VARIABLES.flatMap((name) => ["--unsetenv", name])),
    ...writable.flatMap((target) => ["--bind", target, target]),
    ...pinned.flatMap((target) => ["--bind", target, target]),
    ...protectedPaths.flatMap((target) => ["--ro-bind", target, target]),
    "--bind", tempDirectory, tempDirectory,
    "--setenv", "TMPDIR", tempDirectory,
    "--chdir", sandboxed.cwd,
    "--",
    ...sandboxed.command,
  ];
}

/** The folders strictly between the writable root holding `target` and `target`, outermost first. */
function foldersBetween(writable: readonly string[], target: string): string[] {
  const root = writable.filter((candidate) => isSameOrInside(target, candidate) && candidate !== target).sort((a, b) => b.length - a.length)[0];
  if (root === undefined) return [];
  const folders: string[] = [];
  for (let folder = path.dirname(target); folder !== root && isSameOrInside(folder, root); folder = path.dirname(folder)) folders.unshift(folder);
  return folders;
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
    // A session of its own: no terminal to push keystrokes into (TIOCSTI).
    "--new-session",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    ...(settings.network ? [] : ["--unshare-net"]),
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
  ];
}

/** The socket folders that exist on this machine: /run (with /var/run), X11's, and tmux's under /tmp. */
export function socketDirectories(listTemp: () => string[]): string[] {
  return ["/run", "/var/run", "/tmp/.X11-unix", ...listTemp().filter((name) => name.startsWith("tmux-")).map((name) => `/tmp/${name}`)];
}
