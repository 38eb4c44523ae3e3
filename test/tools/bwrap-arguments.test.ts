import { describe, expect, it } from "vitest";
import { bwrapArguments, socketDirectories, protectedCandidates, type SandboxedCommand } from "../../src/tools/sandbox/bwrap-arguments.js";
import type { SandboxSettings } from "../../src/tools/sandbox/sandbox-settings.js";

const settings: SandboxSettings = {
  mode: "workspace-write",
  allowWrite: [],
  network: false,
  protectedPaths: ["/home/u/.agentwire"],
  protectedNames: [".git"],
};

function command(overrides: Partial<SandboxSettings> = {}, roots = ["/work/repo", "/tmp/out"]): SandboxedCommand {
  return {
    settings: { ...settings, ...overrides },
    roots,
    tempDirectory: "/tmp/out/tmp",
    cwd: "/work/repo/src",
    command: ["/bin/bash", "-c", "make"],
    socketDirectories: [],
    home: undefined,
  };
}

/** The mounts as [flag, source, target] triples, in order, and the flags around them. */
function mounts(args: string[]): string[][] {
  const found: string[][] = [];
  for (let index = 0; index < args.length; index++) {
    if (args[index] === "--") break;
    if (args[index] === "--bind" || args[index] === "--ro-bind") found.push(args.slice(index, index + 3));
  }
  return found;
}

/** A file system where `existing` paths exist as they are, plus the roots and folders every test binds. */
function fileSystem(existing: string[] = [], links: Record<string, string> = {}): (path: string) => string | undefined {
  const present = new Set(["/work/repo", "/tmp/out", "/tmp/out/tmp", "/home/u", "/var/cache/build", ...existing]);
  return (path) => links[path] ?? (present.has(path) ? path : undefined);
}

