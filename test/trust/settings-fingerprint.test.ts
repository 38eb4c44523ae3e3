import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mcpConfigFingerprint } from "../../src/trust/fingerprint.js";
import { settingsFingerprint } from "../../src/trust/settings-fingerprint.js";

/**
 * A trusted settings file is trusted with the scripts its hooks name as they are now: every way a
 * command can name a file (quoting, escapes, globs, braces, nested shells, a link the repository
 * planted) must make a later change of that file, or a new file it would pick up, need trust again.
 */
let scratch: string;
let repo: string;
let outside: string;

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), "agentwire-fingerprint-"));
  repo = join(scratch, "repo");
  outside = join(scratch, "outside");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, ".claude", "hooks"), { recursive: true });
  mkdirSync(outside);
});

afterEach(() => rmSync(scratch, { recursive: true, force: true }));

const settingsWith = (command: string) =>
  Buffer.from(JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command }] }] } }));
const fingerprintOf = (command: string) => settingsFingerprint(settingsWith(command), repo, repo);
const hooks = (name: string) => join(repo, ".claude", "hooks", name);

describe("settingsFingerprint follows every file a hook command names", () => {
  it.each<[string, string, () => void, () => void]>([
    [
      "a quoted name with a blank",
      'sh ".claude/hooks/run me.sh"',
      () => writeFileSync(hooks("run me.sh"), "exit 0"),
      () => writeFileSync(hooks("run me.sh"), "curl evil"),
    ],
    [
      "an escaped blank",
      "sh .claude/hooks/run\\ me.sh",
      () => writeFileSync(hooks("run me.sh"), "exit 0"),
      () => writeFileSync(hooks("run me.sh"), "curl evil"),
    ],
    [
      "an escaped letter",
      "sh .claude/hooks/g\\uard.sh",
      () => writeFileSync(hooks("guard.sh"), "exit 0"),
      () => writeFileSync(hooks("guard.sh"), "curl evil"),
    ],
    [
      "a glob",
      "sh .claude/hooks/g*.sh",
      () => writeFileSync(hooks("guard.sh"), "exit 0"),
      () => writeFileSync(hooks("guard.sh"), "curl evil"),
    ],
    [
      "a glob that picks up a new file",
      "for f in .claude/hooks/*.sh; do sh $f; done",
      () => writeFileSync(hooks("guard.sh"), "exit 0"),
      () => writeFileSync(hooks("zz-new.sh"), "curl evil"),
    ],
    [
      "braces",
      "sh .claude/hooks/{guard,none}.sh",
      () => writeFileSync(hooks("guard.sh"), "exit 0"),
      () => writeFileSync(hooks("guard.sh"), "curl evil"),
    ],
    [
      "bash -c with the script inside",
      "bash -c 'sh \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh'",
      () => writeFileSync(hooks("guard.sh"), "exit 0"),
      () => writeFileSync(hooks("guard.sh"), "curl evil"),
    ],
    [
      "a command substitution",
      'eval "$(cat .claude/hooks/guard.sh)"',
      () => writeFileSync(hooks("guard.sh"), "exit 0"),
      () => writeFileSync(hooks("guard.sh"), "curl evil"),
    ],
    [
      "a redirection",
      "sh < .claude/hooks/guard.sh",
      () => writeFileSync(hooks("guard.sh"), "exit 0"),
      () => writeFileSync(hooks("guard.sh"), "curl evil"),
    ],
    [
      "a link planted in the project leading out",
      "sh .claude/hooks/guard.sh",
      () => {
        writeFileSync(join(outside, "guard.sh"), "exit 0");
        symlinkSync(join(outside, "guard.sh"), hooks("guard.sh"));
      },
      () => writeFileSync(join(outside, "guard.sh"), "curl evil"),
    ],
    [
      "a dangling link leading out, whose target appears later",
      "sh .claude/hooks/guard.sh",
      () => symlinkSync(join(outside, "later.sh"), hooks("guard.sh")),
      () => writeFileSync(join(outside, "later.sh"), "curl evil"),
    ],
    [
      "a linked folder leading out",
      "sh .claude/scripts/guard.sh",
      () => {
        writeFileSync(join(outside, "guard.sh"), "exit 0");
        symlinkSync(outside, join(repo, ".claude", "scripts"));
      },
      () => writeFileSync(join(outside, "guard.sh"), "curl evil"),
    ],
  ])("%s", (_name, command, arrange, change) => {
    arrange();
    const trusted = fingerprintOf(command);
    expect(trusted).toMatch(/^sha256:/);
    expect(fingerprintOf(command), "stable while nothing changes").toBe(trusted);
    change();
    expect(fingerprintOf(command)).not.toBe(trusted);
  });

  it("a file outside the project that the command names itself is not hashed (a system program updates on its own)", () => {
    writeFileSync(join(outside, "tool"), "v1");
    const trusted = fingerprintOf(`${join(outside, "tool")} --check`);
    writeFileSync(join(outside, "tool"), "v2");
    expect(fingerprintOf(`${join(outside, "tool")} --check`)).toBe(trusted);
  });

  it("braces that expand past what can be followed: not hashed, so never trusted", () => {
    expect(fingerprintOf("sh .claude/hooks/{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}.sh")).toBeUndefined();
  });

  it("a .mcp.json server program linked out of the project is hashed as what it reaches", () => {
    writeFileSync(join(outside, "server.sh"), "exit 0");
    symlinkSync(join(outside, "server.sh"), join(repo, "server.sh"));
    const bytes = Buffer.from(JSON.stringify({ mcpServers: { local: { command: "./server.sh" } } }));
    const trusted = mcpConfigFingerprint(bytes, repo, repo);
    writeFileSync(join(outside, "server.sh"), "curl evil");
    expect(mcpConfigFingerprint(bytes, repo, repo)).not.toBe(trusted);
  });
});
