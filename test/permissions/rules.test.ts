import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { allowRulesCover, anyRuleMatches } from "../../src/permissions/rules.js";
import { parseRule, parseRuleList } from "../../src/permissions/rule-syntax.js";
import { traitsOf } from "../helpers/tool-traits.js";

const cwd = "/work/project";
const bash = (command: string) => ({ toolName: "Bash", input: { command }, cwd, traits: traitsOf("Bash") });

describe("parsing (Claude Code syntax)", () => {
  it("parses names and contents, keeping commas inside parentheses", () => {
    expect(parseRule("Bash(npm run:*)")).toEqual({ toolName: "Bash", content: "npm run:*" });
    expect(parseRule("Read")).toEqual({ toolName: "Read", content: undefined });
    expect(parseRuleList(["Read,Bash(git log:*)", "Edit Write"]).map((rule) => rule.toolName)).toEqual(["Read", "Bash", "Edit", "Write"]);
    expect(parseRuleList(["Bash(echo a,b)"])).toEqual([{ toolName: "Bash", content: "echo a,b" }]);
  });
});

describe("Bash allow rules cover a line only if every command in it is allowed or read-only", () => {
  it.each([
    [["git status:*"], "git status", true],
    [["git status:*"], "git status --short", true],
    [["git status:*"], "git status && git log --oneline", true],
    [["git status:*"], "git status && python3 -c 'import os'", false],
    [["git status:*"], "git status; rm -rf src", false],
    [["git status:*"], "git status | tee out", false],
    [["git status:*"], "git status > out.txt", false],
    [["git status:*"], "git status & rm x", false],
    [["git status:*"], "FOO=1 git status", false],
    [["git status:*"], "git statusx", false],
    [["git status:*"], "./git status", false],
    [["git status:*"], "git status $(rm x)", false],
    [["npm run:*"], "npm run", true],
    [["npm run:*"], "npm runner", false],
    [["npm run test:*", "npm run build:*"], "npm run test && npm run build", true],
    [["npm run test:*"], "npm run test 2>&1 | tail -20", true],
    [["git commit:*"], "git commit -m \"$(cat <<'EOF'\nfix: don't break it\nEOF\n)\"", true],
    [["git commit:*"], 'git commit -m "$(rm -rf x)"', false],
    [["npm test"], "npm test", true],
    [["npm test"], "npm test --watch", false],
    [["ls"], "ls -la", true], // not by the rule: ls -la is read-only on its own
    [["npm *"], "npm install", true],
    [["npm *"], "npm install && curl -s x", false],
    [["docker run:*"], "docker run \\\n  --rm alpine", true],
  ])("%j allows %j: %s", (contents, command, expected) => {
    expect(
      allowRulesCover(
        contents.map((content) => ({ toolName: "Bash", content })),
        bash(command),
        [cwd],
      ),
    ).toBe(expected);
  });

  it("a rule naming the whole tool covers everything", () => {
    expect(allowRulesCover(parseRuleList(["Bash"]), bash("make install && rm -rf build"), [cwd])).toBe(true);
  });
});

describe("Bash deny rules match any command in the line, seen through wrappers", () => {
  const denyRm = parseRuleList(["Bash(rm:*)"]);
  it.each([
    ["rm -rf src", true],
    ["ls && rm -rf src", true],
    ["env rm x", true],
    ["/bin/rm x", true],
    ["command rm x", true],
    ["\\rm x", true],
    ['"rm" x', true],
    ["sudo -u root rm x", true],
    ["nohup rm x", true],
    ["time rm x", true],
    ["exec rm x", true],
    ["bash -c 'rm x'", true],
    ["echo $(rm x)", true],
    ["find . -exec rm {} \\;", true],
    ["find . | xargs rm", true],
    ["if true; then rm x; fi", true],
    ["busybox rm x", true],
    ["watch -n 1 'rm x'", true],
    ["$(echo rm) x", true], // the program is only known at run time
    ["$CMD x", true],
    ["/bin/r? x", true],
    ["ls", false],
    ["rmdir x", false],
    ["echo rm", false],
  ])("%j → denied: %s", (command, expected) => expect(anyRuleMatches(denyRm, bash(command))).toBe(expected));

  it("multi-word prefixes match the command's words", () => {
    const denyPush = parseRuleList(["Bash(git push:*)"]);
    expect(anyRuleMatches(denyPush, bash("git status; git push origin main"))).toBe(true);
    expect(anyRuleMatches(denyPush, bash("git pushx"))).toBe(false);
  });
});

