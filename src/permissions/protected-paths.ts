import os from "node:os";
import path from "node:path";
import { realPathOfNearestAncestor, isSameOrInside } from "../paths/real-path.js";

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
export const PROTECTED_PROJECT_ENTRIES = [".mcp.json", ".agents", ".claude", ".agentwire", "AGENTS.md", "CLAUDE.md", ".git", ".envrc", ".vscode", ".idea"] as const;

const SHELL_STARTUP_FILES = new Set([
  ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".profile", ".login",
  ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".cshrc", ".tcshrc",
]);
const CREDENTIAL_DIRECTORIES = new Set([".ssh", ".aws", ".gnupg", ".kube", ".docker"]);
const CREDENTIAL_FILES = /^(\.env.*|\.npmrc|\.netrc|\.pypirc|\.git-credentials|credentials|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?)$/;
const AGENT_DIRECTORIES = new Set([".agentwire", ".claude"]);
const SYSTEM_DIRECTORIES = /^\/(etc|usr|bin|sbin|boot|lib|lib64|var\/lib)\//;
/** Device files that are not disks: writing them is ordinary. */
const HARMLESS_DEVICES = /^\/dev\/(null|zero|full|random|urandom|stdin|stdout|stderr|tty|fd\/.*|pts\/.*|shm\/.*)$/;

/**
 * Why writing `filePath` (relative to `cwd`, `~` for the home directory) needs approval, or
 * undefined. Both the path as named and the path it resolves to through symlinks are checked,
 * so a link in the workspace cannot stand in for `~/.bashrc`. Contract: never throws.
 */
export function assessWrite(filePath: string, cwd: string): string | undefined {
  const absolute = path.resolve(cwd, expandHome(filePath));
  if (absolute.startsWith("/dev/")) return HARMLESS_DEVICES.test(absolute) ? undefined : `This writes raw data to the device ${absolute}.`;
  return protectionReason(absolute) ?? protectionReason(realPathOfNearestAncestor(absolute));
}

function protectionReason(absolute: string): string | undefined {
  const segments = absolute.split(path.sep).filter((segment) => segment !== "");
  const name = segments.at(-1) ?? "";
  if (segments.includes(".git")) return `This writes to ${absolute}, inside .git: git's hooks and configuration can make later git commands run code.`;
  if (segments.some((segment) => AGENT_DIRECTORIES.has(segment))) return `This writes to ${absolute}, agent configuration (settings, hooks and permissions).`;
  if (SHELL_STARTUP_FILES.has(name) || absolute.includes("/.config/fish/")) return `This writes to ${absolute}, a shell startup file: commands in it run in every new shell.`;
  if (segments.some((segment) => CREDENTIAL_DIRECTORIES.has(segment)) || CREDENTIAL_FILES.test(name)) return `This writes to ${absolute}, which holds credentials.`;
  const home = os.homedir();
  if (isSameOrInside(absolute, home) && absolute !== home && path.relative(home, absolute).startsWith(".")) {
    return `This writes to ${absolute}, a configuration or credential file in your home directory.`;
  }
  if (SYSTEM_DIRECTORIES.test(absolute)) return `This writes to ${absolute}, a system file.`;
  return undefined;
}

function expandHome(target: string): string {
  return target === "~" || target.startsWith("~/") ? path.join(os.homedir(), target.slice(1)) : target;
}
