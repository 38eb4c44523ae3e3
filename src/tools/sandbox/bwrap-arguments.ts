import path from "node:path";
import { isSameOrInside } from "../../paths/real-path.js";
import type { SandboxSettings } from "./sandbox-settings.js";
import { FISH_CONFIGURATION_FOLDER, SHELL_STARTUP_FILES } from "../../paths/shell-startup-files.js";

/** In the home folder, when a writable folder holds it, besides the protected names: the shell's startup files. */
const HOME_STARTUP_ENTRIES = [...SHELL_STARTUP_FILES, FISH_CONFIGURATION_FOLDER];

/**
 * Where the Unix sockets of a desktop live (the session bus, Docker, X11, tmux and the user's
 * runtime folder): a read-only bind does not stop `connect()`, so without network they are
 * covered with empty folders, and the variables that point at agents are unset.
 */
export const SOCKET_VARIABLES = ["SSH_AUTH_SOCK", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"];

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
  /** The user's home folder (HOME): its shell startup files are protected when it is writable. */
  home: string | undefined;
}

/**
 * bwrap's arguments for one command. Mounts apply in order, so the order is the policy:
 * 1. the whole filesystem read-only, with a fresh /dev and a /proc of the new PID namespace
 *    (`baseArguments`);
 * 2. without network, empty folders over the socket folders;
 * 3. the writable paths (the roots in workspace-write mode, and the allowed paths);
 * 4. the protected paths (`protectedCandidates`) read-only again on top of them, where they
 *    exist (bwrap cannot bind what is not there; the Bash tool undoes the creation of missing
 *    ones after the command), each folder between them and their root pinned by a bind of its
 *    own first: a mount point cannot be renamed, so `mv parent elsewhere` cannot move the
 *    protected path out of the way and put a writable copy in its place;
 * 5. the private temporary directory, last, so nothing above can cover it.
 * Every path is bound by its real path: bwrap cannot mount onto a path through a symlink, and a
 * path that does not exist (a root removed since) is left out rather than failing the command.
 * `realPath` (undefined for a missing path) is injected so the builder stays a pure function.
 */
export function bwrapArguments(sandboxed: SandboxedCommand, realPath: (path: string) => string | undefined): string[] {
  const { settings } = sandboxed;
  const writable = writableFolders(sandboxed, realPath);
  const protectedPaths = resolvedPaths(protectedCandidates(sandboxed, realPath), realPath).filter((candidate) =>
    writable.some((root) => isSameOrInside(candidate, root)),
  );
  const pinned = [...new Set(protectedPaths.flatMap((target) => foldersBetween(writable, target)))];
  const tempDirectory = realPath(sandboxed.tempDirectory) ?? sandboxed.tempDirectory;
  const hidden = settings.network ? [] : resolvedPaths(sandboxed.socketDirectories, realPath);
  // A root inside a covered folder (a workspace under /tmp) is shown again, read-only; the
  // writable binds below then apply to it as to any other root.
  const reshown = resolvedPaths(sandboxed.roots, realPath).filter((root) => hidden.some((folder) => isSameOrInside(root, folder)));
  return [
    ...baseArguments(settings),
    ...hidden.flatMap((target) => ["--tmpfs", target]),
    ...reshown.flatMap((target) => ["--ro-bind", target, target]),
    ...(settings.network ? [] : SOCKET_VARIABLES.flatMap((name) => ["--unsetenv", name])),
    ...writable.flatMap((target) => ["--bind", target, target]),
    ...pinned.flatMap((target) => ["--bind", target, target]),
    ...protectedPaths.flatMap((target) => ["--ro-bind", target, target]),
    "--bind",
    tempDirectory,
    tempDirectory,
    "--setenv",
    "TMPDIR",
    tempDirectory,
    // By its real path: a symlink to it may lie in a covered folder (a workspace linked from /tmp).
    "--chdir",
    realPath(sandboxed.cwd) ?? sandboxed.cwd,
    "--",
    ...sandboxed.command,
  ];
}

