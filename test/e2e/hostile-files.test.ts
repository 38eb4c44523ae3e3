import { existsSync, readFileSync } from "node:fs";
import { link, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  createWorkspace,
  expectWellFormedRun,
  results,
  spawnAgentwire,
  toolOutcomes,
  waitForEvent,
  waitForExit,
  type Workspace,
} from "../helpers/agentwire.js";
import { needsUnprivilegedUser, runPromptAsUser, unprivilegedUserForSuite } from "../helpers/unprivileged.js";

/**
 * A prompt-injected model writing where a cloned repository's next run would pick it up, or
 * through links that carry a write out of the workspace. The scripted calls are what such a
 * model sends; agentwire runs as an unprivileged user with nobody to approve, so whatever ran
 * was allowed without asking. Each attack also runs under --dangerously-skip-permissions, where
 * it must work: otherwise these tests could not fail.
 */
const user = unprivilegedUserForSuite();
const PLANTED = { file: "agentwire was here\n" };
/** Files whose content makes the next agent, editor, git or shell run code or widen its permissions. */
const PROTECTED_FILES = [
  ".agents/skills/x/SKILL.md",
  ".mcp.json",
  ".claude/settings.json",
  "CLAUDE.md",
  ".git/hooks/pre-commit",
  ".vscode/tasks.json",
  ".envrc",
];
const SHARED_TEXT = "outside: untouched\n";
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

/**
 * A workspace with the links an attacker's repository (or an earlier command) left: `out`, a
 * dangling symlink to a file outside that does not exist yet, and `hl`, a hard link to a file
 * outside.
 */
async function hostileWorkspace(): Promise<{ workspace: Workspace; outside: string }> {
  const created = await createWorkspace("text");
  const outside = join(created.root, "outside");
  await mkdir(outside);
  await writeFile(join(outside, "shared.txt"), SHARED_TEXT);
  await link(join(outside, "shared.txt"), join(created.cwd, "hl"));
  await symlink("../outside/new.txt", join(created.cwd, "out"));
  return { workspace: created, outside };
}

const fileAttacks = {
  turns: [
    {
      tool_calls: [
        ...PROTECTED_FILES.map((file) => ({ name: "Write", input: { file_path: file, content: PLANTED.file } })),
        { name: "Write", input: { file_path: "out", content: PLANTED.file } },
        { name: "Edit", input: { file_path: "hl", old_string: "untouched", new_string: "changed" } },
      ],
    },
    { text: "done" },
  ],
};

describe(`hostile writes through the binary, as an unprivileged user${needsUnprivilegedUser(user)}`, () => {
  const as = "problem" in user ? undefined : user;

  it.skipIf(!as)(
    "acceptEdits with no host: protected files, a dangling link out and a hard link out are not written; the run ends with a result",
    async () => {
      const hostile = await hostileWorkspace();
      workspace = hostile.workspace;
      await workspace.useScenario(fileAttacks);
      const run = await runPromptAsUser(user, workspace, ["--permission-mode", "acceptEdits"]);
      for (const file of PROTECTED_FILES) expect(existsSync(join(workspace.cwd, file)), file).toBe(false);
      expect(existsSync(join(hostile.outside, "new.txt")), "the dangling link's target").toBe(false);
      expect(readFileSync(join(hostile.outside, "shared.txt"), "utf8"), "the hard link's other name").toBe(SHARED_TEXT);
      const denied = results(run.events)[0]!.permission_denials.map((denial) => (denial.tool_input as { file_path: string }).file_path);
      expect(denied).toEqual([...PROTECTED_FILES, "hl"]);
      // The dangling link is refused by the tool itself: its real path is outside the workspace.
      expect(
        toolOutcomes(run.events)
          .map((outcome) => outcome.code)
          .at(-2),
      ).toBe("outside_workspace");
    },
  );

  it.skipIf(!as)("auto mode with no host: shell redirections to a protected file and into a hard link are not run", async () => {
    const hostile = await hostileWorkspace();
    workspace = hostile.workspace;
    await workspace.useScenario({
      turns: [
        {
          tool_calls: [
            { name: "Bash", input: { command: "printf '{}' > .mcp.json" } },
            { name: "Bash", input: { command: "echo changed >> hl" } },
          ],
        },
        { text: "done" },
      ],
    });
    const run = await runPromptAsUser(user, workspace, ["--permission-mode", "auto"]);
    expect(existsSync(join(workspace.cwd, ".mcp.json"))).toBe(false);
    expect(readFileSync(join(hostile.outside, "shared.txt"), "utf8")).toBe(SHARED_TEXT);
    expect(results(run.events)[0]!.permission_denials).toHaveLength(2);
  });

  it.skipIf(!as)("a host's approval covers the hard link: it is asked, says why, and the edit then goes through", async () => {
    const hostile = await hostileWorkspace();
    workspace = hostile.workspace;
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "Edit", input: { file_path: "hl", old_string: "untouched", new_string: "changed" } }] },
        { text: "done" },
      ],
    });
    as!.own(workspace.root);
    const child = spawnAgentwire(
      [
        "--input-format",
        "stream-json",
        "--output-format",
        "stream-json",
        "--verbose",
        "--permission-prompt-tool",
        "stdio",
        "--permission-mode",
        "acceptEdits",
      ],
      {
        workspace,
        user: as!,
      },
    );
    const exited = waitForExit(child);
    child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: "go" } })}\n`);
    const question = await waitForEvent(child, (event) => event.type === "control_request");
    expect(question).toMatchObject({
      request: { subtype: "can_use_tool", tool_name: "Edit", decision_reason: expect.stringMatching(/2 hard links/) },
    });
    const requestId = (question as { request_id: string }).request_id;
    child.stdin.write(
      `${JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: requestId, response: { behavior: "allow" } } })}\n`,
    );
    await waitForEvent(child, (event) => event.type === "result");
    child.stdin.end();
    expectWellFormedRun(await exited, 1);
    expect(readFileSync(join(hostile.outside, "shared.txt"), "utf8")).toBe("outside: changed\n");
  });

  it.skipIf(!as)("--dangerously-skip-permissions: the same calls do write (the attacks are real)", async () => {
    const hostile = await hostileWorkspace();
    workspace = hostile.workspace;
    await workspace.useScenario(fileAttacks);
    const run = await runPromptAsUser(user, workspace, ["--dangerously-skip-permissions"]);
    expect(toolOutcomes(run.events).map((outcome) => outcome.code)).toEqual(Array(PROTECTED_FILES.length + 2).fill(undefined));
    for (const file of PROTECTED_FILES) expect(readFileSync(join(workspace.cwd, file), "utf8"), file).toBe(PLANTED.file);
    expect(readFileSync(join(hostile.outside, "new.txt"), "utf8")).toBe(PLANTED.file);
    expect(readFileSync(join(hostile.outside, "shared.txt"), "utf8")).toBe("outside: changed\n");
  });
});
