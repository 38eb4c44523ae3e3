import path from "node:path";
import { isSameOrInside } from "../../paths/real-path.js";
import { namespaceArguments, SOCKET_VARIABLES } from "./bwrap-arguments.js";

/**
 * The confinement of a shell command that runs only because it was judged read-only. The
 * judgement reads the command's text; if it misreads one (a sed script that runs a program, an
 * option that writes a file), the confinement is what still holds: the command sees the system's
 * programs and the workspace read-only, an empty home and no network, and can write nothing but
 * its private TMPDIR. So a misjudged command can neither change files, nor reach the network,
 * nor read the user's secrets.
 */

/** What programs need to run: the system's folders, and nothing else of `/`. Missing ones are left out. */
export const SYSTEM_DIRECTORIES = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/etc",
  "/opt",
  "/nix/store",
  "/run/current-system",
];

/**
 * Where credentials live in a home folder. Only used when a workspace root is the home folder
 * or holds it: the home cannot then be replaced by an empty one without hiding the workspace,
 * so these are covered instead.
 */
const HOME_SECRETS = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".kube",
  ".docker",
  ".azure",
  ".config/gcloud",
  ".config/gh",
  ".password-store",
  ".netrc",
  ".git-credentials",
  ".npmrc",
  ".pypirc",
  ".pgpass",
  ".bash_history",
  ".zsh_history",
];

export interface ConfinedCommand {
  /** The workspace roots (cwd, each --add-dir, the tool output folder): shown read-only. */
  roots: readonly string[];
  /** The user's home folder (HOME): shown empty. */
  home: string | undefined;
  /** Paths hidden even where a root shows them (agentwire's home, with its sessions). */
  hidden: readonly string[];
  /** The command's private temporary folder, the one place it can write; TMPDIR names it. */
  tempDirectory: string;
  /** Where the command starts; must be inside a root. */
  cwd: string;
  /** The program to run inside and its arguments (the shell and its `-c` script). */
  command: readonly string[];
}

/** What the builder needs to know of a path: its real path, or undefined when missing; whether it is a folder. */
export interface PathFacts {
  realPath(candidate: string): string | undefined;
  isDirectory(realPath: string): boolean;
}

/**
 * bwrap's arguments for one confined command. bwrap starts from an empty root, so everything
 * not mounted here does not exist for the command; mounts apply in order:
 * 1. the namespaces, with no network;
 * 2. the system folders read-only, a fresh /dev and a /proc of the command's own PID namespace
 *    (other processes, and their environments, are not there);
 * 3. the roots outside the home read-only; then an empty home (a tmpfs), unless a root is the
 *    home or holds it; then the roots inside the home read-only;
 * 4. what must stay hidden though a root shows it: agentwire's home, and the home's credential
 *    folders and files when a root shows the home (folders covered by an empty tmpfs, files by
 *    /dev/null);
 * 5. the private temporary folder, writable, last so that nothing covers it; then every tmpfs
 *    bwrap made (the root it builds the view on, /dev, the empty home) remounted read-only.
 * Every path but the system folders is mounted at its real path (bwrap cannot mount through a
 * symlink), so a command that names a root through a symlink does not find it; paths that do not
 * exist are left out. A pure function: the file system is read through `facts`.
 */
export function confinementArguments(confined: ConfinedCommand, facts: PathFacts): string[] {
  const resolve = (paths: readonly string[]): string[] => [...new Set(paths.flatMap((entry) => facts.realPath(entry) ?? []))];
  const roots = resolve(confined.roots).sort((a, b) => a.length - b.length);
  const home =
    confined.home === undefined || confined.home === "" ? undefined : (facts.realPath(confined.home) ?? path.resolve(confined.home));
  const homeShown = home === undefined || home === "/" || roots.some((root) => isSameOrInside(home, root));
  const insideHome = (root: string): boolean => home !== undefined && !homeShown && isSameOrInside(root, home);
  const secrets = homeShown && home !== undefined ? HOME_SECRETS.map((name) => path.join(home, name)) : [];
  const hidden = resolve([...confined.hidden, ...secrets]).filter((target) => roots.some((root) => isSameOrInside(target, root)));
  const hiddenFolders = hidden.filter((target) => facts.isDirectory(target));
  const tempDirectory = facts.realPath(confined.tempDirectory) ?? confined.tempDirectory;
  return [
    ...namespaceArguments({ network: false }),
    // At their own names: on merged-/usr systems /bin is a link to usr/bin, shown here as a copy.
    ...SYSTEM_DIRECTORIES.flatMap((directory) => {
      const real = facts.realPath(directory);
      return real === undefined ? [] : ["--ro-bind", real, directory];
    }),
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    ...roots.filter((root) => !insideHome(root)).flatMap((root) => ["--ro-bind", root, root]),
    ...(home !== undefined && !homeShown ? ["--tmpfs", home] : []),
    ...(home !== undefined && home !== confined.home && !homeShown ? ["--setenv", "HOME", home] : []),
    ...roots.filter(insideHome).flatMap((root) => ["--ro-bind", root, root]),
    ...hidden.flatMap((target) => (hiddenFolders.includes(target) ? ["--tmpfs", target] : ["--ro-bind", "/dev/null", target])),
    "--bind",
    tempDirectory,
    tempDirectory,
    // bwrap builds the view on a writable tmpfs (the root, /dev, the tmpfs mounted above): made
    // read-only once everything is mounted, so the temporary folder is the only place to write.
    ...[...(home !== undefined && !homeShown ? [home] : []), ...hiddenFolders, "/dev", "/"].flatMap((target) => ["--remount-ro", target]),
    "--setenv",
    "TMPDIR",
    tempDirectory,
    ...SOCKET_VARIABLES.flatMap((name) => ["--unsetenv", name]),
    "--chdir",
    facts.realPath(confined.cwd) ?? confined.cwd,
    "--",
    ...confined.command,
  ];
}
