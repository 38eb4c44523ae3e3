import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path, { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decidePermission, type PermissionMode, type PermissionRules } from "../../src/permissions/policy.js";
import { parseRuleList } from "../../src/permissions/rule-syntax.js";
import { traitsOf } from "../helpers/tool-traits.js";

const cwd = "/work/project";
const noRules: PermissionRules = { allow: [], deny: [], ask: [] };

function decide(toolName: string, input: Record<string, unknown>, mode: PermissionMode = "default", rules: PermissionRules = noRules) {
  return decidePermission({ toolName, input, traits: traitsOf(toolName), mode, rules, roots: [cwd, "/work/extra"] });
}

function allowing(...rules: string[]): PermissionRules {
  return { ...noRules, allow: parseRuleList(rules) };
}

describe("decidePermission", () => {
  it("default mode: reads inside the workspace and read-only commands run; writes and mutating commands ask", () => {
    expect(decide("Read", { file_path: "src/a.ts" }).behavior).toBe("allow");
    expect(decide("Read", { file_path: "/work/extra/b.ts" }).behavior).toBe("allow");
    expect(decide("Grep", { pattern: "x" }).behavior).toBe("allow");
    expect(decide("Bash", { command: "ls -la" }).behavior).toBe("allow");
    expect(decide("Write", { file_path: "a.txt", content: "" })).toMatchObject({ behavior: "ask", reasonType: "mode" });
    expect(decide("Bash", { command: "touch a" })).toMatchObject({ behavior: "ask" });
    expect(decide("Bash", { command: "env rm -rf build" })).toMatchObject({ behavior: "ask" });
    expect(decide("Read", { file_path: "/etc/passwd" })).toMatchObject({
      behavior: "ask",
      reasonType: "workingDir",
      reason: "Path is outside allowed working directories",
    });
  });

  it("acceptEdits allows edits inside the workspace only", () => {
    expect(decide("Edit", { file_path: "a.ts" }, "acceptEdits").behavior).toBe("allow");
    expect(decide("Edit", { file_path: "/tmp/a.ts" }, "acceptEdits")).toMatchObject({ behavior: "ask", reasonType: "workingDir" });
    expect(decide("Bash", { command: "npm install" }, "acceptEdits").behavior).toBe("ask");
  });

  it("dontAsk/deny turn questions into denials; bypass allows all", () => {
    expect(decide("Write", { file_path: "a" }, "dontAsk").behavior).toBe("deny");
    expect(decide("Write", { file_path: "a" }, "deny").behavior).toBe("deny");
    expect(decide("Bash", { command: "sudo rm -rf /" }, "bypassPermissions").behavior).toBe("allow");
  });

  it("the risk sentinel asks even where rules or auto mode would allow", () => {
    const rules = allowing("Bash");
    expect(decide("Bash", { command: "sudo make install" }, "default", rules)).toMatchObject({
      behavior: "ask",
      reasonType: "risk",
      reason: expect.stringMatching(/sudo/),
    });
    expect(decide("Bash", { command: "git push -f" }, "auto")).toMatchObject({ behavior: "ask", reasonType: "risk" });
    expect(decide("Bash", { command: "npm install" }, "auto").behavior).toBe("allow");
    // Writes outside the workspace roots ask in auto mode too, and under a narrow allow rule.
    expect(decide("Bash", { command: "sort -o /tmp/x f" }, "auto")).toMatchObject({ behavior: "ask", reasonType: "risk" });
    expect(decide("Bash", { command: "git log --output=/tmp/x" }, "default", allowing("Bash(git log:*)"))).toMatchObject({
      behavior: "ask",
      reasonType: "risk",
    });
    expect(decide("Write", { file_path: "/tmp/a.ts", content: "" }, "auto")).toMatchObject({ behavior: "ask", reasonType: "workingDir" });
    expect(decide("Write", { file_path: "src/a.ts", content: "" }, "auto").behavior).toBe("allow");
    expect(decide("Bash", { command: "npm test" }, "default", rules).behavior).toBe("allow");
  });

  it("protected files ask in every mode that can ask, even with allow rules; plan and dontAsk refuse; bypass still allows", () => {
    const protectedFiles = [
      ".git/config",
      ".git/hooks/pre-commit",
      ".env",
      ".claude/settings.json",
      ".agentwire/config.json",
      ".mcp.json",
      ".agents/skills/x/SKILL.md",
      "AGENTS.md",
      "CLAUDE.md",
      "docs/CLAUDE.md",
      ".envrc",
      ".vscode/tasks.json",
      ".idea/workspace.xml",
      ".bashrc",
      "/work/extra/.zshrc",
      // The file systems of macOS and Windows find these under other spellings.
      "agents.md",
      "Claude.md",
      ".GIT/config",
      ".Agents/skills/x/SKILL.md",
      ".git./config",
      ".g\u200cit/config",
      ".MCP.json",
    ];
    for (const filePath of protectedFiles) {
      for (const tool of ["Write", "Edit", "MultiEdit"]) {
        expect(decide(tool, { file_path: filePath }, "default")).toMatchObject({ behavior: "ask", reasonType: "risk" });
        expect(decide(tool, { file_path: filePath }, "acceptEdits")).toMatchObject({ behavior: "ask", reasonType: "risk" });
        expect(decide(tool, { file_path: filePath }, "auto", allowing("Edit"))).toMatchObject({ behavior: "ask", reasonType: "risk" });
        expect(decide(tool, { file_path: filePath }, "acceptEdits", allowing(`Edit(${filePath})`))).toMatchObject({
          behavior: "ask",
          reasonType: "risk",
        });
        expect(decide(tool, { file_path: filePath }, "plan").behavior).toBe("deny");
        expect(decide(tool, { file_path: filePath }, "dontAsk").behavior).toBe("deny");
        expect(decide(tool, { file_path: filePath }, "bypassPermissions").behavior).toBe("allow");
      }
    }
    for (const ordinary of [".github/workflows/ci.yml", "docs/agents.txt", ".gitignore", "src/claude.ts", ".mcp.json.md"]) {
      expect(decide("Edit", { file_path: ordinary }, "acceptEdits").behavior).toBe("allow");
    }
  });

  it("shell writes to protected files ask too, in acceptEdits and auto", () => {
    expect(decide("Bash", { command: "echo '{}' > .mcp.json" }, "auto")).toMatchObject({ behavior: "ask", reasonType: "risk" });
    expect(decide("Bash", { command: "echo x >> .agents/skills/x/SKILL.md" }, "acceptEdits")).toMatchObject({
      behavior: "ask",
      reasonType: "risk",
    });
  });

  it("deleting the whole workspace says so", () => {
    expect(decide("Bash", { command: "rm -rf ." }, "auto")).toMatchObject({
      behavior: "ask",
      reasonType: "risk",
      reason: expect.stringMatching(/the whole workspace/),
    });
  });

  it("deny rules win over everything, cover related tools, and see into compound commands", () => {
    const rules = {
      ...noRules,
      allow: parseRuleList(["Read", "Bash"]),
      deny: parseRuleList(["Read(./secret/**)", "Edit(./locked/**)", "Bash(rm:*)"]),
    };
    expect(decide("Read", { file_path: "secret/key" }, "bypassPermissions", rules).behavior).toBe("deny");
    expect(decide("Grep", { pattern: "x", path: "secret" }, "bypassPermissions", rules).behavior).toBe("deny");
    expect(decide("Write", { file_path: "locked/a" }, "acceptEdits", rules).behavior).toBe("deny");
    expect(decide("Bash", { command: "ls && /bin/rm -rf src" }, "bypassPermissions", rules).behavior).toBe("deny");
    expect(decide("Read", { file_path: "public/x" }, "default", rules).behavior).toBe("allow");
  });

  it("allow rules for one command do not allow what is chained after it", () => {
    const rules = allowing("Bash(git status:*)");
    expect(decide("Bash", { command: "git status" }, "default", rules).behavior).toBe("allow");
    expect(decide("Bash", { command: "git status && python3 -c 'import os'" }, "default", rules)).toMatchObject({ behavior: "ask" });
  });

  it("WebSearch asks in default and plan mode (plan mode is research and does not refuse it); a rule allows it", () => {
    expect(decide("WebSearch", { query: "tides" }).behavior).toBe("ask");
    expect(decide("WebSearch", { query: "tides" }, "plan").behavior).toBe("ask");
    expect(decide("WebSearch", { query: "tides" }, "default", allowing("WebSearch")).behavior).toBe("allow");
    expect(decide("WebSearch", { query: "tides" }, "plan", allowing("WebSearch")).behavior).toBe("allow");
    expect(decide("WebSearch", { query: "tides" }, "acceptEdits").behavior).toBe("ask");
  });

  it("plan mode refuses anything that is not read-only, even with allow rules", () => {
    const planDenied = { behavior: "deny", message: expect.stringMatching(/plan mode/) };
    expect(decide("Write", { file_path: "a" }, "plan")).toMatchObject(planDenied);
    expect(decide("Bash", { command: "make install" }, "plan", allowing("Bash"))).toMatchObject(planDenied);
    expect(decide("Edit", { file_path: "a.ts" }, "plan", allowing("Edit"))).toMatchObject(planDenied);
    expect(decide("mcp__harness__echo", { text: "x" }, "plan", allowing("mcp__harness"))).toMatchObject(planDenied);
    expect(decide("Read", { file_path: "a" }, "plan").behavior).toBe("allow");
    expect(decide("Bash", { command: "git log --oneline -5" }, "plan").behavior).toBe("allow");
    expect(decide("TodoWrite", { todos: [] }, "plan", noRules).behavior).toBe("allow");
    // Deny rules still come first; a risky call is refused like any other change, not asked about.
    expect(decide("Bash", { command: "ls" }, "plan", { ...noRules, deny: parseRuleList(["Bash(ls:*)"]) })).toMatchObject({
      reason: "deny rule",
    });
    expect(decide("Bash", { command: "sudo ls" }, "plan")).toMatchObject(planDenied);
    expect(decide("Write", { file_path: ".git/hooks/pre-commit" }, "plan")).toMatchObject(planDenied);
  });

  it("marks what only the read-only judgement approved, in every mode that judges, so it runs confined", () => {
    for (const mode of ["default", "plan", "dontAsk", "acceptEdits"] as const) {
      expect(decide("Bash", { command: "cat notes.txt" }, mode), mode).toEqual({
        behavior: "allow",
        reason: "read-only command",
        judgedReadOnly: true,
      });
    }
    // Modes that approve everything approve by the mode, not by the judgement.
    expect(decide("Bash", { command: "cat notes.txt" }, "auto")).toEqual({ behavior: "allow", reason: "auto mode" });
    expect(decide("Bash", { command: "cat notes.txt" }, "bypassPermissions")).toEqual({
      behavior: "allow",
      reason: "permissions bypassed",
    });
    expect(decide("Read", { file_path: "notes.txt" })).not.toHaveProperty("judgedReadOnly");
  });

  it("a line the allow rules name alone runs as approved; a read-only line they do not name is still judged (confined, paths outside asked)", () => {
    expect(decide("Bash", { command: "cat notes.txt" }, "default", allowing("Bash(cat:*)"))).toEqual({
      behavior: "allow",
      reason: "allow rule",
    });
    expect(decide("Bash", { command: "cat notes.txt" }, "default", allowing("Bash"))).toEqual({ behavior: "allow", reason: "allow rule" });
    expect(decide("Bash", { command: "cat notes.txt && git status" }, "default", allowing("Bash(cat:*)"))).toMatchObject({
      judgedReadOnly: true,
    });
    expect(decide("Bash", { command: "cat notes.txt" }, "default", allowing("Bash(npm test:*)"))).toMatchObject({ judgedReadOnly: true });
    expect(decide("Bash", { command: "cat /elsewhere/secret" }, "default", allowing("Bash(npm test:*)"))).toMatchObject({
      behavior: "ask",
      reasonType: "workingDir",
    });
    // The documented limit: a line partly approved by a rule runs unconfined, as the rule's command needs.
    expect(decide("Bash", { command: "npm test && cat notes.txt" }, "default", allowing("Bash(npm test:*)"))).toEqual({
      behavior: "allow",
      reason: "allow rule",
    });
  });

  it("a read-only git asks when the repository around the shell's directory configures a program to run", () => {
    const root = mkdtempSync(join(tmpdir(), "agentwire-policy-git-"));
    try {
      const repo = join(root, "repo");
      execFileSync("git", ["init", "-q", repo]);
      const at = (command: string, commandDirectory: string, mode: PermissionMode = "default") =>
        decidePermission({
          toolName: "Bash",
          input: { command },
          traits: traitsOf("Bash"),
          mode,
          rules: noRules,
          roots: [root],
          commandDirectory,
        });
      expect(at("git status", repo)).toMatchObject({ behavior: "allow", judgedReadOnly: true });
      execFileSync("git", ["-C", repo, "config", "core.fsmonitor", "/tmp/monitor"]);
      expect(at("git status", repo)).toMatchObject({
        behavior: "ask",
        reasonType: "risk",
        reason: expect.stringMatching(/core\.fsmonitor/),
      });
      expect(at("git status", repo, "dontAsk").behavior).toBe("deny");
      // Outside that repository, or a line without git, nothing changes.
      expect(at("git status", root)).toMatchObject({ behavior: "allow" });
      expect(at("cat .git/config", repo)).toMatchObject({ behavior: "allow" });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("MCP tools ask unless a rule allows them", () => {
    expect(decide("mcp__harness__echo", { text: "x" }, "default", noRules).behavior).toBe("ask");
    expect(decide("mcp__harness__echo", { text: "x" }, "default", allowing("mcp__harness")).behavior).toBe("allow");
  });
});

describe("decidePermission through links", () => {
  it("a dangling link in the workspace is judged where it points: deny rules on that place apply", () => {
    const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agentwire-policy-links-")));
    try {
      const workspace = path.join(base, "workspace");
      mkdirSync(workspace);
      mkdirSync(path.join(base, "outside"));
      symlinkSync("../outside/new.txt", path.join(workspace, "out"));
      const rules = { ...noRules, deny: parseRuleList([`Edit(/${base}/outside/**)`]) };
      const verdict = decidePermission({
        toolName: "Write",
        input: { file_path: "out" },
        traits: traitsOf("Write"),
        mode: "acceptEdits",
        rules,
        roots: [workspace],
      });
      expect(verdict).toMatchObject({ behavior: "deny", reason: "deny rule" });
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
