import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { traitsOf } from "../helpers/tool-traits.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathsOutsideRoots } from "../../src/permissions/shell/command-paths.js";
import { decidePermission } from "../../src/permissions/policy.js";
import { parseRuleList } from "../../src/permissions/rule-syntax.js";

let root: string;
let cwd: string;
let outside: string;

beforeAll(async () => {
  root = await mkdtemp(join(os.tmpdir(), "agentwire-paths-"));
  cwd = join(root, "project");
  outside = join(root, "outside");
  await mkdir(join(cwd, "src"), { recursive: true });
  await mkdir(join(cwd, "sub", "deeper"), { recursive: true });
  await mkdir(join(cwd, "clean", "inner"), { recursive: true });
  await mkdir(join(outside, "dir"), { recursive: true });
  await writeFile(join(outside, "secret"), "secret\n");
  await writeFile(join(cwd, "a.txt"), "a\n");
  await writeFile(join(cwd, "clean", "inner", "x.txt"), "x\n");
  // A repository can hold a file named like an option; `wc *` would pass it on as one.
  await writeFile(join(cwd, "--files0-from=list"), "");
  await symlink("/etc", join(cwd, "etc-link"));
  await symlink(outside, join(cwd, "lnk"));
  await symlink("../../../outside", join(cwd, "sub", "deeper", "rel-lnk"));
  await symlink(join(outside, "secret"), join(cwd, "sub", "deeper", "secret-link"));
  // A link that stays inside, to a folder holding a link that leads out.
  await symlink(join(cwd, "sub"), join(cwd, "clean", "to-sub"));
  await symlink(join(cwd, "clean", "inner"), join(cwd, "src", "to-inner"));
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
    ['cat "$HOME"/.aws/credentials', ["$HOME/.aws/credentials"]],
    ["wc -l < /etc/passwd", ["/etc/passwd"]],
    ["rg --files --glob=/etc/* .", ["/etc/*"]],
    // A symlink inside the workspace that leads out is caught through its real path.
    ["cat etc-link/passwd", ["etc-link/passwd"]],
  ])("%s → %j", (command, expected) => {
    expect(pathsOutsideRoots(command, [cwd])).toEqual(expected);
  });

  it.each([
    // Brace expansion hides a path in a word that looks relative.
    ["cat {/etc/passwd,a.txt}", "/etc/passwd"],
    ["cat {lnk/secret,a.txt}", "lnk/secret"],
    ["cat a{.txt,/../../outside/secret}", "a/../../outside/secret"],
    // Globs through an in-workspace symlink, or whose fixed part leaves the roots.
    ["cat lnk/sec*", "lnk/sec*"],
    ["cat l?k/secret", "lnk/secret"],
    ["cat */secret", "lnk/secret"],
    ["cat [l]nk/secret", "lnk/secret"],
    ["cat [[:alpha:]]nk/secret", "lnk/secret"],
    // `**` is any depth in zsh (agentwire's shell when it is the user's) and `*` in bash.
    ["cat **/secret-link", "sub/deeper/secret-link"],
    ["cat **/secret", "lnk/secret"],
    ["echo lnk/*", "lnk/*"],
    ["head /etc/pass*", "/etc/pass*"],
    // `..` after a symlink is taken in the folder the link leads to, as the kernel does.
    ["cat lnk/../outside/secret", "lnk/../outside/secret"],
    // Values known only when the command runs.
    ["grep -r x $HOME", "$HOME"],
    ["ls ${HOME}", "${HOME}"],
    ["cat ~root/.bashrc", "~root/.bashrc"],
    ["cat ~+/a.txt", "~+/a.txt"],
    ['[ -f "$HOME/.netrc" ]', "$HOME/.netrc"],
    ["test -e /etc/shadow", "/etc/shadow"],
    // Values attached to options.
    ["file -f/etc/passwd", "/etc/passwd"],
    ["grep -if/etc/passwd a.txt", "/etc/passwd"],
    ["grep --file=lnk/secret a.txt", "lnk/secret"],
    ["diff --to-file=../x a.txt", "../x"],
    // A glob whose match reaches the program as an option.
    ["wc *", "--files0-from=list"],
    ["grep -r x {-R,.}", "-R"],
    ["wc {--files0-from=a.txt,a.txt}", "--files0-from=a.txt"],
  ])("%s reads outside (shows %s)", (command, shown) => {
    expect(pathsOutsideRoots(command, [cwd])).toEqual([shown]);
  });

  it.each([
    "grep -R secret .",
    "grep -Rn secret sub",
    "grep --dereference-rec secret",
    "rg --follow secret",
    "rg -L secret clean",
    "find -L . -name secret",
    "find sub -follow -name secret",
    "ls -RL sub",
    "du -L",
    "tree -l sub",
    "diff -r clean sub",
    // The first word is grep's pattern, not a folder: grep walks the working directory.
    "grep -R src",
    "rg -L clean",
    "tree -l -I clean",
  ])("%s follows a link out of the workspace", (command) => {
    const found = pathsOutsideRoots(command, [cwd]);
    expect(found).toHaveLength(1);
    expect(["lnk", "etc-link", "sub/deeper/rel-lnk", "sub/deeper/secret-link"]).toContain(found[0]);
  });

  it.each([
    "ls -la",
    "cat src/a.ts",
    "grep -rn foo src",
    "grep -r secret .",
    "diff -r src clean/inner",
    "echo $HOME",
    'printf "%s\\n" "$HOME"',
    "echo ~/x",
    '[ -n "$CI" ] && echo ci',
    '[ "$HOME" = /root ]',
    "ls 2>/dev/null",
    "git log --oneline -5",
    "cat *.txt",
    "cat {a,b}.txt",
    "cat src/{x,y}.ts",
    "head -n5 a.txt",
    "sort -k2 a.txt",
    "git diff main..feature",
    "cut -d/ -f2 a.txt",
    "tr / _ < a.txt",
  ])("%s reads nothing outside", (command) => {
    expect(pathsOutsideRoots(command, [cwd])).toEqual([]);
  });

  it("a second root counts as inside", () => {
    expect(pathsOutsideRoots(`cat ${outside}/secret lnk/secret`, [cwd, outside])).toEqual([]);
    expect(pathsOutsideRoots("diff -r sub src", [cwd, outside])).toEqual([]);
  });

  it("a recursive read that follows links runs when no link leads out", async () => {
    const clean = await mkdtemp(join(os.tmpdir(), "agentwire-paths-clean-"));
    try {
      await mkdir(join(clean, "src", "deep"), { recursive: true });
      await symlink(join(clean, "src", "deep"), join(clean, "inside-link"));
      for (const command of ["grep -R x", "grep -R x src", "rg -L x", "find -L . -name x", "ls -RL", "du -L", "tree -l"]) {
        expect(pathsOutsideRoots(command, [clean]), command).toEqual([]);
      }
    } finally {
      await rm(clean, { recursive: true, force: true });
    }
  });

  it("a dangling link that leads out counts for a walk that follows links: its target may appear before the walk reaches it", async () => {
    const dangling = await mkdtemp(join(os.tmpdir(), "agentwire-paths-dangling-"));
    try {
      await mkdir(join(dangling, "ws"));
      await symlink("../not-yet", join(dangling, "ws", "later"));
      expect(pathsOutsideRoots("grep -R x", [join(dangling, "ws")])).toEqual(["later"]);
    } finally {
      await rm(dangling, { recursive: true, force: true });
    }
  });

  it("default mode asks before a read-only command reads outside the workspace, and says what", () => {
    const verdict = decidePermission({
      toolName: "Bash",
      input: { command: "cat ~/.ssh/id_rsa" },
      traits: traitsOf("Bash"),
      mode: "default",
      rules: { allow: [], deny: [], ask: [] },
      roots: [cwd],
    });
    expect(verdict).toMatchObject({
      behavior: "ask",
      reasonType: "workingDir",
      reason: expect.stringMatching(/reads ~\/\.ssh\/id_rsa, outside/),
    });
    const inside = decidePermission({
      toolName: "Bash",
      input: { command: "cat src/a.ts" },
      traits: traitsOf("Bash"),
      mode: "default",
      rules: { allow: [], deny: [], ask: [] },
      roots: [cwd],
    });
    expect(inside.behavior).toBe("allow");
    const extraRoot = decidePermission({
      toolName: "Bash",
      input: { command: "cat /etc/hostname" },
      traits: traitsOf("Bash"),
      mode: "default",
      rules: { allow: [], deny: [], ask: [] },
      roots: [cwd, "/etc"],
    });
    expect(extraRoot.behavior).toBe("allow");
  });
});