describe("bwrapArguments", () => {
  it("workspace-write: everything read-only, then the roots writable, then the temp folder; no network; the command last", () => {
    const args = bwrapArguments(command(), fileSystem());
    expect(mounts(args)).toEqual([
      ["--ro-bind", "/", "/"],
      ["--bind", "/work/repo", "/work/repo"],
      ["--bind", "/tmp/out", "/tmp/out"],
      ["--bind", "/tmp/out/tmp", "/tmp/out/tmp"],
    ]);
    expect(args).toEqual(expect.arrayContaining(["--die-with-parent", "--unshare-pid", "--unshare-net"]));
    expect(args.join(" ")).toContain("--setenv TMPDIR /tmp/out/tmp --chdir /work/repo/src -- /bin/bash -c make");
    expect(args.slice(-4)).toEqual(["--", "/bin/bash", "-c", "make"]);
  });

  it("re-binds the whole .git and the agentwire home read-only after the writable binds, only where they exist inside one", () => {
    const args = bwrapArguments(command({}, ["/work/repo", "/home/u"]), fileSystem(["/work/repo/.git", "/home/u/.agentwire"]));
    expect(mounts(args)).toEqual([
      ["--ro-bind", "/", "/"],
      ["--bind", "/work/repo", "/work/repo"],
      ["--bind", "/home/u", "/home/u"],
      ["--ro-bind", "/work/repo/.git", "/work/repo/.git"],
      ["--ro-bind", "/home/u/.agentwire", "/home/u/.agentwire"],
      ["--bind", "/tmp/out/tmp", "/tmp/out/tmp"],
    ]);
  });

  it("pins every folder between a writable root and a protected path, so that none can be renamed to move it aside", () => {
    const deep = { ...settings, protectedPaths: ["/work/repo/cfg/aw"] };
    const args = bwrapArguments({ ...command({}, ["/work/repo"]), settings: deep }, fileSystem(["/work/repo/cfg", "/work/repo/cfg/aw"]));
    expect(mounts(args)).toEqual([
      ["--ro-bind", "/", "/"],
      ["--bind", "/work/repo", "/work/repo"],
      ["--bind", "/work/repo/cfg", "/work/repo/cfg"],
      ["--ro-bind", "/work/repo/cfg/aw", "/work/repo/cfg/aw"],
      ["--bind", "/tmp/out/tmp", "/tmp/out/tmp"],
    ]);
  });

  it("without network, covers the socket folders with empty ones and unsets the agents' variables; with network, leaves them", () => {
    const offline = bwrapArguments(
      { ...command(), socketDirectories: ["/run", "/var/run", "/tmp/tmux-0", "/tmp/.X11-unix"] },
      fileSystem(["/run", "/tmp/tmux-0"], { "/var/run": "/run" }),
    );
    const tmpfs = offline.flatMap((argument, index) => (argument === "--tmpfs" ? [offline[index + 1]] : []));
    expect(tmpfs).toEqual(["/run", "/tmp/tmux-0"]);
    expect(offline.join(" ")).toContain("--unsetenv SSH_AUTH_SOCK --unsetenv DBUS_SESSION_BUS_ADDRESS");
    // Covered before the writable binds, so a root inside one of them is still there.
    expect(offline.indexOf("--tmpfs")).toBeLessThan(offline.indexOf("--bind"));
    const online = bwrapArguments({ ...command({ network: true }), socketDirectories: ["/run"] }, fileSystem(["/run"]));
    expect(online).not.toContain("--tmpfs");
    expect(online).not.toContain("--unsetenv");
  });

  it("without network, all of /tmp is covered (ssh-agent's socket folder among it); a root inside it is shown again, then bound as roots are", () => {
    const args = bwrapArguments(
      { ...command({ mode: "read-only" }), socketDirectories: socketDirectories("/home/u") },
      fileSystem(["/run", "/tmp", "/home/u/.ssh"]),
    );
    const tmpfs = args.flatMap((argument, index) => (argument === "--tmpfs" ? [args[index + 1]] : []));
    expect(tmpfs).toEqual(["/run", "/tmp", "/home/u/.ssh"]);
    expect(socketDirectories("/home/u")).toEqual([
      "/run",
      "/var/run",
      "/tmp",
      "/var/tmp",
      "/home/u/.ssh",
      "/home/u/.gnupg",
      "/home/u/.docker",
    ]);
    const text = args.join(" ");
    expect(text.indexOf("--tmpfs /tmp ")).toBeLessThan(text.indexOf("--ro-bind /tmp/out /tmp/out"));
    expect(text.indexOf("--ro-bind /tmp/out /tmp/out")).toBeLessThan(text.indexOf("--bind /tmp/out/tmp /tmp/out/tmp"));
  });

  it("does not bind a protected path that no writable bind covers: it is read-only already", () => {
    expect(mounts(bwrapArguments(command(), fileSystem(["/home/u/.agentwire"]))).map(([, source]) => source)).not.toContain(
      "/home/u/.agentwire",
    );
  });

  it("read-only: the roots stay read-only; only --sandbox-allow-write paths and the temp folder are writable", () => {
    const args = bwrapArguments(command({ mode: "read-only", allowWrite: ["/var/cache/build"] }), fileSystem());
    expect(mounts(args)).toEqual([
      ["--ro-bind", "/", "/"],
      ["--bind", "/var/cache/build", "/var/cache/build"],
      ["--bind", "/tmp/out/tmp", "/tmp/out/tmp"],
    ]);
  });

  it("binds real paths (bwrap cannot mount through a symlink) and leaves out a root that no longer exists", () => {
    const args = bwrapArguments(command({}, ["/link/repo", "/gone"]), fileSystem([], { "/link/repo": "/work/repo" }));
    expect(mounts(args)).toEqual([
      ["--ro-bind", "/", "/"],
      ["--bind", "/work/repo", "/work/repo"],
      ["--bind", "/tmp/out/tmp", "/tmp/out/tmp"],
    ]);
  });

  it("protects every protected name in every writable folder, bound where it exists and watched where it does not", () => {
    const names = { ...settings, protectedNames: [".git", ".mcp.json", ".claude"] };
    const sandboxed = { ...command({}, ["/work/repo"]), settings: names };
    const existing = fileSystem(["/work/repo/.claude"]);
    expect(protectedCandidates(sandboxed, existing)).toEqual([
      "/work/repo/.git",
      "/work/repo/.mcp.json",
      "/work/repo/.claude",
      "/home/u/.agentwire",
    ]);
    expect(mounts(bwrapArguments(sandboxed, existing))).toContainEqual(["--ro-bind", "/work/repo/.claude", "/work/repo/.claude"]);
    expect(mounts(bwrapArguments(sandboxed, existing)).map(([, source]) => source)).not.toContain("/work/repo/.mcp.json");
  });

  it("in a writable home: the protected names and the shell's startup files too; in a read-only home: nothing to protect", () => {
    const writableHome = { ...command({ allowWrite: ["/home/u"] }, ["/work/repo"]), home: "/home/u" };
    const candidates = protectedCandidates(writableHome, fileSystem(["/home/u/.bashrc"]));
    expect(candidates).toEqual(
      expect.arrayContaining(["/home/u/.bashrc", "/home/u/.zshrc", "/home/u/.profile", "/home/u/.config/fish", "/home/u/.git"]),
    );
    expect(mounts(bwrapArguments(writableHome, fileSystem(["/home/u/.bashrc"])))).toContainEqual([
      "--ro-bind",
      "/home/u/.bashrc",
      "/home/u/.bashrc",
    ]);
    const readOnlyHome = { ...command({}, ["/work/repo"]), home: "/home/u" };
    expect(protectedCandidates(readOnlyHome, fileSystem()).filter((candidate) => candidate.startsWith("/home/u/."))).toEqual([
      "/home/u/.agentwire",
    ]);
  });

  it("keeps the network with network: true, and binds a path named twice once", () => {
    const args = bwrapArguments(
      command({ network: true, allowWrite: ["/work/repo", "/link/repo"] }),
      fileSystem([], { "/link/repo": "/work/repo" }),
    );
    expect(args).not.toContain("--unshare-net");
    expect(mounts(args).filter(([, source]) => source === "/work/repo")).toHaveLength(1);
  });
});