/**
 * Every path a sandboxed command must not create or change, as named (not resolved): each
 * protected name in each writable folder; in the home folder, when a writable folder holds it,
 * the protected names and the shell's startup files; and the settings' protected paths. The
 * existing ones are bound read-only; the Bash tool watches all of them (protected-entries-watch.ts)
 * for the ones bwrap cannot bind because they do not exist yet.
 */
export function protectedCandidates(sandboxed: SandboxedCommand, realPath: (path: string) => string | undefined): string[] {
  const { settings } = sandboxed;
  const writable = writableFolders(sandboxed, realPath);
  const home = sandboxed.home === undefined || sandboxed.home === "" ? undefined : realPath(sandboxed.home);
  const homeWritable = home !== undefined && writable.some((root) => isSameOrInside(home, root));
  const inFolder = (folder: string, names: readonly string[]): string[] => names.map((name) => path.join(folder, name));
  return [
    ...new Set([
      ...writable.flatMap((root) => inFolder(root, settings.protectedNames)),
      ...(homeWritable ? inFolder(home, [...settings.protectedNames, ...HOME_STARTUP_ENTRIES]) : []),
      ...settings.protectedPaths,
    ]),
  ];
}

/** The folders a sandboxed command may write, by their real paths. */
function writableFolders(sandboxed: SandboxedCommand, realPath: (path: string) => string | undefined): string[] {
  const { settings, roots } = sandboxed;
  return resolvedPaths([...(settings.mode === "workspace-write" ? roots : []), ...settings.allowWrite], realPath);
}

function resolvedPaths(paths: readonly string[], realPath: (path: string) => string | undefined): string[] {
  return [...new Set(paths.flatMap((entry) => realPath(entry) ?? []))];
}

/** The folders strictly between the writable root holding `target` and `target`, outermost first. */
function foldersBetween(writable: readonly string[], target: string): string[] {
  const root = writable
    .filter((candidate) => isSameOrInside(target, candidate) && candidate !== target)
    .sort((a, b) => b.length - a.length)[0];
  if (root === undefined) return [];
  const folders: string[] = [];
  for (let folder = path.dirname(target); folder !== root && isSameOrInside(folder, root); folder = path.dirname(folder))
    folders.unshift(folder);
  return folders;
}

/**
 * The namespaces and the read-only view of the machine every sandboxed command starts from (and
 * the start-up probe tries). The sandbox ends with the process that started it: the Bash tool
 * and agentwire's supervisor kill bwrap's process group, and once bwrap is gone the kernel kills
 * everything left in its PID namespace, even a process that left the group.
 */
export function baseArguments(settings: Pick<SandboxSettings, "network">): string[] {
  return [...namespaceArguments(settings), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
}

/** The namespaces and lifetime every bwrap command of agentwire's gets, the sandbox's and the confinement's. */
export function namespaceArguments(settings: Pick<SandboxSettings, "network">): string[] {
  return [
    "--die-with-parent",
    // A session of its own: no terminal to push keystrokes into (TIOCSTI).
    "--new-session",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    ...(settings.network ? [] : ["--unshare-net"]),
  ];
}

/**
 * The folders where a machine keeps Unix sockets that lead to other programs: /run (with
 * /var/run and the user's runtime folder), all of /tmp and /var/tmp (ssh-agent's `ssh-*`, X11,
 * tmux, D-Bus, PostgreSQL keep theirs there, under names nobody can list in advance), and in the
 * home `.ssh` (connection-sharing sockets reach the network through an open connection),
 * `.gnupg` (gpg-agent's ssh socket, and dirmngr, which fetches URLs on request) and `.docker`
 * (rootless Docker's socket). Sockets elsewhere in the home stay reachable (SECURITY.md).
 */
export function socketDirectories(home: string | undefined): string[] {
  return ["/run", "/var/run", "/tmp", "/var/tmp", ...(home ? [".ssh", ".gnupg", ".docker"].map((name) => path.join(home, name)) : [])];
}
