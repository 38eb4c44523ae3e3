import { lstatSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync } from "node:fs";

/**
 * bwrap can keep an existing path read-only by binding it onto itself, but it cannot bind a path
 * that does not exist without creating it on the host first — an empty `.mcp.json` the user never
 * made. So a sandboxed command could still create a protected entry that is missing (plant a
 * `.mcp.json` the next run starts, a `.claude/skills/…`, a `~/.bashrc`), or swap a symlink that
 * was protected only through its target. The watch closes that gap after the fact: it notes each
 * protected path before the command, and once the command has ended — bwrap's PID namespace
 * guarantees nothing of it still runs — undoes any change: what appeared is removed, a replaced
 * symlink is put back, and a target a dangling symlink gained is removed again.
 */
interface ProtectedEntriesWatch {
  /** Undoes what the command did to the protected paths; returns the paths it had changed. Never throws. */
  undoChanges(): string[];
}

type Fingerprint =
  | { kind: "missing" }
  /** `resolved`: the real path it leads to and that file's identity, undefined while it dangles. */
  | { kind: "link"; target: string; resolved: { path: string; identity: string } | undefined }
  | { kind: "other"; identity: string };

export function watchProtectedEntries(paths: readonly string[]): ProtectedEntriesWatch {
  const before = new Map(paths.map((entry) => [entry, fingerprint(entry)]));
  return {
    undoChanges() {
      const changed: string[] = [];
      for (const [entry, previous] of before) {
        const now = fingerprint(entry);
        if (sameFingerprint(previous, now)) continue;
        changed.push(entry);
        try {
          undo(entry, previous, now);
        } catch {
          // Reported as changed all the same; nothing more can be done from here.
        }
      }
      return changed;
    },
  };
}

function undo(entry: string, previous: Fingerprint, now: Fingerprint): void {
  // The link itself is as it was, but its missing target was created: remove the target.
  if (
    previous.kind === "link" &&
    now.kind === "link" &&
    previous.target === now.target &&
    previous.resolved === undefined &&
    now.resolved !== undefined
  ) {
    rmSync(now.resolved.path, { recursive: true, force: true });
    return;
  }
  // rmSync removes a symlink itself, never what it points to.
  rmSync(entry, { recursive: true, force: true });
  if (previous.kind === "link") symlinkSync(previous.target, entry);
}

function fingerprint(entry: string): Fingerprint {
  let stats;
  try {
    stats = lstatSync(entry);
  } catch {
    return { kind: "missing" };
  }
  if (stats.isSymbolicLink()) return { kind: "link", target: readlinkSync(entry), resolved: resolvedTarget(entry) };
  return { kind: "other", identity: identityOf(stats) };
}

function resolvedTarget(link: string): { path: string; identity: string } | undefined {
  try {
    const real = realpathSync(link);
    return { path: real, identity: identityOf(statSync(real)) };
  } catch {
    return undefined;
  }
}

/** The file's type and inode: a file replaced by another, even with the same content, differs. */
function identityOf(stats: { mode: number; dev: number; ino: number }): string {
  return `${stats.mode & 0o170000}:${stats.dev}:${stats.ino}`;
}

function sameFingerprint(a: Fingerprint, b: Fingerprint): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
