import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { traitsOf } from "../helpers/tool-traits.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathsOutsideRoots } from "../../src/permissions/command-paths.js";
import { decidePermission } from "../../src/permissions/policy.js";

let root: string;
let cwd: string;

beforeAll(async () => {
  root = await mkdtemp(join(os.tmpdir(), "agentwire-paths-"));
  cwd = join(root, "project");
  await mkdir(join(cwd, "src"), { recursive: true });
  await symlink("/etc", join(cwd, "etc-link"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("paths a read-only command reads outside the roots", () => {
  it.each([
    ["cat ~/.ssh/id_rsa", ["~/.ssh/id_rsa"]],
    ["grep -r key /etc", ["/etc"]],
    ["head -n 5 ../secrets.txt", ["../secrets.txt"]],
    ["cat src/../../x", ["src/../../x"]],
    ['cat "$HOME"/.aws/credentials', ['$HOME/.aws/credentials']],
    ["wc -l < /etc/passwd", ["/etc/passwd"]],
    ["rg --files --glob=/etc/* .", ["/etc/*"]],
    // A symlink inside the workspace that leads out is caught through its real path.
    ["cat etc-link/passwd", ["etc-link/passwd"]],
  ])("%s → %j", (command, expected) => {
    expect(pathsOutsideRoots(command, [cwd])).toEqual(expected);
  });

  it.each(["ls -la", "cat src/a.ts", "grep -rn foo src", "echo $HOME", "ls 2>/dev/null", "git log --oneline -5"])("%s reads nothing outside", (command) => {
    expect(pathsOutsideRoots(command, [cwd])).toEqual([]);
  });

  it("default mode asks before a read-only command reads outside the workspace, and says what", () => {
    const verdict = decidePermission({ toolName: "Bash", input: { command: "cat ~/.ssh/id_rsa" }, traits: traitsOf("Bash"), mode: "default", rules: { allow: [], deny: [], ask: [] }, roots: [cwd] });
    expect(verdict).toMatchObject({ behavior: "ask", reasonType: "workingDir", reason: expect.stringMatching(/reads ~\/\.ssh\/id_rsa, outside/) });
    const inside = decidePermission({ toolName: "Bash", input: { command: "cat src/a.ts" }, traits: traitsOf("Bash"), mode: "default", rules: { allow: [], deny: [], ask: [] }, roots: [cwd] });
    expect(inside.behavior).toBe("allow");
    const extraRoot = decidePermission({ toolName: "Bash", input: { command: "cat /etc/hostname" }, traits: traitsOf("Bash"), mode: "default", rules: { allow: [], deny: [], ask: [] }, roots: [cwd, "/etc"] });
    expect(extraRoot.behavior).toBe("allow");
  });
});
