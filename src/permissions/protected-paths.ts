import { lstatSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { realPathOfNearestAncestor, isSameOrInside } from "../paths/real-path.js";
import { SHELL_STARTUP_FILES } from "../paths/shell-startup-files.js";

/**
 * Files whose change reaches beyond the task: they run code later (git hooks and config, shell
 * startup files, agent settings), hold credentials, or belong to the system. Writing them always
 * needs a person's approval, even in acceptEdits and auto modes, and wherever they are — inside
 * the workspace too. CI configuration is deliberately not here: editing it is ordinary work.
 */

/**
 * Names inside a project that make agents or tools run code, or widen what they may do, the next
 * time they start (MCP servers, skills, settings and hooks, agent instructions, git's hooks and
 * config, direnv, editor tasks). Writing them asks in every mode but an explicit bypass, and every
 * confinement keeps them read-only. Shared by the write checks and the sandboxes.
 */
export const PROTECTED_PROJECT_ENTRIES = [
  ".mcp.json",
  ".agents",
  ".claude",
  ".agentwire",
  "AGENTS.md",
  "CLAUDE.md",
  ".git",
  ".envrc",
  ".vscode",
  ".idea",
] as const;

const STARTUP_FILE_NAMES = new Set(SHELL_STARTUP_FILES);
/** Anything inside fish's startup folder (FISH_CONFIGURATION_FOLDER in paths/shell-startup-files.ts). */
const FISH_CONFIGURATION = /(^|\/)\.config\/fish\/./;
const CREDENTIAL_DIRECTORIES = new Set([".ssh", ".aws", ".gnupg", ".kube", ".docker"]);
const CREDENTIAL_FILES = /^(\.env.*|\.npmrc|\.netrc|\.pypirc|\.git-credentials|credentials|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?)$/;
const PROJECT_ENTRY_NAMES = new Set<string>(PROTECTED_PROJECT_ENTRIES.map((entry) => entry.toLowerCase()));
const SYSTEM_DIRECTORIES = /^\/(etc|usr|bin|sbin|boot|lib|lib64|var\/lib)\//;
/** Device files that are not disks: writing them is ordinary. */
const HARMLESS_DEVICES = /^\/dev\/(null|zero|full|random|urandom|stdin|stdout|stderr|tty|fd\/.*|pts\/.*|shm\/.*)$/;
/**
 * Characters macOS's HFS+ leaves out of a name when it looks one up (joiners, direction marks,
 * the byte-order mark): `.g\u200cit` opens `.git` there.
 */
const IGNORED_IN_NAMES = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u206a-\u206f\ufeff]/g;

/**
 * Why writing `filePath` (relative to `cwd`, `~` for the home directory) needs approval, or
 * undefined. Both the path as named and the path it resolves to through symlinks (dangling ones
 * too) are checked, so a link in the workspace cannot stand in for `~/.bashrc`; and a file with
 * several hard links asks, since changing it changes the same file under its other names, which
 * may lie anywhere. `agentwireHome`: the agentwire home when AGENTWIRE_HOME may have put it where
 * no name marks it (`/srv/aw`), protected as ~/.agentwire is. Contract: never throws.
 */
export function assessWrite(filePath: string, cwd: string, agentwireHome?: string): string | undefined {
  const absolute = path.resolve(cwd, expandHome(filePath));
  return (
    assessProtectedPath(filePath, cwd) ??
    (agentwireHome === undefined ? undefined : assessAgentwireHome(filePath, cwd, agentwireHome)) ??
    sharedFileReason(realPathOfNearestAncestor(absolute))
  );
}

/** Inside the agentwire home, as named or through links (`home` itself may be a link too). */
export function assessAgentwireHome(filePath: string, cwd: string, home: string): string | undefined {
  const absolute = path.resolve(cwd, expandHome(filePath));
  const real = realPathOfNearestAncestor(absolute);
  const homes = [path.resolve(home), realPathOfNearestAncestor(path.resolve(home))];
  if (!homes.some((candidate) => isSameOrInside(absolute, candidate) || isSameOrInside(real, candidate))) return undefined;
  return `This writes to ${absolute}, inside agentwire's home (${home}): its settings, skills and cached code decide what agentwire runs and may do.`;
}

/**
 * The same without the hard-link check, for changes that touch a name rather than the file's
 * content (deleting, renaming or linking one name leaves the others as they are).
 */
export function assessProtectedPath(filePath: string, cwd: string): string | undefined {
  const absolute = path.resolve(cwd, expandHome(filePath));
  return protectionReason(absolute) ?? protectionReason(realPathOfNearestAncestor(absolute));
}

function protectionReason(absolute: string): string | undefined {
  if (absolute.startsWith("/dev/")) return HARMLESS_DEVICES.test(absolute) ? undefined : `This writes raw data to the device ${absolute}.`;
  const namedSegments = absolute.split(path.sep).filter((segment) => segment !== "");
  const segments = namedSegments.map(nameAsLookedUp);
  const name = segments.at(-1) ?? "";
  if (segments.includes(".git"))
    return `This writes to ${absolute}, inside .git: git's hooks and configuration can make later git commands run code.`;
  const entry = segments.findIndex((segment) => PROJECT_ENTRY_NAMES.has(segment));
  if (entry !== -1) {
    return `This writes to ${absolute}, under ${namedSegments[entry]}: agent configuration or project settings that can start programs, add instructions or widen permissions the next time an agent, editor or shell opens the folder.`;
  }
  if (STARTUP_FILE_NAMES.has(name) || FISH_CONFIGURATION.test(segments.join("/")))
    return `This writes to ${absolute}, a shell startup file: commands in it run in every new shell.`;
  if (segments.some((segment) => CREDENTIAL_DIRECTORIES.has(segment)) || CREDENTIAL_FILES.test(name))
    return `This writes to ${absolute}, which holds credentials.`;
  const home = os.homedir();
  if (isSameOrInside(absolute, home) && absolute !== home && path.relative(home, absolute).startsWith(".")) {
    return `This writes to ${absolute}, a configuration or credential file in your home directory.`;
  }
  if (SYSTEM_DIRECTORIES.test(absolute)) return `This writes to ${absolute}, a system file.`;
  return undefined;
}

/**
 * A name as a file system that ignores case, Unicode form, invisible characters or trailing dots
 * and spaces (macOS, Windows, their shares) finds it: `.GIT`, `Claude.md` and `.git.` all open
 * the protected entry there. Erring toward the question, this applies on every system: on Linux
 * `agents.md` is a different file, but other tools may still read it as AGENTS.md.
 */
function nameAsLookedUp(segment: string): string {
  return segment
    .normalize("NFC")
    .replace(IGNORED_IN_NAMES, "")
    .replace(/[. ]+$/, "")
    .toLowerCase();
}

/** A regular file with more than one hard link: a write reaches every name it has. */
function sharedFileReason(realPath: string): string | undefined {
  try {
    const stats = lstatSync(realPath, { throwIfNoEntry: false });
    if (stats?.isFile() !== true || stats.nlink < 2) return undefined;
    return `This writes to ${realPath}, a file with ${stats.nlink} hard links: the change reaches the same file under its other names too, which may be outside the workspace.`;
  } catch {
    return undefined;
  }
}

function expandHome(target: string): string {
  return target === "~" || target.startsWith("~/") ? path.join(os.homedir(), target.slice(1)) : target;
}
