import { describe, expect, it } from "vitest";
import { confinementArguments, type ConfinedCommand, type PathFacts } from "../../src/tools/sandbox/confinement-arguments.js";

/** A file system where `existing` folders (and `files`) exist, with `links` resolving elsewhere. */
function facts(existing: string[], links: Record<string, string> = {}, files: string[] = []): PathFacts {
  const present = new Set([...existing, ...files]);
  return {
    realPath: (path) => links[path] ?? (present.has(path) ? path : undefined),
    isDirectory: (path) => present.has(path) && !files.includes(path),
  };
}

const SYSTEM = ["/usr", "/etc", "/lib", "/opt"];
const command = (overrides: Partial<ConfinedCommand> = {}): ConfinedCommand => ({
  roots: ["/work/repo", "/tmp/out"],
  home: "/home/u",
  hidden: ["/home/u/.agentwire"],
  tempDirectory: "/tmp/out/tmp",
  cwd: "/work/repo/src",
  command: ["/bin/bash", "-c", "cat notes.txt"],
  ...overrides,
});

/** The mounts in order, as [flag, ...operands]. */
function mounts(args: string[]): string[][] {
  const found: string[][] = [];
  for (let index = 0; index < args.length && args[index] !== "--"; index++) {
    const flag = args[index]!;
    if (flag === "--ro-bind" || flag === "--bind") found.push(args.slice(index, index + 3));
    if (flag === "--tmpfs" || flag === "--dev" || flag === "--proc") found.push(args.slice(index, index + 2));
  }
  return found;
}

describe("confinementArguments", () => {
  it("shows only the system folders and the roots read-only, an empty home, and a writable TMPDIR; no network; never / as a whole", () => {
    const args = confinementArguments(
      command(),
      facts([...SYSTEM, "/work/repo", "/tmp/out", "/tmp/out/tmp", "/home/u", "/work/repo/src"], { "/bin": "/usr/bin" }),
    );
    expect(mounts(args)).toEqual([
      ["--ro-bind", "/usr", "/usr"],
      // A merged-/usr link is shown at its own name.
      ["--ro-bind", "/usr/bin", "/bin"],
      ["--ro-bind", "/lib", "/lib"],
      ["--ro-bind", "/etc", "/etc"],
      ["--ro-bind", "/opt", "/opt"],
      ["--dev", "/dev"],
      ["--proc", "/proc"],
      // Outer folders first, so a root inside another root stays visible.
      ["--ro-bind", "/tmp/out", "/tmp/out"],
      ["--ro-bind", "/work/repo", "/work/repo"],
      ["--tmpfs", "/home/u"],
      ["--bind", "/tmp/out/tmp", "/tmp/out/tmp"],
    ]);
    expect(mounts(args).map((mount) => mount[1])).not.toContain("/");
    expect(args).toEqual(expect.arrayContaining(["--unshare-net", "--unshare-pid", "--die-with-parent", "--new-session"]));
    expect(args.join(" ")).toContain("--setenv TMPDIR /tmp/out/tmp");
    expect(args.join(" ")).toContain("--unsetenv SSH_AUTH_SOCK");
    expect(args.slice(-6)).toEqual(["--chdir", "/work/repo/src", "--", "/bin/bash", "-c", "cat notes.txt"]);
    // The only writable mount is the temporary folder: every tmpfs is made read-only at the end.
    expect(mounts(args).filter(([flag]) => flag === "--bind")).toEqual([["--bind", "/tmp/out/tmp", "/tmp/out/tmp"]]);
    const remounted = args.flatMap((argument, index) => (argument === "--remount-ro" ? [args[index + 1]] : []));
    expect(remounted).toEqual(["/home/u", "/dev", "/"]);
    expect(args.lastIndexOf("--remount-ro")).toBeGreaterThan(args.indexOf("--bind"));
  });

  it("binds a root inside the home after the empty home, so the project shows and the rest of the home does not", () => {
    const args = confinementArguments(
      command({ roots: ["/home/u/src/repo", "/tmp/out"], cwd: "/home/u/src/repo" }),
      facts(["/home/u/src/repo", "/tmp/out", "/tmp/out/tmp", "/home/u", "/home/u/.agentwire"]),
    );
    const order = mounts(args).map((mount) => mount.join(" "));
    expect(order.indexOf("--tmpfs /home/u")).toBeLessThan(order.indexOf("--ro-bind /home/u/src/repo /home/u/src/repo"));
    // agentwire's home is not visible through any root, so nothing needs covering.
    expect(args).not.toContain("/home/u/.agentwire");
  });

  it("when a root is the home (or holds it), shows it but covers the credential folders and files and agentwire's home", () => {
    const existing = ["/home/u", "/tmp/out", "/tmp/out/tmp", "/home/u/.ssh", "/home/u/.aws", "/home/u/.agentwire"];
    const args = confinementArguments(command({ roots: ["/home/u", "/tmp/out"], cwd: "/home/u" }), facts(existing, {}, ["/home/u/.netrc"]));
    const found = mounts(args);
    expect(found).not.toContainEqual(["--tmpfs", "/home/u"]);
    expect(found).toContainEqual(["--ro-bind", "/home/u", "/home/u"]);
    expect(found).toContainEqual(["--tmpfs", "/home/u/.ssh"]);
    expect(found).toContainEqual(["--tmpfs", "/home/u/.aws"]);
    expect(found).toContainEqual(["--tmpfs", "/home/u/.agentwire"]);
    expect(found).toContainEqual(["--ro-bind", "/dev/null", "/home/u/.netrc"]);
    expect(args.flatMap((argument, index) => (argument === "--remount-ro" ? [args[index + 1]] : []))).toEqual([
      "/home/u/.agentwire",
      "/home/u/.ssh",
      "/home/u/.aws",
      "/dev",
      "/",
    ]);
    // Covered after the root that shows them, and before the temporary folder.
    const order = found.map((mount) => mount.join(" "));
    expect(order.indexOf("--tmpfs /home/u/.ssh")).toBeGreaterThan(order.indexOf("--ro-bind /home/u /home/u"));
    expect(order.at(-1)).toBe("--bind /tmp/out/tmp /tmp/out/tmp");
  });

  it("mounts roots, home and the start directory by their real paths, and leaves out what does not exist", () => {
    const args = confinementArguments(
      command({ roots: ["/work/link", "/gone"], home: "/home/link", cwd: "/work/link" }),
      facts(["/work/real", "/tmp/out/tmp", "/data/home/u"], { "/work/link": "/work/real", "/home/link": "/data/home/u" }),
    );
    expect(mounts(args)).toContainEqual(["--ro-bind", "/work/real", "/work/real"]);
    expect(args).not.toContain("/gone");
    expect(mounts(args)).toContainEqual(["--tmpfs", "/data/home/u"]);
    expect(args.join(" ")).toContain("--setenv HOME /data/home/u");
    expect(args.join(" ")).toContain("--chdir /work/real");
  });

  it("without a home, or with / as the home, mounts no tmpfs over it", () => {
    expect(
      mounts(confinementArguments(command({ home: undefined }), facts(["/work/repo", "/tmp/out", "/tmp/out/tmp"]))).map(([flag]) => flag),
    ).not.toContain("--tmpfs");
    expect(
      mounts(confinementArguments(command({ home: "/" }), facts(["/", "/work/repo", "/tmp/out", "/tmp/out/tmp"]))).map(([flag]) => flag),
    ).not.toContain("--tmpfs");
  });
});
