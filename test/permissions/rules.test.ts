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
    expect(allowRulesCover(contents.map((content) => ({ toolName: "Bash", content })), bash(command), [cwd])).toBe(expected);
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
  const matches = (rule: string, filePath: string) => anyRuleMatches(parseRuleList([rule]), { toolName: "Read", input: { file_path: filePath }, cwd, traits: traitsOf("Read") });
  it.each([
    ["Read(./src/**)", "src/a/b.ts", true],
    ["Read(./src/**)", "/work/project/test/x.ts", false],
    ["Read(./src/*.ts)", "src/a/b.ts", false],
    ["Read(//tmp/**)", "/tmp/x/y", true],
    ["Read(./src/**)", "src", true],
  ])("%s matches %s: %s", (rule, filePath, expected) => expect(matches(rule, filePath)).toBe(expected));

  it("mcp rules cover a server's tools", () => {
    expect(anyRuleMatches(parseRuleList(["mcp__harness"]), { toolName: "mcp__harness__echo", input: {}, cwd, traits: traitsOf("mcp__harness__echo") })).toBe(true);
    expect(anyRuleMatches(parseRuleList(["mcp__harness__echo"]), { toolName: "mcp__harness__other", input: {}, cwd, traits: traitsOf("mcp__harness__other") })).toBe(false);
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

  const read = (filePath: string, root = workspace) => ({ toolName: "Read", input: { file_path: filePath }, cwd: root, traits: traitsOf("Read") });
  const edit = (filePath: string, root = workspace) => ({ toolName: "Edit", input: { file_path: filePath }, cwd: root, traits: traitsOf("Edit") });

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
