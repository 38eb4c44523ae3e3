import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SystemInitEvent } from "../../protocol/events.js";
import { PROTECTED_PROJECT_ENTRIES } from "../../src/permissions/protected-paths.js";
import { initEventBeforeSession, prepareSession } from "../../src/session/prepare-session.js";
import { createSession } from "../../src/session/session.js";
import { SessionSetupError, type SessionOptions } from "../../src/session/session-options.js";
import { toUserMessage } from "../../src/session/user-input.js";
import { bwrapProblem, needsBwrap } from "../helpers/bwrap.js";
import { FakeProvider, textTurn } from "../helpers/fake-provider.js";

// The CLI prints `system/init` from the prepared session before the session's code loads; the
// session reports its own `system/init` later (stream-json hosts, the library). Both must agree.
let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function project(): Promise<{ cwd: string; home: string }> {
  root = await mkdtemp(join(tmpdir(), "agentwire-prepare-"));
  const cwd = join(root, "project");
  await mkdir(cwd);
  return { cwd, home: join(root, "home") };
}

function options(cwd: string, home: string, extra: Partial<SessionOptions> = {}): SessionOptions {
  return {
    cwd,
    home,
    provider: "anthropic",
    model: "claude-opus-5-5",
    env: { HOME: join(cwd, "..") },
    onEvent: () => undefined,
    persistSession: false,
    ...extra,
  };
}

const withoutUuid = ({ uuid: _uuid, ...rest }: SystemInitEvent) => rest;

async function bothInits(sessionOptions: SessionOptions) {
  const prepared = prepareSession(sessionOptions);
  const early = await initEventBeforeSession(prepared);
  const session = createSession(sessionOptions, prepared);
  const late = await session.initEvent();
  await session.close();
  return { early: withoutUuid(early), late: withoutUuid(late) };
}

describe("the CLI's early system/init", () => {
  const cases: Array<[string, Partial<SessionOptions>]> = [
    ["the defaults", {}],
    ["--tools Read Bash", { tools: ["Read", "Bash"] }],
    ["--disallowedTools Edit (the whole edit family)", { disallowedTools: ["Edit"] }],
    ["--disallowedTools with a specifier (the tool stays)", { disallowedTools: ["Bash(rm:*)", "Grep"] }],
    ["--tool-profile compact", { toolProfile: "compact" }],
    [
      "plan mode, an API key and another provider",
      { permissionMode: "plan", provider: "openai", model: "gpt-5", env: { OPENAI_API_KEY: "sk-test" } },
    ],
    ["a local server", { provider: "ollama", model: "qwen3:8b" }],
  ];
  for (const [name, extra] of cases) {
    it(`matches the session's own for ${name}`, async () => {
      const { cwd, home } = await project();
      const { early, late } = await bothInits(options(cwd, home, extra));
      expect(early).toEqual(late);
      expect(early.tools.length).toBeGreaterThan(0);
    });
  }

  it("names the Skill tool and the skills when skills are installed, in both", async () => {
    const { cwd, home } = await project();
    const skill = join(cwd, ".claude", "skills", "deploy");
    await mkdir(skill, { recursive: true });
    await writeFile(join(skill, "SKILL.md"), "---\nname: deploy\ndescription: Project deploy steps.\n---\n\nRun the deploy script.\n");
    const { early, late } = await bothInits(options(cwd, home));
    expect(early).toEqual(late);
    expect(early.tools).toContain("Skill");
    expect(early.skills).toEqual(["deploy"]);
    const { early: compact } = await bothInits(options(cwd, home, { toolProfile: "compact" }));
    expect(compact.tools).toEqual(["Bash", "Read", "Skill", "Write"]);
  });

  it("lists only skills that load, in both: a skipped one is named nowhere, and with none left there is no Skill tool", async () => {
    const { cwd, home } = await project();
    const broken = join(cwd, ".claude", "skills", "broken");
    await mkdir(broken, { recursive: true });
    await writeFile(join(broken, "SKILL.md"), '---\nname: broken\ndescription: "never closed\n---\n\nSteps.\n');
    const { early, late } = await bothInits(options(cwd, home));
    expect(early).toEqual(late);
    expect(early.skills).toEqual([]);
    expect(early.slash_commands).toEqual([]);
    expect(early.tools).not.toContain("Skill");

    const good = join(cwd, ".claude", "skills", "csv-clean");
    await mkdir(good, { recursive: true });
    await writeFile(join(good, "SKILL.md"), "---\nname: csv-clean\ndescription: Clean CSV files: fix encodings.\n---\n\nSteps.\n");
    const again = await bothInits(options(cwd, home));
    expect(again.early).toEqual(again.late);
    expect(again.early.skills).toEqual(["csv-clean"]);
    expect(again.early.tools).toContain("Skill");
  });

  it("carries the resumed session's id, as the session does", async () => {
    const { cwd, home } = await project();
    const first = createSession({ ...options(cwd, home), persistSession: true, providerInstance: new FakeProvider([textTurn("Hello.")]) });
    await first.runTurn(toUserMessage("hi"));
    await first.close();
    const { early, late } = await bothInits({ ...options(cwd, home), persistSession: true, resume: first.sessionId });
    expect(early.session_id).toBe(first.sessionId);
    expect(early).toEqual(late);
  });

  it("refuses, before anything is announced, what the session would refuse", async () => {
    const { cwd, home } = await project();
    expect(() => prepareSession(options(join(cwd, "missing"), home))).toThrow(SessionSetupError);
    expect(() => prepareSession(options(cwd, home, { tools: ["Frobnicate"] }))).toThrow(/Unknown tool name in --tools: Frobnicate/);
    expect(() => prepareSession(options(cwd, home, { resume: "00000000-0000-4000-8000-000000000000" }))).toThrow(SessionSetupError);
  });
});

describe("the sandbox settings", () => {
  it("refuses --sandbox-allow-write and --sandbox-network without a sandbox, and an allowed path that does not exist", async () => {
    const { cwd, home } = await project();
    expect(() => prepareSession(options(cwd, home, { sandboxNetwork: true }))).toThrow(
      /need --sandbox workspace-write or --sandbox read-only/,
    );
    expect(() => prepareSession(options(cwd, home, { sandboxAllowWrite: ["cache"] }))).toThrow(/need --sandbox workspace-write/);
    expect(() => prepareSession(options(cwd, home, { sandbox: "workspace-write", sandboxAllowWrite: ["missing"] }))).toThrow(
      `--sandbox-allow-write path does not exist: ${join(cwd, "missing")}`,
    );
    expect(prepareSession(options(cwd, home)).sandbox).toBeUndefined();
  });

  it.skipIf(bwrapProblem !== undefined)(
    `resolves allowed paths against cwd and keeps the agentwire home read-only${needsBwrap}`,
    async () => {
      const { cwd, home } = await project();
      await mkdir(join(cwd, "cache"));
      expect(prepareSession(options(cwd, home, { sandbox: "read-only", sandboxAllowWrite: ["cache"] })).sandbox).toEqual({
        mode: "read-only",
        allowWrite: [join(cwd, "cache")],
        network: false,
        protectedPaths: [home],
        protectedNames: PROTECTED_PROJECT_ENTRIES,
      });
    },
  );
});