describe("Bash deny rules see through programs that run other programs (issue 23, finding 10)", () => {
  const denyRm = parseRuleList(["Bash(rm:*)"]);
  it.each([
    // The review's bypasses.
    "coproc rm x",
    "coproc cleaner { rm x; }",
    "echo rm x | sh",
    'bash <<< "rm x"',
    "ionice rm x",
    "flock f rm x",
    "chroot / rm x",
    "strace rm x",
    'script -qc "rm x"',
    // Runners with options and operands before the command.
    "ionice -c 3 rm x",
    "flock -w 5 f rm x",
    "flock f -c 'rm x'",
    "strace -f -o log rm x",
    "script -q -c 'rm x' /dev/null",
    "taskset 1 rm x",
    "taskset -c 0 rm x",
    "chrt -f 1 rm x",
    "nsenter -t 1 -m rm x",
    "unshare -r rm x",
    "setpriv --reuid=1000 rm x",
    "runuser -u nobody -- rm x",
    "runuser nobody -c 'rm x'",
    "su nobody -c 'rm x'",
    "prlimit --nofile=10 rm x",
    "systemd-run --user rm x",
    "firejail --quiet rm x",
    "fakeroot rm x",
    "proot -0 rm x",
    "torsocks rm x",
    "ltrace -o log rm x",
    "valgrind --tool=none rm x",
    "gdb --args rm x",
    "gdb -batch -ex 'shell rm x'",
    "xvfb-run -a rm x",
    "dbus-run-session -- rm x",
    "parallel rm ::: x",
    "parallel 'rm {}' ::: x",
    "tmux new-session -d 'rm x'",
    "screen -dm rm x",
    "expect -c 'spawn rm x'",
    "ssh host rm x",
    "ssh host 'rm x'",
    "docker exec box rm x",
    "nice -n 5 stdbuf -o0 rm x",
    "npx rm x",
    "env -S 'rm x'",
    "env --split-string='rm x'",
    "sudo -s 'rm x'",
    "trap 'rm x' EXIT",
    "sg staff 'rm x'",
    // Text fed to a shell on stdin or as a file.
    "printf 'rm x' | sh",
    "echo 'rm x' | bash -s",
    "cat <<EOF | sh\nrm x\nEOF",
    "sh <<< 'rm x'",
    "bash <(echo rm x)",
    "source <(echo rm x)",
    ". /dev/stdin <<< 'rm x'",
    "at now <<< 'rm x'",
    "echo 'rm x' | at now",
    "echo x | xargs -I{} sh -c 'rm {}'",
    "echo rm x | xargs sh -c",
    "bash -s -- arg <<< 'rm x'",
    "bash /dev/fd/3 3<<< 'rm x'",
    "ed -s notes.txt <<< '!rm x'",
    "echo x | xargs -I{} {} y",
    // Interpreters and tools given code.
    `python3 -c "import os; os.system('rm x')"`,
    `python3 -c 'import subprocess; subprocess.run(["rm", "x"])'`,
    `python3 <<< 'import os; os.system("rm x")'`,
    "awk 'BEGIN{system(\"rm x\")}'",
    "perl -e 'system(\"rm x\")'",
    'node -e \'require("child_process").execSync("rm x")\'',
    "vim -c '!rm x' -c q",
    "vim +'!rm x'",
    "less '+!rm x' notes.txt",
    "sed -n '1e rm x' f",
    "make -f /dev/stdin <<< 'all: ; rm x'",
    "make --eval='all: ; rm x' all",
    "sqlite3 db '.shell rm x'",
    // git runs commands too.
    "git -c alias.x='!rm y' x",
    "git rebase -x 'rm y' HEAD~1",
    "git bisect run rm y",
    "git submodule foreach rm y",
    "git -c core.pager='rm y' log",
    // Other option values and bash's arithmetic in array subscripts.
    "tar -xf a.tar --to-command='rm x'",
    "sort --compress-program=rm f",
    "rg --pre 'rm x' pattern",
    "man -P 'rm x' ls",
    "rsync -e 'rm x' a b",
    "ssh -o ProxyCommand='rm x' host",
    "test -v 'a[$(rm x)]'",
    "[ -v 'a[$(rm x)]' ]",
    "printf -v 'a[$(rm x)]' y",
    // A script the line writes and then runs.
    "echo 'rm x' > s.sh; bash s.sh",
    "printf 'rm x' > s.sh && chmod +x s.sh && ./s.sh",
    "cat > s.py <<'EOF'\nimport os\nos.system('rm x')\nEOF\npython3 s.py",
    // A copy or link of the program, run under another name.
    "cp /bin/rm ./del && ./del x",
    'ln -s "$(which rm)" del; ./del x',
    "install $(command -v rm) bin/del && bin/del x",
    // The program named through a pattern (found by an independent attack).
    "cp /usr/bin/r[m] ./zz && ./zz x",
    "ln -sf /usr/bin/r? ./yy && ./yy -f x",
    // A program the line makes under a new name (a third attack).
    "cp $(ls /usr/bin/r[m]) ./zz && ./zz x",
    "cat /usr/bin/r[m] > zz && chmod +x zz && ./zz x",
    "ls /usr/bin/r[m] | xargs -I{} cp {} zz; ./zz x",
  ])("%j is refused", (command) => expect(anyRuleMatches(denyRm, bash(command))).toBe(true));

  it.each([
    "ls",
    "rmdir x",
    "echo rm",
    "grep rm notes.txt",
    "git rm x",
    "git commit -m 'rm x'",
    "sed s/rm/x/ f",
    "awk '/rm/ {print}' f",
    "cat rm.txt",
    "npm run rmfiles",
    "python3 script.py",
    "rg rm src",
    "man rm",
  ])("%j is not", (command) => expect(anyRuleMatches(denyRm, bash(command))).toBe(false));

  it("multi-word rules match through runners and code too", () => {
    const denyPush = parseRuleList(["Bash(git push:*)"]);
    expect(anyRuleMatches(denyPush, bash("ionice -c3 git push -f"))).toBe(true);
    expect(anyRuleMatches(denyPush, bash(`python3 -c "import os; os.system('git push -f')"`))).toBe(true);
    expect(anyRuleMatches(denyPush, bash("git pull"))).toBe(false);
  });
});