describe("allow rules: a read-only command riding along gets the same check as alone", () => {
  const decide = (command: string, allow: string[]) =>
    decidePermission({
      toolName: "Bash",
      input: { command },
      traits: traitsOf("Bash"),
      mode: "default",
      rules: { allow: parseRuleList(allow), deny: [], ask: [] },
      roots: [cwd],
    });

  it.each([
    ["npm test; cat lnk/secret", ["Bash(npm test:*)"]],
    ["npm test && cat /etc/passwd", ["Bash(npm test:*)"]],
    ["npm test | grep -R x .", ["Bash(npm test:*)"]],
    ["npm test $(cat ~/.netrc)", ["Bash(npm test:*)"]],
    ["cd / && cat etc/passwd", ["Bash(cd:*)"]],
    ["export PATH=.:$PATH; cat a.txt", ["Bash(export:*)"]],
  ])("%s under %j asks", (command, allow) => {
    expect(decide(command, allow).behavior).toBe("ask");
  });

  it.each([
    ["npm test; cat a.txt", ["Bash(npm test:*)"]],
    ["npm test 2>&1 | tail -20", ["Bash(npm test:*)"]],
    ["cat /etc/passwd", ["Bash(cat:*)"]],
  ])("%s under %j is allowed", (command, allow) => {
    expect(decide(command, allow).behavior).toBe("allow");
  });
});
