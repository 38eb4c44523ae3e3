import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent, SystemInitEvent } from "../../protocol/events.js";
import { agentwireEnv, BIN, createWorkspace, expectWellFormedRun, runAgentwire, type Workspace } from "../helpers/agentwire.js";

const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

async function writeAgent(folder: string, name: string, extra = ""): Promise<string> {
  await mkdir(folder, { recursive: true });
  const file = join(folder, `${name}.md`);
  await writeFile(file, `---\nname: ${name}\ndescription: The ${name} agent.\n${extra}---\nYou are ${name}.\n`);
  return file;
}

const initOf = (events: OutputEvent[]) =>
  events.find((event): event is SystemInitEvent => event.type === "system" && event.subtype === "init")!;
const warningsOf = (events: OutputEvent[]) =>
  events.filter((event) => event.type === "system" && event.subtype === "warning") as unknown as Array<{ code: string; message: string }>;

describe("agent definitions in system/init", () => {
  it("lists the built-ins, the user's, the trusted project's and --agents, sorted; an untrusted project's are skipped with a notice", async () => {
    workspace = await createWorkspace("text");
    const { cwd, home } = workspace;
    await writeAgent(join(home, ".claude", "agents"), "from-claude-home");
    await writeAgent(join(home, ".agentwire", "agents"), "from-agentwire-home");
    await writeAgent(join(cwd, ".claude", "agents"), "from-project", "tools: Read, Grep\n");
    await writeAgent(join(cwd, ".agents", "agents"), "shared-project");
    const agents = JSON.stringify({ "from-flag": { description: "Given on the command line.", prompt: "Help." } });

    const untrusted = await runAgentwire(["-p", "hi", ...STREAM, "--agents", agents], { workspace });
    expectWellFormedRun(untrusted, 1);
    expect(untrusted.code).toBe(0);
    expect(initOf(untrusted.events).agents).toEqual([
      "Explore",
      "fork",
      "from-agentwire-home",
      "from-claude-home",
      "from-flag",
      "general-purpose",
      "Plan",
    ]);
    const notice = warningsOf(untrusted.events).filter((warning) => warning.code === "agents_untrusted");
    expect(notice).toHaveLength(1);
    expect(notice[0]!.message).toContain(".agents/agents/shared-project.md, .claude/agents/from-project.md");
    expect(notice[0]!.message).toContain(`agentwire trust ${cwd}`);

    const forOneRun = await runAgentwire(["-p", "hi", ...STREAM, "--trust-project"], { workspace });
    expect(initOf(forOneRun.events).agents).toEqual([
      "Explore",
      "fork",
      "from-agentwire-home",
      "from-claude-home",
      "from-project",
      "general-purpose",
      "Plan",
      "shared-project",
    ]);
    expect(warningsOf(forOneRun.events)).toEqual([]);

    // `agentwire trust` shows each definition file and records it; a later edit needs trust again.
    const shown = execFileSync(process.execPath, [BIN, "trust", "--yes", cwd], { env: agentwireEnv(workspace), encoding: "utf8" });
    expect(shown).toContain('Agent definition "from-project" (.claude/agents/from-project.md)');
    expect(shown).toContain("tools: Read, Grep");
    const trusted = await runAgentwire(["-p", "hi", ...STREAM], { workspace });
    expect(initOf(trusted.events).agents).toContain("from-project");
    await writeAgent(join(cwd, ".claude", "agents"), "from-project", "tools: Bash\n");
    const edited = await runAgentwire(["-p", "hi", ...STREAM], { workspace });
    expect(initOf(edited.events).agents).not.toContain("from-project");
    expect(initOf(edited.events).agents).toContain("shared-project");
    expect(warningsOf(edited.events).map((warning) => warning.code)).toEqual(["agents_untrusted"]);
  });

  it("a broken definition file is one warning with its path; the run goes on", async () => {
    workspace = await createWorkspace("text");
    const file = join(workspace.home, ".claude", "agents", "broken.md");
    await mkdir(join(file, ".."), { recursive: true });
    await writeFile(file, "---\nname: broken\n---\nNo description.\n");
    const run = await runAgentwire(["-p", "hi", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(run.code).toBe(0);
    expect(initOf(run.events).agents).not.toContain("broken");
    expect(run.events).toContainEqual(expect.objectContaining({ type: "system", subtype: "warning", code: "agent_skipped", path: file }));
  });
});

describe("--agents", () => {
  it("refuses JSON that does not parse or a definition that does not check, before the run starts, like any bad flag", async () => {
    workspace = await createWorkspace("text");
    const badFlag = await runAgentwire(["-p", "hi", ...STREAM, "--max-turns", "0"], { workspace });
    for (const [value, message] of [
      ["{not json", "--agents is not valid JSON"],
      ['{"a":{"description":"d"}}', '--agents: agent "a", prompt:'],
      ['{"__proto__":{"description":"d","prompt":"p"}}', '--agents: the agent name "__proto__" must be'],
      ['["a"]', "--agents must be an object of agent definitions by name"],
    ] as const) {
      const run = await runAgentwire(["-p", "hi", ...STREAM, "--agents", value], { workspace });
      expect(run.code, value).toBe(badFlag.code);
      expect(run.code).not.toBe(0);
      const result = run.events.at(-1) as { subtype: string; errors: string[]; terminal_reason: string };
      expect(result).toMatchObject({ type: "result", subtype: "error_during_execution", terminal_reason: "invalid_arguments" });
      expect(result.errors[0], value).toContain(message);
    }
    expect(workspace.server.requests).toHaveLength(0);
  });
});

describe("--list-agents", () => {
  it("prints a table, or one JSON document with --output-format json, and what was skipped", async () => {
    workspace = await createWorkspace("text");
    await writeAgent(join(workspace.home, ".claude", "agents"), "reviewer", "tools: Read, Grep\nmodel: haiku\n");
    await writeAgent(join(workspace.cwd, ".claude", "agents"), "project-only");
    const agents = JSON.stringify({ helper: { description: "Helps.", prompt: "Help.", disallowedTools: ["Bash"] } });
    const text = await runAgentwire(["--list-agents", "--agents", agents], { workspace });
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^NAME +SOURCE +MODEL +TOOLS +DESCRIPTION$/);
    expect(lines.map((line) => line.split(/ {2,}/)[0])).toEqual([
      "NAME",
      "Explore",
      "fork",
      "general-purpose",
      "helper",
      "Plan",
      "reviewer",
    ]);
    expect(lines.find((line) => line.startsWith("reviewer"))).toMatch(/^reviewer +user +haiku +Read, Grep +The reviewer agent\.$/);
    expect(lines.find((line) => line.startsWith("helper"))).toMatch(/^helper +cli +inherit +all except Bash +Helps\.$/);
    expect(text.stderr).toContain("project-only.md) were not loaded");

    const json = await runAgentwire(["--list-agents", "--output-format", "json"], { workspace });
    expect(json.code).toBe(0);
    const document = JSON.parse(json.stdout) as { agents: Array<Record<string, unknown>>; warnings: Array<{ code: string }> };
    expect(document.agents.find((agent) => agent.name === "reviewer")).toEqual({
      name: "reviewer",
      description: "The reviewer agent.",
      source: "user",
      path: join(workspace.home, ".claude", "agents", "reviewer.md"),
      model: "haiku",
      tools: ["Read", "Grep"],
    });
    expect(document.agents.find((agent) => agent.name === "fork")).toMatchObject({ source: "built-in", inherits_conversation: true });
    expect(document.warnings.map((warning) => warning.code)).toEqual(["agents_untrusted"]);
  });
});

describe("initialize", () => {
  const initialize = (agents?: unknown) =>
    `${JSON.stringify({ type: "control_request", request_id: "init-1", request: { subtype: "initialize", ...(agents === undefined ? {} : { agents }) } })}\n`;
  const user = `${JSON.stringify({ type: "user", message: { role: "user", content: "hi" }, parent_tool_use_id: null, session_id: "" })}\n`;
  type Answer = { response: { subtype: string; error?: string; response?: { agents: unknown[] } } };

  it("answers with every agent as {name, description, model?}; the host's definitions win and show in the next system/init", async () => {
    workspace = await createWorkspace("text");
    await writeAgent(join(workspace.home, ".claude", "agents"), "reviewer", "model: haiku\n");
    const agents = {
      "from-host": { description: "The host's.", prompt: "Go.", model: "inherit" },
      reviewer: { description: "The host's reviewer.", prompt: "Go." },
    };
    const run = await runAgentwire(["--input-format", "stream-json", ...STREAM], { workspace, stdin: initialize(agents) + user });
    expectWellFormedRun(run, 1);
    const answer = run.events.find((event) => event.type === "control_response") as unknown as Answer;
    expect(answer.response.subtype).toBe("success");
    const listed = answer.response.response!.agents as Array<{ name: string; description: string; model?: string }>;
    expect(listed.map((agent) => agent.name)).toEqual(["Explore", "fork", "from-host", "general-purpose", "Plan", "reviewer"]);
    expect(listed).toContainEqual({ name: "from-host", description: "The host's.", model: "inherit" });
    expect(listed).toContainEqual({ name: "reviewer", description: "The host's reviewer." });
    expect(listed).toContainEqual({ name: "Explore", description: expect.any(String), model: "inherit" });
    expect(initOf(run.events).agents).toEqual(listed.map((agent) => agent.name));
  });

  it("refuses an invalid definition with an error naming it, and changes nothing", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["--input-format", "stream-json", ...STREAM], {
      workspace,
      stdin: initialize({ bad: { description: "No prompt." } }) + user,
    });
    const answer = run.events.find((event) => event.type === "control_response") as unknown as Answer;
    expect(answer.response).toMatchObject({ subtype: "error", error: expect.stringContaining('agent "bad", prompt:') });
    expect(initOf(run.events).agents).toEqual(["Explore", "fork", "general-purpose", "Plan"]);
  });
});