describe("rules cover related tools", () => {
  it.each([
    ["Edit(./secret/**)", "Write", { file_path: "secret/a" }, true],
    ["Edit(./secret/**)", "MultiEdit", { file_path: "secret/a" }, true],
    ["Edit(./secret/**)", "NotebookEdit", { notebook_path: "secret/a.ipynb" }, true],
    ["Read(./secret/**)", "Grep", { pattern: "x", path: "secret" }, true],
    ["Read(./secret/**)", "Glob", { pattern: "*", path: "secret/sub" }, true],
    ["Read(./secret/**)", "LS", { path: "secret" }, true],
    ["Read(./secret/**)", "Grep", { pattern: "x" }, false],
    ["Write(./secret/**)", "Edit", { file_path: "secret/a" }, false],
    ["Read", "Glob", { pattern: "*" }, true],
  ])("%s applies to %s %j: %s", (rule, toolName, input, expected) => {
    expect(anyRuleMatches(parseRuleList([rule]), { toolName, input, cwd, traits: traitsOf(toolName) })).toBe(expected);
  });
});

describe("path rules", () => {
  const matches = (rule: string, filePath: string) =>
    anyRuleMatches(parseRuleList([rule]), { toolName: "Read", input: { file_path: filePath }, cwd, traits: traitsOf("Read") });
  it.each([
    ["Read(./src/**)", "src/a/b.ts", true],
    ["Read(./src/**)", "/work/project/test/x.ts", false],
    ["Read(./src/*.ts)", "src/a/b.ts", false],
    ["Read(//tmp/**)", "/tmp/x/y", true],
    ["Read(./src/**)", "src", true],
  ])("%s matches %s: %s", (rule, filePath, expected) => expect(matches(rule, filePath)).toBe(expected));

  it("mcp rules cover a server's tools", () => {
    expect(
      anyRuleMatches(parseRuleList(["mcp__harness"]), {
        toolName: "mcp__harness__echo",
        input: {},
        cwd,
        traits: traitsOf("mcp__harness__echo"),
      }),
    ).toBe(true);
    expect(
      anyRuleMatches(parseRuleList(["mcp__harness__echo"]), {
        toolName: "mcp__harness__other",
        input: {},
        cwd,
        traits: traitsOf("mcp__harness__other"),
      }),
    ).toBe(false);
  });
});

