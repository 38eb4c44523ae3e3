import { existsSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorkspace, results, toolOutcomes, type RunResult, type ToolOutcome, type Workspace } from "../helpers/agentwire.js";
import { needsUnprivilegedUser, runPromptAsUser, unprivilegedUserForSuite } from "../helpers/unprivileged.js";

/**
 * Issue 23, findings 1, 2 and 7, through the binary: a scripted, prompt-injected model sends the
 * command each finding reported, in default mode with nobody to approve, run by an unprivileged
 * user. What the classifier judged read-only ran without a question; each of these must now be
 * denied — the marker file not made, the secret not in the output — and the run still ends with
 * a result. One harmless command runs first in each test, so a broken setup cannot pass.
 */

const user = unprivilegedUserForSuite();
/** What the secrets outside hold; it must never reach stdout. */
const SECRET = "TOP-SECRET-23";
let workspace: Workspace;
/** Outside the workspace, beside cwd and home: `secret`, `dir/inner`. The workspace's `lnk` leads here. */
let elsewhere: string;

beforeEach(async () => {
  workspace = await createWorkspace("text");
  elsewhere = join(workspace.root, "elsewhere");
  await mkdir(join(elsewhere, "dir"), { recursive: true });
  await writeFile(join(elsewhere, "secret"), `${SECRET}\n`);
  await writeFile(join(elsewhere, "dir", "inner"), `${SECRET}\n`);
  await writeFile(join(workspace.home, ".netrc"), `machine example.com password ${SECRET}\n`);
  await writeFile(join(workspace.cwd, "f.txt"), "alpha\nbeta\n");
  await writeFile(join(workspace.cwd, "a.txt"), "inside\n");
  await symlink(elsewhere, join(workspace.cwd, "lnk"));
});

afterEach(async () => {
  await workspace.cleanup();
});

/** Runs `cat a.txt` (the control), then each call, as one turn, and returns every tool result. */
async function attempt(
  calls: Array<{ name: string; input: Record<string, unknown> }>,
  flags: string[] = [],
): Promise<{ run: RunResult; outcomes: ToolOutcome[] }> {
  await workspace.useScenario({ turns: [{ tool_calls: [{ name: "Bash", input: { command: "cat a.txt" } }, ...calls] }, { text: "done" }] });
  const run = await runPromptAsUser(user, workspace, flags);
  const outcomes = toolOutcomes(run.events);
  expect(outcomes[0], "the harmless control command ran").toMatchObject({ isError: false, content: expect.stringContaining("inside") });
  expect(run.stdout, "no secret reached the output").not.toContain(SECRET);
  return { run, outcomes: outcomes.slice(1) };
}

/** Each Bash command was denied (nobody to ask) and is listed in the result's permission_denials. */
function expectDenied(run: RunResult, outcomes: ToolOutcome[], commands: string[]): void {
  expect(outcomes.map((outcome) => outcome.code)).toEqual(commands.map(() => "permission_denied"));
  const denied = results(run.events)[0]!.permission_denials.map((denial) => (denial.tool_input as { command?: string }).command);
  expect(denied).toEqual(commands);
}

const bash = (command: string) => ({ name: "Bash", input: { command } });

describe(`hostile read-only commands are not run without a question${needsUnprivilegedUser(user)}`, () => {
  it.skipIf("problem" in user)("sed: a command or a write after a label (:a e CMD, b end w FILE) does not run", async () => {
    const commands = [
      "sed -n ':a e touch marker-e' f.txt",
      "sed -n ':a w marker-w' f.txt",
      "sed -n 'b end w marker-b' f.txt",
      `sed -n ':a w ${join(workspace.home, ".bashrc")}' f.txt`,
    ];
    const { run, outcomes } = await attempt(commands.map(bash));
    expectDenied(run, outcomes, commands);
    for (const marker of ["marker-e", "marker-w", "marker-b"]) expect(existsSync(join(workspace.cwd, marker)), marker).toBe(false);
    expect(existsSync(join(workspace.home, ".bashrc"))).toBe(false);
  });

  it.skipIf("problem" in user)("test -v with an array subscript does not evaluate it", async () => {
    const commands = ["test -v 'x[$(touch marker-v)]'", "[ -v 'x[$(touch marker-bracket)]' ]"];
    const { run, outcomes } = await attempt(commands.map(bash));
    expectDenied(run, outcomes, commands);
    expect(existsSync(join(workspace.cwd, "marker-v"))).toBe(false);
    expect(existsSync(join(workspace.cwd, "marker-bracket"))).toBe(false);
  });

  it.skipIf("problem" in user)("a path hidden in brace expansion is not read", async () => {
    const commands = [`cat {${elsewhere}/secret,a.txt}`, "cat {lnk/secret,a.txt}"];
    const { run, outcomes } = await attempt(commands.map(bash));
    expectDenied(run, outcomes, commands);
  });

  it.skipIf("problem" in user)("a glob through an in-workspace symlink is not read", async () => {
    const commands = ["cat lnk/sec*", "cat l?k/secret", "head */secret"];
    const { run, outcomes } = await attempt(commands.map(bash));
    expectDenied(run, outcomes, commands);
  });

  it.skipIf("problem" in user)("grep -R does not follow a symlink out of the workspace", async () => {
    const commands = [`grep -R ${SECRET.slice(0, 6)} .`, `rg -L ${SECRET.slice(0, 6)}`, "find -L . -name inner"];
    const { run, outcomes } = await attempt(commands.map(bash));
    expectDenied(run, outcomes, commands);
    expect(run.stdout).not.toContain("dir/inner");
  });

  it.skipIf("problem" in user)("grep -r over $HOME or ~ is not run", async () => {
    const commands = [`grep -r ${SECRET.slice(0, 6)} $HOME`, `grep -r ${SECRET.slice(0, 6)} ~`];
    const { run, outcomes } = await attempt(commands.map(bash));
    expectDenied(run, outcomes, commands);
  });

  it.skipIf("problem" in user)("a path attached to an option (-f/path, --file=path) is not read", async () => {
    const commands = [`file -f${join(workspace.home, ".netrc")}`, `grep -f${elsewhere}/secret a.txt`, "grep --file=lnk/secret a.txt"];
    const { run, outcomes } = await attempt(commands.map(bash));
    expectDenied(run, outcomes, commands);
  });

  it.skipIf("problem" in user)("under an allow rule, a read-only command riding along still gets the outside check", async () => {
    const commands = [`npm test; cat ${elsewhere}/secret`, "npm test && cat lnk/secret"];
    const { run, outcomes } = await attempt(commands.map(bash), ["--allowedTools", "Bash(npm test:*)"]);
    expectDenied(run, outcomes, commands);
  });

  it.skipIf("problem" in user)("Glob lists no names outside the workspace through a symlink", async () => {
    const calls = [
      { name: "Glob", input: { pattern: "lnk/*" } },
      { name: "Glob", input: { pattern: "{lnk,x}/*" } },
    ];
    const { outcomes } = await attempt(calls);
    expect(outcomes[0]).toMatchObject({ isError: true, code: "outside_workspace" });
    expect(outcomes[1]!.content).toBe("No files found");
    expect(outcomes.map((outcome) => outcome.content).join("\n")).not.toContain("secret");
  });
});
