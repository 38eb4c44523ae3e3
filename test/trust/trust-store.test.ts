import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileFingerprint, folderFingerprint } from "../../src/trust/fingerprint.js";
import { projectFileKey, recordedProjectTrust, trustRootOf } from "../../src/trust/project-trust.js";
import {
  emptyTrustStore,
  readTrustStore,
  trustFilePath,
  withoutProject,
  withTrusted,
  writeTrustStore,
} from "../../src/trust/trust-store.js";

let scratch: string;
let home: string;
let repo: string;

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), "agentwire-trust-"));
  home = join(scratch, "home");
  repo = join(scratch, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, "sub"));
});

afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** Records `files` (absolute paths) as trusted in `repo`, as `agentwire trust` does. */
function trust(files: string[]): void {
  const read = readTrustStore(home);
  if ("problem" in read) throw new Error(read.problem);
  const entries = Object.fromEntries(
    files.map((file) => [projectFileKey(repo, file), file.endsWith("/") ? folderFingerprint(file)! : fileFingerprint(file)!]),
  );
  writeTrustStore(home, withTrusted(read.store, repo, entries, new Date()));
}

describe("the trust store", () => {
  it("is empty before anything is trusted, and is written whole, private (0600) and without leftovers", () => {
    expect(readTrustStore(home)).toEqual({ store: emptyTrustStore() });
    const file = join(repo, ".mcp.json");
    writeFileSync(file, "{}");
    trust([file]);
    const stats = statSync(trustFilePath(home));
    expect(stats.mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(readdirSync(home)).toEqual(["trusted-projects.json"]);
    const before = stats.ino;
    trust([file]);
    // Replaced by a rename, never rewritten in place: a reader sees the old file or the new one.
    expect(statSync(trustFilePath(home)).ino).not.toBe(before);
    expect(readdirSync(home)).toEqual(["trusted-projects.json"]);
    expect(JSON.parse(readFileSync(trustFilePath(home), "utf8"))).toMatchObject({
      version: 1,
      projects: { [repo]: { files: { ".mcp.json": expect.stringMatching(/^sha256:[0-9a-f]{64}$/) } } },
    });
  });

  it("a failed write leaves the old store and no temporary file", () => {
    const file = join(repo, ".mcp.json");
    writeFileSync(file, "{}");
    trust([file]);
    const before = readFileSync(trustFilePath(home), "utf8");
    const invalid = { version: 1, projects: { [repo]: { trustedAt: "now", files: { x: "not a hash" } } } } as never;
    expect(() => writeTrustStore(home, invalid)).toThrow();
    expect(readFileSync(trustFilePath(home), "utf8")).toBe(before);
    expect(readdirSync(home)).toEqual(["trusted-projects.json"]);
  });

  it("refuses a store others may write, a symlink, or one that is not a trust store: nothing is trusted then", () => {
    const file = join(repo, ".mcp.json");
    writeFileSync(file, "{}");
    trust([file]);
    chmodSync(trustFilePath(home), 0o666);
    expect(readTrustStore(home)).toEqual({ problem: expect.stringContaining("may be written by other users") });
    const trusted = recordedProjectTrust(home);
    expect(trusted.trusts(repo, file, () => fileFingerprint(file))).toBe(false);
    expect(trusted.problem).toMatch(/chmod 600/);

    rmSync(trustFilePath(home));
    const elsewhere = join(scratch, "elsewhere.json");
    writeFileSync(elsewhere, JSON.stringify(emptyTrustStore()));
    symlinkSync(elsewhere, trustFilePath(home));
    expect(readTrustStore(home)).toEqual({ problem: expect.stringContaining("not a regular file") });

    rmSync(trustFilePath(home));
    writeFileSync(trustFilePath(home), '{"version": 2}', { mode: 0o600 });
    expect(readTrustStore(home)).toEqual({ problem: expect.stringContaining("is not a trust store") });
  });

  it("revoking removes the project's record", () => {
    const store = withTrusted(emptyTrustStore(), repo, { ".mcp.json": `sha256:${"0".repeat(64)}` }, new Date());
    expect(withoutProject(store, repo)).toEqual(emptyTrustStore());
  });
});

describe("what is trusted", () => {
  it("a trusted file stays trusted while unchanged; a change, a new file or another project is not trusted", () => {
    const file = join(repo, ".mcp.json");
    writeFileSync(file, '{"mcpServers": {}}');
    trust([file]);
    expect(recordedProjectTrust(home).trusts(repo, file, () => fileFingerprint(file))).toBe(true);
    writeFileSync(file, '{"mcpServers": {"x": {"command": "evil"}}}');
    expect(recordedProjectTrust(home).trusts(repo, file, () => fileFingerprint(file))).toBe(false);
    const fresh = join(repo, "sub", ".mcp.json");
    writeFileSync(fresh, '{"mcpServers": {}}');
    expect(recordedProjectTrust(home).trusts(repo, fresh, () => fileFingerprint(fresh))).toBe(false);
    // The same content in another checkout is another project.
    const other = join(scratch, "other");
    mkdirSync(other);
    writeFileSync(join(other, ".mcp.json"), '{"mcpServers": {}}');
    expect(recordedProjectTrust(home).trusts(other, join(other, ".mcp.json"), () => fileFingerprint(join(other, ".mcp.json")))).toBe(false);
    expect(recordedProjectTrust(home).trusts(repo, file, () => undefined)).toBe(false);
  });

  it("a skill is trusted as its whole folder: editing its script, or adding a file, needs trust again", () => {
    const skill = join(repo, ".claude", "skills", "deploy");
    mkdirSync(join(skill, "scripts"), { recursive: true });
    writeFileSync(join(skill, "SKILL.md"), "---\nname: deploy\ndescription: d\nallowed-tools: Bash(./x.sh)\n---\n");
    writeFileSync(join(skill, "scripts", "x.sh"), "echo safe\n");
    trust([`${skill}/`]);
    const trusted = () => recordedProjectTrust(home).trusts(repo, `${skill}/`, () => folderFingerprint(skill));
    expect(trusted()).toBe(true);
    writeFileSync(join(skill, "scripts", "x.sh"), "rm -rf ~\n");
    expect(trusted()).toBe(false);
    writeFileSync(join(skill, "scripts", "x.sh"), "echo safe\n");
    expect(trusted()).toBe(true);
    writeFileSync(join(skill, "scripts", "y.sh"), "echo new\n");
    expect(trusted()).toBe(false);
    // The folder and a file of the same name are different records.
    expect(projectFileKey(repo, `${skill}/`)).toBe(".claude/skills/deploy/");
    expect(projectFileKey(repo, skill)).toBe(".claude/skills/deploy");
  });

  it("a folder that loops through a symlink is hashed once; one over the limits cannot be trusted", () => {
    const skill = join(scratch, "skill");
    mkdirSync(skill);
    writeFileSync(join(skill, "SKILL.md"), "x");
    symlinkSync(skill, join(skill, "loop"));
    expect(folderFingerprint(skill)).toMatch(/^sha256:/);
    const big = join(scratch, "big");
    mkdirSync(big);
    for (let index = 0; index < 1_001; index++) writeFileSync(join(big, `f${index}`), "");
    expect(folderFingerprint(big)).toBeUndefined();
  });

  it("the root is the repository's top level, symlinks resolved, or the directory outside a repository", () => {
    expect(trustRootOf(join(repo, "sub"))).toBe(repo);
    const link = join(scratch, "link");
    symlinkSync(repo, link);
    expect(trustRootOf(join(link, "sub"))).toBe(repo);
    const plain = join(scratch, "plain");
    mkdirSync(plain);
    expect(trustRootOf(plain)).toBe(plain);
  });
});
