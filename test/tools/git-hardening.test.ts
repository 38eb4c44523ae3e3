import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hardenedGitEnvironment } from "../../src/tools/sandbox/git-hardening.js";

/** The hardened environment against the machine's own git, unconfined: what it stops by itself. */
let root: string;
let repo: string;
const git = (args: string[], env: NodeJS.ProcessEnv = process.env): string =>
  execFileSync("git", ["-C", repo, ...args], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agentwire-git-hardening-"));
  repo = join(root, "repo");
  execFileSync("git", ["init", "-q", repo]);
  await writeFile(join(repo, "tracked.txt"), "x\n");
  git(["add", "tracked.txt"]);
  git(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first"]);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A program that leaves `marker` behind when git runs it. */
async function markingProgram(name: string): Promise<{ program: string; marker: string }> {
  const marker = join(root, `${name}-ran`);
  const program = join(root, name);
  await writeFile(program, `#!/bin/sh\ntouch ${marker}\n`);
  await chmod(program, 0o755);
  return { program, marker };
}

describe("hardenedGitEnvironment", () => {
  it("keeps git from running the repository's fsmonitor, which plain git runs", async () => {
    const { program, marker } = await markingProgram("fsmonitor");
    git(["config", "core.fsmonitor", program]);
    git(["status"]);
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
    git(["status"], hardenedGitEnvironment(process.env));
    expect(existsSync(marker)).toBe(false);
  });

  it("keeps git status from running the repository's hooks and from rewriting the index", async () => {
    const { program, marker } = await markingProgram("post-index-change");
    await writeFile(join(repo, ".git", "hooks", "post-index-change"), `#!/bin/sh\nexec ${program}\n`);
    await chmod(join(repo, ".git", "hooks", "post-index-change"), 0o755);
    const stale = (seconds: number) => utimes(join(repo, "tracked.txt"), Date.now() / 1000 + seconds, Date.now() / 1000 + seconds);
    await stale(10);
    git(["status"]);
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
    await stale(20);
    git(["status"], hardenedGitEnvironment(process.env));
    expect(existsSync(marker)).toBe(false);
  });

  it("keeps git log from running a signature checker the repository names", async () => {
    const { program, marker } = await markingProgram("gpg");
    git(["config", "log.showSignature", "true"]);
    git(["config", "gpg.program", program]);
    git(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "second"]);
    // Unsigned commits are not checked; plant a signature header so git has one to verify.
    const signed = git(["cat-file", "commit", "HEAD"]).replace(
      /\n\n/,
      "\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n -----END PGP SIGNATURE-----\n\n",
    );
    const object = execFileSync("git", ["-C", repo, "hash-object", "-t", "commit", "-w", "--stdin"], {
      input: signed,
      encoding: "utf8",
    }).trim();
    git(["update-ref", "HEAD", object]);
    git(["log", "-1"]);
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
    git(["log", "-1"], hardenedGitEnvironment(process.env));
    expect(existsSync(marker)).toBe(false);
  });

  it("adds its settings after the ones the environment already has, and drops GIT_EXTERNAL_DIFF", () => {
    const env = hardenedGitEnvironment({
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "user.name",
      GIT_CONFIG_VALUE_0: "me",
      GIT_EXTERNAL_DIFF: "/tmp/x",
      PATH: "/usr/bin",
    });
    expect(env.GIT_CONFIG_KEY_0).toBe("user.name");
    expect(env.GIT_CONFIG_KEY_1).toBe("core.fsmonitor");
    expect(Number(env.GIT_CONFIG_COUNT)).toBeGreaterThan(5);
    expect(env[`GIT_CONFIG_KEY_${Number(env.GIT_CONFIG_COUNT) - 1}`]).toBeDefined();
    expect(env.GIT_EXTERNAL_DIFF).toBeUndefined();
    expect(env).toMatchObject({ GIT_PAGER: "cat", GIT_OPTIONAL_LOCKS: "0", PATH: "/usr/bin" });
    expect(
      git(
        ["config", "user.name"],
        hardenedGitEnvironment({ ...process.env, GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "user.name", GIT_CONFIG_VALUE_0: "me" }),
      ).trim(),
    ).toBe("me");
  });
});
