import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gitConfigKeys } from "../../src/permissions/shell/git-config-keys.js";
import { gitConfigRisk, lineGitRisk, runsCode } from "../../src/permissions/shell/git-config-risk.js";

const names = (text: string): string[] => {
  const parsed = gitConfigKeys(text);
  if ("problem" in parsed) throw new Error(parsed.problem);
  return parsed.keys.map((key) => [key.section, key.subsection, key.name].filter((part) => part !== undefined).join("."));
};

describe("gitConfigKeys", () => {
  it("reads keys the way git does: sections, subsections, the old dotted form, keys on the header's line", () => {
    expect(names('[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote "origin"]\n\turl = x\n')).toEqual([
      "core.repositoryformatversion",
      "core.bare",
      "remote.origin.url",
    ]);
    expect(names('[Diff "Sub.Name"] TextConv = cat')).toEqual(["diff.Sub.Name.textconv"]);
    expect(names("[filter.lfs]\nclean = x")).toEqual(["filter.lfs.clean"]);
    expect(names("[core]\nfsmonitor")).toEqual(["core.fsmonitor"]);
    expect(names('[sub "a\\"b\\\\c"]\nk=v')).toEqual(['sub.a"b\\c.k']);
  });

  it("skips values, comments, quotes and continuations without mistaking their text for keys", () => {
    expect(
      names(
        '[a]\n  x = "quoted ; not a comment" ; comment\n  y = one \\\n[core] \\\n fsmonitor = two\n# [core]\n; fsmonitor = x\n  z = last',
      ),
    ).toEqual(["a.x", "a.y", "a.z"]);
    expect(names("\uFEFF[a]\r\nb = c\r\n")).toEqual(["a.b"]);
  });

  it("reads values as git does: quotes, escapes, inner spaces kept, ends trimmed, comments dropped", () => {
    const parsed = gitConfigKeys(
      '[submodule "a"]\n\tpath = "dir with ; semicolon" ; note\n\turl =  one   two  \n\tflag\n\tesc = a\\tb\\\\c\\"d\n\tlong = first \\\n second\n',
    );
    expect("keys" in parsed && parsed.keys.map((key) => [key.name, key.value])).toEqual([
      ["path", "dir with ; semicolon"],
      ["url", "one   two"],
      ["flag", undefined],
      ["esc", 'a\tb\\c"d'],
      ["long", "first  second"],
    ]);
  });

  it("returns a problem, never a guess, for text git would not read", () => {
    for (const text of [
      "key = before any section",
      "[unfinished",
      '[a "sub',
      '[a]\nb = "open',
      "[a]\n!b = c",
      "[a]\nb c",
      "[a b]",
      "[a]\nb = x\\q",
    ]) {
      expect(gitConfigKeys(text), text).toHaveProperty("problem");
    }
  });
});

describe("runsCode", () => {
  it("flags the keys that make git run a program or read another file", () => {
    const risky = [
      "[core]\nfsmonitor = x",
      "[core]\nhooksPath = x",
      "[core]\npager = x",
      "[core]\nsshCommand = x",
      "[core]\neditor = x",
      "[diff]\nexternal = x",
      '[diff "d"]\ntextconv = x',
      '[diff "d"]\ncommand = x',
      '[filter "f"]\nclean = x',
      "[alias]\nst = !x",
      "[pager]\nlog = x",
      "[gpg]\nprogram = x",
      '[gpg "ssh"]\nprogram = x',
      "[include]\npath = x",
      '[includeIf "gitdir:/"]\npath = x',
      "[credential]\nhelper = x",
      '[credential "https://h"]\nhelper = x',
      "[sequence]\neditor = x",
      "[uploadpack]\npackObjectsHook = x",
      '[merge "m"]\ndriver = x',
      '[difftool "t"]\ncmd = x',
      '[remote "o"]\nuploadpack = x',
      "[sendemail]\nsmtpserver = x\n[sendemail]\ntocmd = x",
    ];
    for (const text of risky) {
      const parsed = gitConfigKeys(text);
      expect("keys" in parsed && parsed.keys.some(runsCode), text).toBe(true);
    }
  });

  it("leaves an ordinary clone's configuration alone", () => {
    const ordinary =
      '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n[remote "origin"]\n\turl = https://example.com/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n[color]\n\tpager = false\n[user]\n\tname = me\n';
    const parsed = gitConfigKeys(ordinary);
    expect("keys" in parsed && parsed.keys.filter(runsCode)).toEqual([]);
  });
});

describe("lineGitRisk", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "agentwire-line-git-"));
    mkdirSync(join(root, ".git"), { recursive: true });
    writeFileSync(join(root, ".git", "config"), "[core]\n\tbare = false\n");
    mkdirSync(join(root, "sub", ".git"), { recursive: true });
    writeFileSync(join(root, "sub", ".git", "config"), '[diff "x"]\n\ttextconv = ./run.sh\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("is quiet for a line without git, and for git in a plain repository", () => {
    expect(lineGitRisk("cat .gitignore && echo git", join(root, "sub"))).toBeUndefined();
    expect(lineGitRisk("ls && git log --oneline | head", root)).toBeUndefined();
  });

  it("checks every folder git may start in: cd anywhere in the line, -C, --git-dir, --work-tree, wrappers (found by an independent attack)", () => {
    for (const line of [
      "cd sub && git log -p",
      "git -C sub log -p",
      "git --git-dir=sub/.git log",
      "git --work-tree sub diff",
      "env git -C sub diff",
      "echo $(cd sub; git diff)",
      "git -c color.ui=never -C sub status",
      "git -Csub status",
      `cd ${root}/sub && git status`,
    ]) {
      expect(lineGitRisk(line, root), line).toMatch(/textconv/);
    }
    expect(lineGitRisk("git status", join(root, "sub"))).toMatch(/textconv/);
  });

  it("asks when the folder is only known when the line runs", () => {
    expect(lineGitRisk("cd $DIR && git status", root)).toMatch(/only known when it runs/);
    expect(lineGitRisk("cd - && git status", root)).toMatch(/only known when it runs/);
    expect(lineGitRisk('git -C "$X" status', root)).toMatch(/only known when it runs/);
  });
});

