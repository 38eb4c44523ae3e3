import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentCatalog } from "../../src/agents/agent-catalog.js";
import { AgentDefinitionError, parseAgentRecord } from "../../src/agents/agent-definition.js";
import { parseAgentMarkdown } from "../../src/agents/agent-markdown.js";
import { agentInfo, renderAgentListing, toolsSummary } from "../../src/agents/agent-listing.js";
import { loadAgentDefinitions, type AgentSourcesInput } from "../../src/agents/load-agent-definitions.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "agent-defs-"));
  mkdirSync(join(root, "project"));
  mkdirSync(join(root, "home"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): string {
  const file = join(root, path);
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const agentFile = (name: string, body = "Do the work.", extra = "") =>
  `---\nname: ${name}\ndescription: The ${name} agent\n${extra}---\n${body}\n`;

function input(overrides: Partial<AgentSourcesInput> = {}): AgentSourcesInput {
  return {
    cwd: join(root, "project"),
    project: { root: join(root, "project"), trusted: () => true },
    home: join(root, "home"),
    agentwireHome: join(root, "aw"),
    ...overrides,
  };
}

describe("parseAgentMarkdown", () => {
  it("reads name, description, tools as a comma list, model, and the body as the prompt", async () => {
    const parsed = await parseAgentMarkdown(
      "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\nmodel: haiku\n---\n\nLook for bugs.\n",
    );
    expect(parsed).toEqual({
      ok: true,
      name: "reviewer",
      notes: [],
      fields: { description: "Reviews code", prompt: "Look for bugs.", tools: ["Read", "Grep"], model: "haiku" },
    });
  });

  it("takes tools as a YAML list, `*` as all tools, and the SDK's other fields; ignores keys it does not know", async () => {
    const listed = await parseAgentMarkdown(
      "---\nname: a\ndescription: d\ntools:\n  - Read\n  - Bash(git diff:*)\ndisallowedTools: Write\nmaxTurns: 5\neffort: high\npermissionMode: plan\nbackground: true\ncolor: red\n---\nBody\n",
    );
    expect(listed.ok && listed.fields).toEqual({
      description: "d",
      prompt: "Body",
      tools: ["Read", "Bash(git diff:*)"],
      disallowedTools: ["Write"],
      maxTurns: 5,
      effort: "high",
      permissionMode: "plan",
      background: true,
    });
    const star = await parseAgentMarkdown('---\nname: a\ndescription: d\ntools: "*"\n---\nBody\n');
    expect(star.ok && star.fields.tools).toBeUndefined();
  });

  it("refuses what cannot be a definition, saying why", async () => {
    const reasons = async (text: string) => {
      const parsed = await parseAgentMarkdown(text);
      return parsed.ok ? "loaded" : parsed.reason;
    };
    expect(await reasons("Just a note about agents.\n")).toMatch(/no frontmatter/);
    expect(await reasons("---\ndescription: d\n---\nBody\n")).toMatch(/no `name:`/);
    expect(await reasons("---\nname: a\n---\nBody\n")).toMatch(/no `description:`/);
    expect(await reasons("---\nname: a\ndescription: d\n---\n\n")).toMatch(/no instructions/);
    expect(await reasons("---\nname: a\ndescription: d\nmaxTurns: lots\n---\nBody\n")).toMatch(/maxTurns/);
    expect(await reasons("---\nname: a\ndescription: d\npermissionMode: yolo\n---\nBody\n")).toMatch(/permissionMode/);
    expect(await reasons("---\nname: a\ndescription: d\n---\nBody\u0000\n")).toMatch(/binary/);
  });

  it("refuses names that are paths or prototype keys", async () => {
    for (const name of ["__proto__", "../escape", "a/b", "a\\\\b", ".hidden", "x".repeat(65), '"Code Reviewer"']) {
      const parsed = await parseAgentMarkdown(agentFile(name));
      expect(parsed.ok, name).toBe(false);
    }
    expect((await parseAgentMarkdown(agentFile("powershell-5.1-expert"))).ok).toBe(true);
  });
});

describe("parseAgentRecord (--agents, initialize, the library's agents)", () => {
  it("checks each definition and keeps only the fields it knows", () => {
    const record = JSON.parse(
      '{"reviewer":{"description":"Reviews","prompt":"Be strict","tools":["Read"],"model":"inherit","observer":"x"}}',
    );
    expect(parseAgentRecord(record, "cli", "--agents")).toEqual([
      { name: "reviewer", source: "cli", description: "Reviews", prompt: "Be strict", tools: ["Read"], model: "inherit" },
    ]);
  });

  it("names the first problem: not an object, a bad name (__proto__ included), a missing or mistyped field", () => {
    const problem = (record: unknown) => {
      try {
        parseAgentRecord(record, "sdk", "agents");
        return "accepted";
      } catch (error) {
        expect(error).toBeInstanceOf(AgentDefinitionError);
        return (error as Error).message;
      }
    };
    expect(problem([])).toMatch(/^agents must be an object of agent definitions by name/);
    expect(problem(JSON.parse('{"__proto__":{"description":"d","prompt":"p"}}'))).toMatch(/the agent name "__proto__" must be/);
    expect(problem({ "a/b": { description: "d", prompt: "p" } })).toMatch(/the agent name "a\/b" must be/);
    expect(problem({ a: { description: "d" } })).toBe('agents: agent "a", prompt: Invalid input: expected string, received undefined');
    expect(problem({ a: { description: "d", prompt: "p", tools: "Read" } })).toMatch(/agent "a", tools: /);
    expect(problem({ a: { description: "d", prompt: "p", effort: "extreme" } })).toMatch(/agent "a", effort: /);
  });
});

describe("loadAgentDefinitions", () => {
  it("offers the built-ins, sorted as Claude Code sorts them (case set aside)", async () => {
    const { definitions, problems } = await loadAgentDefinitions(input());
    expect(definitions.map((definition) => definition.name)).toEqual(["Explore", "fork", "general-purpose", "Plan"]);
    expect(definitions.find((definition) => definition.name === "fork")?.inheritsConversation).toBe(true);
    expect(definitions.filter((definition) => definition.inheritsConversation)).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it("reads the project's .claude/agents and .agents/agents up to the repository root, and the user's folders", async () => {
    execFileSync("git", ["init", "-q", root]);
    mkdirSync(join(root, "project", "sub"), { recursive: true });
    write(".claude/agents/at-root.md", agentFile("at-root"));
    write("project/.agents/agents/shared.md", agentFile("shared"));
    write("project/.claude/agents/claude.md", agentFile("claude-one"));
    write("home/.claude/agents/mine.md", agentFile("mine"));
    write("aw/agents/ours.md", agentFile("ours"));
    const { definitions } = await loadAgentDefinitions(input({ cwd: join(root, "project", "sub") }));
    const sources = Object.fromEntries(definitions.map((definition) => [definition.name, definition.source]));
    expect(sources).toMatchObject({ "at-root": "project", shared: "project", "claude-one": "project", mine: "user", ours: "user" });
  });

  it("lets the SDK's win over --agents, --agents over the project's, the project's over the user's, the user's over a built-in", async () => {
    for (const name of ["general-purpose", "a", "b", "c"]) write(`home/.claude/agents/${name}.md`, agentFile(name, `user ${name}`));
    for (const name of ["b", "c"]) write(`project/.claude/agents/${name}.md`, agentFile(name, `project ${name}`));
    const cliAgents = parseAgentRecord(
      { c: { description: "d", prompt: "cli c" }, d: { description: "d", prompt: "cli d" } },
      "cli",
      "--agents",
    );
    const sdkAgents = parseAgentRecord({ d: { description: "d", prompt: "sdk d" } }, "sdk", "agents");
    const { definitions } = await loadAgentDefinitions(input({ cliAgents, sdkAgents }));
    const prompts = Object.fromEntries(definitions.map((definition) => [definition.name, definition.prompt]));
    expect(prompts).toMatchObject({ "general-purpose": "user general-purpose", a: "user a", b: "project b", c: "cli c", d: "sdk d" });
  });

  it("within a source, the nearer folder wins, and .agents/agents over .claude/agents", async () => {
    write("project/.claude/agents/x.md", agentFile("x", "from .claude"));
    write("project/.agents/agents/x.md", agentFile("x", "from .agents"));
    write("aw/agents/y.md", agentFile("y", "from the agentwire home"));
    write("home/.claude/agents/y.md", agentFile("y", "from ~/.claude"));
    const { definitions } = await loadAgentDefinitions(input());
    expect(definitions.find((definition) => definition.name === "x")?.prompt).toBe("from .agents");
    expect(definitions.find((definition) => definition.name === "y")?.prompt).toBe("from the agentwire home");
  });

  it("skips an untrusted project's files with one notice naming them and how to trust them; reads the trusted ones", async () => {
    const trusted = write("project/.claude/agents/ok.md", agentFile("ok"));
    write("project/.claude/agents/new.md", agentFile("new"));
    write("project/.agents/agents/other.md", agentFile("other"));
    const { definitions, problems } = await loadAgentDefinitions(
      input({ project: { root: join(root, "project"), trusted: (file) => file === trusted } }),
    );
    expect(definitions.map((definition) => definition.name)).toContain("ok");
    expect(definitions.map((definition) => definition.name)).not.toContain("new");
    expect(problems).toEqual([
      {
        code: "agents_untrusted",
        message: expect.stringMatching(
          new RegExp(
            `\\(\\.agents/agents/other\\.md, \\.claude/agents/new\\.md\\) were not loaded.*agentwire trust ${join(root, "project")}.*--trust-project`,
          ),
        ),
      },
    ]);
  });

  it("a run in the home folder reads ~/.claude/agents as the user's, without asking for trust", async () => {
    write("home/.claude/agents/mine.md", agentFile("mine"));
    const home = join(root, "home");
    const { definitions, problems } = await loadAgentDefinitions(input({ cwd: home, project: { root: home, trusted: () => false } }));
    expect(definitions.find((definition) => definition.name === "mine")?.source).toBe("user");
    expect(problems).toEqual([]);
  });

  it("reads no project folder when project settings are off, and says nothing about them", async () => {
    write("project/.claude/agents/p.md", agentFile("p"));
    const { definitions, problems } = await loadAgentDefinitions(input({ project: undefined }));
    expect(definitions.map((definition) => definition.name)).not.toContain("p");
    expect(problems).toEqual([]);
  });

  it("reports a broken file and goes on; never blocks on a FIFO; skips a file too large to be a definition", async () => {
    write("home/.claude/agents/broken.md", "---\nname: broken\n---\nno description\n");
    write("home/.claude/agents/huge.md", agentFile("huge", "x".repeat(300 * 1024)));
    write("home/.claude/agents/good.md", agentFile("good"));
    execFileSync("mkfifo", [join(root, "home", ".claude", "agents", "fifo.md")]);
    const { definitions, problems } = await loadAgentDefinitions(input());
    expect(definitions.map((definition) => definition.name)).toContain("good");
    expect(problems.map((problem) => [problem.code, problem.path?.split("/").at(-1), problem.message])).toEqual([
      ["agent_skipped", "broken.md", expect.stringMatching(/no `description:`/)],
      ["agent_skipped", "fifo.md", expect.stringMatching(/not a regular file/)],
      ["agent_skipped", "huge.md", expect.stringMatching(/more than an agent definition's/)],
    ]);
  });
});

describe("AgentCatalog", () => {
  it("puts the host's definitions over every other, a later host's over an earlier one's", async () => {
    write("home/.claude/agents/a.md", agentFile("a", "user a"));
    const catalog = new AgentCatalog(
      input({ sdkAgents: parseAgentRecord({ b: { description: "d", prompt: "option b" } }, "sdk", "agents") }),
    );
    catalog.setHostAgents(
      parseAgentRecord({ a: { description: "d", prompt: "host a" }, b: { description: "d", prompt: "host b" } }, "sdk", "x"),
    );
    const prompts = Object.fromEntries((await catalog.load()).definitions.map((definition) => [definition.name, definition.prompt]));
    expect(prompts).toMatchObject({ a: "host a", b: "host b" });
  });
});

describe("listings", () => {
  it("renders the agent types for the parent model: one line each, with their tools", async () => {
    const cliAgents = parseAgentRecord(
      {
        reviewer: { description: "Reviews code\n  for bugs.", prompt: "p", tools: ["Read", "Grep"] },
        mute: { description: "d", prompt: "p", tools: [] },
      },
      "cli",
      "--agents",
    );
    const { definitions } = await loadAgentDefinitions(input({ cliAgents }));
    const listing = renderAgentListing(definitions);
    expect(listing.split("\n")[0]).toBe("Available agent types for the Agent tool:");
    expect(listing).toContain("\n- reviewer: Reviews code for bugs. (Tools: Read, Grep)\n");
    expect(listing).toContain("\n- mute: d (Tools: none)\n");
    expect(listing).toMatch(/\n- general-purpose: .* \(Tools: \*\)\n/);
    expect(listing).toMatch(/\n- Explore: .* \(Tools: all except Agent, Edit, MultiEdit, Write, NotebookEdit\)\n/);
    expect(renderAgentListing([])).toBe("");
  });

  it("summarises tools and describes an agent as the initialize answer lists it", () => {
    expect(toolsSummary({ tools: ["Read", "Write"], disallowedTools: ["Write"] })).toBe("Read");
    expect(agentInfo({ name: "a", source: "cli", description: "d", prompt: "p", model: "haiku" })).toEqual({
      name: "a",
      description: "d",
      model: "haiku",
    });
    expect(agentInfo({ name: "a", source: "cli", description: "d", prompt: "p" })).toEqual({ name: "a", description: "d" });
  });
});
