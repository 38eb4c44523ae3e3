import os from "node:os";
import path from "node:path";

/**
 * Calls that can do lasting damage outside what a task needs: they always go to the host for
 * approval, whatever the mode or rules say, unless permissions were bypassed explicitly. Returns
 * the human reason, which becomes part of the request and of any denial.
 */
export function assessRisk(toolName: string, input: Record<string, unknown>, roots: string[]): string | undefined {
  if (toolName === "Bash") return assessCommand(String(input.command ?? ""), roots);
  const filePath = input.file_path ?? input.notebook_path;
  if (["Write", "Edit", "MultiEdit", "NotebookEdit"].includes(toolName) && typeof filePath === "string") return assessWrite(filePath);
  return undefined;
}

const COMMAND_RISKS: Array<{ pattern: RegExp; reason: string }> = [
  { pattern: /(^|[\s;&|(])sudo\s/, reason: "runs a command as root with sudo" },
  { pattern: /\b(curl|wget)\b[^|;&]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b/, reason: "pipes a download straight into a shell" },
  { pattern: /\bmkfs(\.\w+)?\b/, reason: "formats a filesystem (mkfs)" },
  { pattern: /\bdd\b[^;&|]*\bof=\/dev\//, reason: "writes raw data to a device with dd" },
  { pattern: />\s*\/dev\/(sd|nvme|hd|vd|xvd|mmcblk)/, reason: "writes raw data to a block device" },
  { pattern: /\bgit\s+push\b[^;&|]*(\s--force\b|\s-f\b|\s--force-with-lease\b|\s\+\S)/, reason: "force-pushes, which can destroy remote history" },
  { pattern: /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/, reason: "is a fork bomb" },
  { pattern: /\bchmod\s+(-R\s+)?[0-7]*777\s+\/(\s|$)/, reason: "opens permissions on the filesystem root" },
];

function assessCommand(command: string, roots: string[]): string | undefined {
  for (const risk of COMMAND_RISKS) if (risk.pattern.test(command)) return `This command ${risk.reason}.`;
  const recursiveDelete = /\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(\s+-[a-zA-Z]+)*\s+([^;&|]+)/.exec(command);
  if (recursiveDelete) {
    const targets = recursiveDelete[3]!.trim().split(/\s+/);
    const outside = targets.find((target) => !isInsideRoots(expandHome(target), roots));
    if (outside) return `This command deletes ${outside} recursively, outside the workspace.`;
  }
  return undefined;
}

/** Dotfiles in the home directory and credential stores. */
function assessWrite(filePath: string): string | undefined {
  const absolute = path.resolve(expandHome(filePath));
  const home = os.homedir();
  const relativeToHome = path.relative(home, absolute);
  const inHome = relativeToHome !== ".." && !relativeToHome.startsWith(`..${path.sep}`) && !path.isAbsolute(relativeToHome);
  if (inHome && relativeToHome.split(path.sep)[0]?.startsWith(".")) return `This writes to ${absolute}, a configuration or credential file in your home directory.`;
  if (/(^|\/)(\.ssh|\.aws|\.gnupg|\.kube|\.docker)\//.test(absolute) || /(^|\/)(\.env(\..*)?|\.netrc|\.npmrc|\.pypirc|id_rsa|id_ed25519|credentials)$/.test(absolute)) {
    return `This writes to ${absolute}, which holds credentials.`;
  }
  if (/^\/(etc|usr|bin|sbin|boot|lib|lib64|var\/lib)\//.test(absolute)) return `This writes to ${absolute}, a system file.`;
  return undefined;
}

function expandHome(target: string): string {
  return target === "~" || target.startsWith("~/") ? path.join(os.homedir(), target.slice(1)) : target;
}

function isInsideRoots(target: string, roots: string[]): boolean {
  if (target.includes("*") && !target.startsWith("/") && !target.startsWith("~")) return true;
  return roots.some((root) => {
    const relative = path.relative(root, path.resolve(root, target));
    return relative !== "" && relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
  });
}