describe("path rules see through symlinks", () => {
  const base = mkdtempSync(path.join(tmpdir(), "agentwire-rules-"));
  const workspace = path.join(base, "workspace");
  const outside = path.join(base, "outside");
  for (const directory of [path.join(workspace, "secret"), path.join(workspace, "src"), outside]) mkdirSync(directory, { recursive: true });
  symlinkSync(path.join(workspace, "secret"), path.join(workspace, "alias"));
  symlinkSync(outside, path.join(workspace, "src", "escape"));
  symlinkSync(workspace, path.join(base, "workspace-link"));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const read = (filePath: string, root = workspace) => ({
    toolName: "Read",
    input: { file_path: filePath },
    cwd: root,
    traits: traitsOf("Read"),
  });
  const edit = (filePath: string, root = workspace) => ({
    toolName: "Edit",
    input: { file_path: filePath },
    cwd: root,
    traits: traitsOf("Edit"),
  });

  it("a deny rule matches the real path of a symlinked alias", () => {
    expect(anyRuleMatches(parseRuleList(["Read(./secret/**)"]), read("alias/key"))).toBe(true);
    expect(anyRuleMatches(parseRuleList([`Read(/${outside}/**)`]), read("src/escape/file"))).toBe(true);
  });

  it("an allow rule does not follow a symlink out of the allowed directory", () => {
    const allowSrc = parseRuleList(["Edit(./src/**)"]);
    expect(allowRulesCover(allowSrc, edit("src/a.ts"), [cwd])).toBe(true);
    expect(allowRulesCover(allowSrc, edit("src/escape/a.ts"), [cwd])).toBe(false);
  });

  it("a working directory reached through a symlink still matches its own relative rules", () => {
    const linkedCwd = path.join(base, "workspace-link");
    expect(allowRulesCover(parseRuleList(["Edit(./src/**)"]), edit("src/a.ts", linkedCwd), [cwd])).toBe(true);
    expect(anyRuleMatches(parseRuleList(["Read(./secret/**)"]), read(path.join(workspace, "secret", "k"), linkedCwd))).toBe(true);
  });
});

describe("deny rules when nesting is too deep to follow", () => {
  const deepSubstitution = `echo ${"$(".repeat(40)}rm -rf x${")".repeat(40)}`;
  it.each([deepSubstitution, `${"eval ".repeat(10)}rm -rf x`])("%s still matches Bash(rm:*)", (command) => {
    expect(anyRuleMatches(parseRuleList(["Bash(rm:*)"]), bash(command))).toBe(true);
  });
  it("and allow rules do not cover what could not be read", () => {
    expect(allowRulesCover(parseRuleList(["Bash(echo:*)"]), bash(deepSubstitution), [cwd])).toBe(false);
  });
});
