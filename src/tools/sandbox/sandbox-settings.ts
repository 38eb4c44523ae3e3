/**
 * How Bash commands are confined. `off` (the default, as Claude Code runs commands) runs them as
 * agentwire's own user sees the machine; the other modes run them under bubblewrap (bwrap).
 */
export const SANDBOX_MODES = ["off", "workspace-write", "read-only"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** A session's sandbox when it has one: what a sandboxed Bash command may write and reach. */
export interface SandboxSettings {
  /** `workspace-write`: the workspace roots are writable; `read-only`: they are not either. */
  mode: Exclude<SandboxMode, "off">;
  /** More absolute paths that stay writable (`--sandbox-allow-write`), in either mode. */
  allowWrite: readonly string[];
  /** Whether commands may use the network (`--sandbox-network`); otherwise they get none at all. */
  network: boolean;
  /**
   * Absolute paths kept read-only even where a writable bind covers them (the agentwire home:
   * its sessions, skills and settings), so a command cannot rewrite what agentwire trusts.
   */
  protectedPaths: readonly string[];
  /**
   * Names kept read-only in every writable folder, and in the home folder when a writable folder
   * holds it: what makes agents or tools run code the next time they start (`.mcp.json`,
   * `.claude`, `.git`, … — the permission system's protected project entries).
   */
  protectedNames: readonly string[];
}

/** What `tool_use_result.sandbox` carries: enough for a host to offer running the command unconfined. */
export interface SandboxNote {
  mode: SandboxSettings["mode"];
  network: boolean;
  note: string;
}

export function sandboxNote(settings: SandboxSettings): SandboxNote {
  const writes =
    settings.mode === "workspace-write" ? "writes outside the workspace (and the allowed paths)" : "writes anywhere but the allowed paths";
  const blocked = settings.network ? `${writes} are blocked` : `${writes} and network access are blocked`;
  return {
    mode: settings.mode,
    network: settings.network,
    note: `The command ran inside the sandbox (${settings.mode}); ${blocked}. A "Read-only file system" error or a failed connection ("Network is unreachable", "Connection refused") may come from the sandbox rather than the command; it would run unconfined with --sandbox off.`,
  };
}