describe("gitConfigRisk", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "agentwire-git-risk-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const repository = (folder: string): string => {
    execFileSync("git", ["init", "-q", folder]);
    return folder;
  };

  it("none outside a repository, nor in a fresh one", () => {
    expect(gitConfigRisk(root)).toBeUndefined();
    expect(gitConfigRisk(repository(join(root, "repo")))).toBeUndefined();
  });

  it("names the key and the file of a repository found from a subfolder", () => {
    const repo = repository(join(root, "repo"));
    execFileSync("git", ["-C", repo, "config", "core.fsmonitor", "/tmp/x"]);
    mkdirSync(join(repo, "src", "deep"), { recursive: true });
    expect(gitConfigRisk(join(repo, "src", "deep"))).toMatch(new RegExp(`${join(repo, ".git", "config")} sets core\\.fsmonitor`));
  });

  it("the nearest repository decides: a clean one nested in a risky one is clean, and the other way round", () => {
    const outer = repository(join(root, "outer"));
    execFileSync("git", ["-C", outer, "config", "alias.st", "!touch x"]);
    const inner = repository(join(outer, "vendor", "inner"));
    expect(gitConfigRisk(inner)).toBeUndefined();
    expect(gitConfigRisk(outer)).toMatch(/sets alias\.st/);
    execFileSync("git", ["-C", inner, "config", "filter.x.clean", "x"]);
    expect(gitConfigRisk(inner)).toMatch(/sets filter\.x\.clean/);
  });

  it("follows a worktree's .git file to its git directory, its config.worktree and the shared config", () => {
    const main = repository(join(root, "main"));
    execFileSync("git", ["-C", main, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x"]);
    const linked = join(root, "linked");
    execFileSync("git", ["-C", main, "worktree", "add", "-q", linked]);
    expect(gitConfigRisk(linked)).toBeUndefined();
    execFileSync("git", ["-C", main, "config", "diff.pdf.textconv", "x"]);
    expect(gitConfigRisk(linked)).toMatch(new RegExp(`${join(main, ".git", "config")} sets diff\\.pdf\\.textconv`));
    execFileSync("git", ["-C", main, "config", "--unset", "diff.pdf.textconv"]);
    writeFileSync(join(main, ".git", "worktrees", "linked", "config.worktree"), "[core]\n\tpager = x\n");
    expect(gitConfigRisk(linked)).toMatch(/config\.worktree sets core\.pager/);
  });

  it("a bare repository the directory is inside counts too", () => {
    const bare = join(root, "bare.git");
    execFileSync("git", ["init", "-q", "--bare", bare]);
    execFileSync("git", ["--git-dir", bare, "config", "log.showSignature", "true"]);
    expect(gitConfigRisk(bare)).toBeUndefined();
    execFileSync("git", ["--git-dir", bare, "config", "gpg.program", "/tmp/x"]);
    expect(gitConfigRisk(bare)).toMatch(/sets gpg\.program/);
  });

  it("reads the submodules' configurations too: git status runs git inside each (their filters, textconv, …)", () => {
    const sub = repository(join(root, "sub"));
    execFileSync("git", ["-C", sub, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "s"]);
    const superproject = repository(join(root, "super"));
    execFileSync("git", ["-C", superproject, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "libs/sub"], {
      stdio: "ignore",
    });
    expect(gitConfigRisk(superproject)).toBeUndefined();
    execFileSync("git", ["config", "-f", join(superproject, ".git", "modules", "libs", "sub", "config"), "filter.x.clean", "/tmp/x"]);
    expect(gitConfigRisk(superproject)).toMatch(/modules\/libs\/sub\/config sets filter\.x\.clean/);
  });

  it("and those .gitmodules places in the working tree with a git directory of their own", () => {
    const superproject = repository(join(root, "super"));
    const embedded = repository(join(superproject, "vendor", "lib"));
    writeFileSync(join(superproject, ".gitmodules"), '[submodule "lib"]\n\tpath = vendor/lib\n\turl = https://example.com/lib.git\n');
    expect(gitConfigRisk(superproject)).toBeUndefined();
    execFileSync("git", ["-C", embedded, "config", "diff.x.textconv", "/tmp/x"]);
    expect(gitConfigRisk(superproject)).toMatch(/vendor\/lib\/\.git\/config sets diff\.x\.textconv/);
  });

  it("a config it cannot read or parse counts as risky; a FIFO in its place does not hang the check", () => {
    const repo = repository(join(root, "repo"));
    writeFileSync(join(repo, ".git", "config"), "[core\n");
    expect(gitConfigRisk(repo)).toMatch(/not plain configuration/);
    rmSync(join(repo, ".git", "config"));
    execFileSync("mkfifo", [join(repo, ".git", "config")]);
    expect(gitConfigRisk(repo)).toMatch(/cannot be read \(not a regular file\)/);
  });
});
