import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent, SystemInitEvent, UserEvent } from "../../protocol/events.js";
import { createWorkspace, expectWellFormedRun, results, ROOT, runAgentwire, sequence, type Workspace } from "../helpers/agentwire.js";
import { isDeferredListing } from "../helpers/deferred-listing.js";

const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

/** A skill folder `<root>/<name>/SKILL.md` (plus `files`), written as a user would. */
async function writeSkill(
  root: string,
  name: string,
  frontmatter: Record<string, string>,
  body = "1. Follow these steps.\n",
  files: Record<string, string> = {},
): Promise<string> {
  const directory = join(root, name);
  await mkdir(directory, { recursive: true });
  const yaml = Object.entries(frontmatter)
    .map(([key, value]) => `${key}: ${value}`)
    .join("\n");
  await writeFile(join(directory, "SKILL.md"), `---\n${yaml}\n---\n\n${body}`);
  for (const [file, content] of Object.entries(files)) {
    await mkdir(join(directory, file, ".."), { recursive: true });
    await writeFile(join(directory, file), content);
  }
  return directory;
}

type Body = {
  tools: Array<{ name: string; description: string }>;
  messages: Array<{ role: string; content: Array<{ type: string; text?: string; content?: unknown }> }>;
};
const requestBody = (workspace: Workspace, index: number) => workspace.server.requests[index]!.body as Body;
const firstUserTexts = (body: Body) =>
  body.messages[0]!.content.flatMap((block) => (block.type === "text" && !isDeferredListing(block.text!) ? [block.text!] : []));
const initOf = (events: OutputEvent[]) =>
  events.find((event): event is SystemInitEvent => event.type === "system" && event.subtype === "init")!;
const toolResults = (events: OutputEvent[]) =>
  events.flatMap((event) =>
    event.type === "user" && (event as UserEvent).message.content[0]?.type === "tool_result"
      ? [(event as UserEvent).message.content[0] as { content: unknown; is_error?: boolean }]
      : [],
  );

describe("skill discovery", () => {
  it("finds skills in every location, in precedence order; a project skill wins over a user skill of the same name", async () => {
    workspace = await createWorkspace("text");
    const { cwd, home } = workspace;
    // A repository whose root is the parent of the working directory.
    const repo = join(cwd, "repo");
    const project = join(repo, "packages", "app");
    await mkdir(join(repo, ".git"), { recursive: true });
    await mkdir(project, { recursive: true });
    await writeSkill(join(project, ".claude", "skills"), "deploy", { name: "deploy", description: "Project deploy steps." });
    await writeSkill(join(repo, ".agents", "skills"), "lint-rules", { name: "lint-rules", description: "The repository's lint rules." });
    await writeSkill(join(repo, ".agentwire", "skills"), "deploy", {
      name: "deploy",
      description: "Repo-level deploy, shadowed by the nearer one.",
    });
    const extra = join(home, "extra");
    await writeSkill(join(extra, ".agentwire", "skills"), "shared-docs", {
      name: "shared-docs",
      description: "Docs conventions from an added directory.",
    });
    const skillsDir = join(home, "more-skills");
    await writeSkill(skillsDir, "from-flag", { name: "from-flag", description: "A skill from --skills-dir." });
    await writeSkill(join(home, ".agentwire", "skills"), "deploy", {
      name: "deploy",
      description: "The user's own deploy, shadowed by the project's.",
    });
    await writeSkill(join(home, ".agentwire", "skills"), "user-tool", { name: "user-tool", description: "A user skill." });
    await writeSkill(join(home, ".agents", "skills"), "agents-skill", { name: "agents-skill", description: "From ~/.agents/skills." });
    await writeSkill(join(home, ".claude", "skills"), "claude-skill", {
      name: "claude-skill",
      description: "From ~/.claude/skills, written for Claude Code.",
    });

    const args = ["--cwd", project, "--add-dir", extra, "--skills-dir", skillsDir];
    const listed = await runAgentwire(["--list-skills", "--output-format", "json", ...args], { workspace });
    expect(listed.code).toBe(0);
    const document = JSON.parse(listed.stdout) as {
      skills: Array<{ name: string; source: string; description: string; path: string }>;
      warnings: unknown[];
    };
    expect(document.skills.map((skill) => [skill.name, skill.source])).toEqual([
      ["deploy", "project"],
      ["lint-rules", "project"],
      ["shared-docs", "add-dir"],
      ["from-flag", "skills-dir"],
      ["user-tool", "user"],
      ["agents-skill", "user"],
      ["claude-skill", "user"],
    ]);
    expect(document.skills[0]).toMatchObject({
      description: "Project deploy steps.",
      path: join(project, ".claude", "skills", "deploy", "SKILL.md"),
    });
    expect(document.warnings).toEqual([]);

    const run = await runAgentwire(["-p", "hi", ...STREAM, ...args], { workspace });
    expectWellFormedRun(run, 1);
    expect(initOf(run.events).skills).toEqual([
      "deploy",
      "lint-rules",
      "shared-docs",
      "from-flag",
      "user-tool",
      "agents-skill",
      "claude-skill",
    ]);
    expect(initOf(run.events).tools).toEqual([
      "Task",
      "Bash",
      "Edit",
      "Glob",
      "Grep",
      "LS",
      "Monitor",
      "MultiEdit",
      "NotebookEdit",
      "Read",
      "Skill",
      "TaskStop",
      "TodoWrite",
      "ToolSearch",
      "WebFetch",
      "WebSearch",
      "Write",
    ]);

    const off = await runAgentwire(["-p", "hi", ...STREAM, ...args, "--no-skills"], { workspace });
    expect(initOf(off.events).skills).toEqual([]);
    expect(initOf(off.events).tools).not.toContain("Skill");
  });

  it("the listing of names and descriptions reaches the model before the prompt; no skills, no listing and no Skill tool", async () => {
    workspace = await createWorkspace("multi-turn");
    const run = await runAgentwire(["-p", "Say hello.", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(firstUserTexts(requestBody(workspace, 0))).toEqual(["Say hello."]);
    expect(requestBody(workspace, 0).tools.map((tool) => tool.name)).not.toContain("Skill");

    await writeSkill(join(workspace.home, ".agentwire", "skills"), "greeting-style", {
      name: "greeting-style",
      description: "How to greet people in this team.",
      when_to_use: "hello, greetings",
    });
    const withSkill = await runAgentwire(["-p", "Say hello.", ...STREAM], { workspace });
    expectWellFormedRun(withSkill, 1);
    const texts = firstUserTexts(requestBody(workspace, 1));
    expect(texts).toEqual([
      "<system-reminder>\nSkills you can load with the Skill tool:\n\n- greeting-style: How to greet people in this team. hello, greetings\n</system-reminder>",
      "Say hello.",
    ]);
    const skillTool = requestBody(workspace, 1).tools.find((tool) => tool.name === "Skill")!;
    expect(skillTool.description).toMatch(/^Loads a skill: /);
  });

  it("malformed skills each get one warning and are skipped or fixed; the run goes on", async () => {
    workspace = await createWorkspace("text");
    const skills = join(workspace.home, ".agentwire", "skills");
    await writeSkill(skills, "good", { name: "good", description: "Works." });
    await writeSkill(skills, "bad-yaml", { name: "bad-yaml", description: '"an opened quote: never closed' });
    await writeSkill(skills, "csv-clean", { name: "csv-clean", description: "Clean CSV files: fix encodings, drop blank rows." });
    await writeSkill(skills, "no-description", { name: "no-description" });
    await writeSkill(skills, "renamed", { name: "other-name", description: "Loaded under its folder's name." });
    await mkdir(join(skills, "binary"));
    await writeFile(join(skills, "binary", "SKILL.md"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
    await mkdir(join(skills, "unreadable"));
    await writeFile(join(skills, "unreadable", "SKILL.md"), "---\nname: unreadable\ndescription: x\n---\n");
    await chmod(join(skills, "unreadable", "SKILL.md"), 0o000);
    const rootCanReadAnything = process.getuid?.() === 0;

    const run = await runAgentwire(["-p", "hi", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    const warnings = run.events.filter((event) => event.type === "system" && event.subtype === "warning") as Array<{
      code: string;
      path: string;
      message: string;
    }>;
    const byFolder = Object.fromEntries(warnings.map((warning) => [warning.path.split("/").at(-2), warning]));
    expect(byFolder["bad-yaml"]).toMatchObject({ code: "skill_skipped", message: expect.stringMatching(/not valid YAML/) });
    expect(byFolder["csv-clean"]).toMatchObject({
      code: "skill_fixed",
      message: expect.stringMatching(/not valid YAML .*; it was read with the value of `description` quoted\.$/),
    });
    expect(byFolder["no-description"]).toMatchObject({ code: "skill_skipped", message: expect.stringMatching(/no description/) });
    expect(byFolder.renamed).toMatchObject({
      code: "skill_fixed",
      message: expect.stringMatching(/"other-name" does not match its folder; it is loaded as "renamed"/),
    });
    expect(byFolder.binary).toMatchObject({ code: "skill_skipped", message: expect.stringMatching(/binary/) });
    if (!rootCanReadAnything)
      expect(byFolder.unreadable).toMatchObject({ code: "skill_skipped", message: expect.stringMatching(/cannot be read: EACCES/) });
    expect(warnings).toHaveLength(rootCanReadAnything ? 5 : 6);
    // Only what loaded is a skill: system/init names neither a skipped folder nor an unreadable one.
    const loaded = ["csv-clean", "good", "renamed", ...(rootCanReadAnything ? ["unreadable"] : [])];
    expect(initOf(run.events).skills).toEqual(loaded);
    expect(initOf(run.events).slash_commands).toEqual(loaded);
    const listing = firstUserTexts(requestBody(workspace, 0))[0]!;
    expect(listing).toContain("- csv-clean: Clean CSV files: fix encodings, drop blank rows.");
    expect(listing).toContain("- good: Works.");
    expect(listing).toContain("- renamed: Loaded under its folder's name.");
    expect(listing).not.toContain("bad-yaml");

    const listed = await runAgentwire(["--list-skills"], { workspace });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^NAME\s+SOURCE\s+DESCRIPTION\n/);
    expect(listed.stdout).toMatch(/\ngood\s+user\s+Works\.\n/);
    expect(listed.stderr).toMatch(/bad-yaml\/SKILL\.md: the frontmatter is not valid YAML/);
    expect(listed.stdout).not.toMatch(rootCanReadAnything ? /bad-yaml|no-description|binary/ : /bad-yaml|no-description|binary|unreadable/);
  });

  it("skipped skills are in no list: stream-json's system/init, the Skill tool; with none left, no Skill tool at all", async () => {
    workspace = await createWorkspace("text");
    const skills = join(workspace.home, ".agentwire", "skills");
    await writeSkill(skills, "broken", { name: "broken", description: '"never closed' });
    await writeSkill(skills, "no-description", { name: "no-description" });
    const run = await runAgentwire(["-p", "hi", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(initOf(run.events).skills).toEqual([]);
    expect(initOf(run.events).tools).not.toContain("Skill");
    expect(requestBody(workspace, 0).tools.map((tool) => tool.name)).not.toContain("Skill");

    // With one good skill: the Skill tool is offered, and a skipped skill's name is unknown to it.
    await writeSkill(skills, "good", { name: "good", description: "Works." });
    await workspace.useScenario({ turns: [{ tool_calls: [{ name: "Skill", input: { skill: "broken" } }] }, { text: "done" }] });
    const input = `${JSON.stringify({ type: "user", message: { role: "user", content: "use the broken skill" } })}\n`;
    const streamed = await runAgentwire(["-p", ...STREAM, "--input-format", "stream-json"], { workspace, stdin: input });
    expectWellFormedRun(streamed, 1);
    expect(initOf(streamed.events)).toMatchObject({ skills: ["good"], tools: expect.arrayContaining(["Skill"]) });
    expect(toolResults(streamed.events)[0]).toMatchObject({
      is_error: true,
      content: expect.stringMatching(/Unknown skill: broken\. The closest names: good\./),
    });
  });
});

describe("skills from public collections (fixtures/skills-in-the-wild)", () => {
  it("system/init, the warnings and --list-skills agree: every readable skill listed, each repair and skip reported once", async () => {
    workspace = await createWorkspace("text");
    const directory = join(ROOT, "fixtures", "skills-in-the-wild");
    const expected = JSON.parse(readFileSync(join(directory, "expected.json"), "utf8")) as Record<
      string,
      { quoted?: string[]; declaredName?: string; skipped?: unknown }
    >;
    const readable = Object.keys(expected)
      .filter((folder) => !expected[folder]!.skipped)
      .sort();
    const args = ["--skills-dir", directory, "--no-default-skills"];
    const run = await runAgentwire(["-p", "hi", ...STREAM, ...args], { workspace });
    expectWellFormedRun(run, 1);
    expect(initOf(run.events).skills).toEqual(readable);
    const warnings = run.events.filter((event) => event.type === "system" && event.subtype === "warning") as Array<{
      code: string;
      path: string;
    }>;
    const count = (code: string) => warnings.filter((warning) => warning.code === code).length;
    const entries = Object.values(expected);
    expect(count("skill_skipped")).toBe(entries.filter((entry) => entry.skipped).length);
    expect(count("skill_fixed")).toBe(
      entries.filter((entry) => entry.quoted).length + entries.filter((entry) => entry.declaredName).length,
    );

    const listed = await runAgentwire(["--list-skills", "--output-format", "json", ...args], { workspace });
    const document = JSON.parse(listed.stdout) as { skills: Array<{ name: string }>; warnings: unknown[] };
    expect(document.skills.map((skill) => skill.name)).toEqual(readable);
    expect(document.warnings).toHaveLength(warnings.length);
  });
});

describe("using a skill", () => {
  it("the Skill tool returns the instructions, base directory and files; the model then reads a skill file outside the workspace", async () => {
    workspace = await createWorkspace("text");
    const directory = await writeSkill(
      join(workspace.home, ".agentwire", "skills"),
      "release-notes",
      { name: "release-notes", description: "Drafts release notes from git history." },
      "# Release notes\n\nUse the template in template.md for $ARGUMENTS.\n",
      { "template.md": "## Version {version}\n", "scripts/collect.sh": "git log --oneline\n" },
    );
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "Skill", input: { skill: "release-notes", args: "v2.0" } }] },
        { tool_calls: [{ name: "Read", input: { file_path: join(directory, "template.md") } }] },
        { tool_calls: [{ name: "Skill", input: { skill: "release-notes" } }] },
        { text: "Done." },
      ],
    });
    const run = await runAgentwire(["-p", "Write the release notes", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    const [loaded, read, again] = toolResults(run.events);
    expect(loaded!.is_error).not.toBe(true);
    expect(loaded!.content).toBe(
      `Base directory for this skill: ${directory}\n\n# Release notes\n\nUse the template in template.md for v2.0.\n\nFiles in this skill (Read them, or run its scripts with Bash, when the instructions call for it):\n- ${join(directory, "scripts", "collect.sh")}\n- ${join(directory, "template.md")}`,
    );
    // Outside the workspace, yet readable without a question: it belongs to a loaded skill.
    expect(read).toMatchObject({ content: "1\t## Version {version}\n2\t" });
    expect(read!.is_error).not.toBe(true);
    // The body is injected once per session.
    expect(again!.content).toBe("The release-notes skill is already loaded in this conversation; follow its instructions above.");
    expect(sequence(run.events)).not.toContain("system/permission_denied");
  });

  it("an unknown skill name is an error listing the closest names; {query} ranks skills for a task", async () => {
    workspace = await createWorkspace("text");
    const skills = join(workspace.home, ".agentwire", "skills");
    await writeSkill(skills, "docker-images", { name: "docker-images", description: "Build small Docker images and debug Dockerfiles." });
    await writeSkill(skills, "pdf-forms", { name: "pdf-forms", description: "Fill PDF forms and merge PDF files." });
    await writeSkill(skills, "git-helper", { name: "git-helper", description: "Resolve merge conflicts and undo commits." });
    await workspace.useScenario({
      turns: [
        {
          tool_calls: [
            { name: "Skill", input: { skill: "docker-image" } },
            { name: "Skill", input: { query: "merge two pdf files" } },
            { name: "Skill", input: {} },
          ],
        },
        { text: "ok" },
      ],
    });
    const run = await runAgentwire(["-p", "x", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    const [unknown, query, neither] = toolResults(run.events);
    expect(unknown).toMatchObject({
      is_error: true,
      content: "<tool_use_error>Unknown skill: docker-image. The closest names: docker-images, pdf-forms, git-helper.</tool_use_error>",
    });
    expect(query!.content).toMatch(
      new RegExp(
        `^Skills matching "merge two pdf files", best first; load one with \\{"skill": "<name>"\\}:\\n- pdf-forms \\(${join(skills, "pdf-forms", "SKILL.md")}\\): Fill PDF forms and merge PDF files\\.`,
      ),
    );
    expect(neither).toMatchObject({ is_error: true, content: expect.stringMatching(/give exactly one of skill and query/) });
  });

  it("/name args runs a user-invocable skill directly; a model-only skill is not a command", async () => {
    workspace = await createWorkspace("multi-turn");
    const skills = join(workspace.home, ".agentwire", "skills");
    await writeSkill(
      skills,
      "summarize",
      { name: "summarize", description: "Summarize a file.", "argument-hint": "'[file]'" },
      "Summarize $ARGUMENTS in three bullet points.\n",
    );
    await writeSkill(
      skills,
      "internal",
      { name: "internal", description: "Only for the model.", "user-invocable": "false" },
      "Secret steps.\n",
    );
    const stdin = ["/summarize README.md", "/internal now"].map((text) => `${JSON.stringify({ type: "user", content: text })}\n`).join("");
    const run = await runAgentwire(["--input-format", "stream-json", ...STREAM], { workspace, stdin });
    expectWellFormedRun(run, 2);
    const first = firstUserTexts(requestBody(workspace, 0));
    expect(first.slice(1)).toEqual([
      "<command-name>/summarize</command-name>\n<command-args>README.md</command-args>",
      `Base directory for this skill: ${join(skills, "summarize")}\n\nSummarize README.md in three bullet points.`,
    ]);
    const second = requestBody(workspace, 1)
      .messages.at(-1)!
      .content.flatMap((block) => (block.type === "text" ? [block.text!] : []));
    expect(second).toEqual(["/internal now"]);
  });

  it("a skill's allowed-tools approve its commands only in the turn that loaded it, and never lift a deny rule", async () => {
    workspace = await createWorkspace("text");
    await writeSkill(join(workspace.home, ".agentwire", "skills"), "scaffold", {
      name: "scaffold",
      description: "Creates marker files.",
      "allowed-tools": "Bash(touch:*)",
    });
    const touch = (file: string) => ({ tool_calls: [{ name: "Bash", input: { command: `touch ${file}` } }] });
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "Skill", input: { skill: "scaffold" } }] },
        touch("first.txt"),
        { text: "made" },
        touch("second.txt"),
        { text: "refused" },
      ],
    });
    const stdin = ["make the first", "make the second"].map((text) => `${JSON.stringify({ type: "user", content: text })}\n`).join("");
    const run = await runAgentwire(["--input-format", "stream-json", ...STREAM], { workspace, stdin });
    expectWellFormedRun(run, 2);
    expect(existsSync(join(workspace.cwd, "first.txt"))).toBe(true);
    expect(existsSync(join(workspace.cwd, "second.txt"))).toBe(false);
    expect(results(run.events)[1]!.permission_denials.map((denial) => denial.tool_input)).toEqual([{ command: "touch second.txt" }]);

    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Skill", input: { skill: "scaffold" } }] }, touch("third.txt"), { text: "refused" }],
    });
    const denied = await runAgentwire(["-p", "make it", ...STREAM, "--disallowedTools", "Bash(touch:*)"], { workspace });
    expectWellFormedRun(denied, 1);
    expect(existsSync(join(workspace.cwd, "third.txt"))).toBe(false);
  });
});

describe("skills as commands", () => {
  it("the initialize answer lists the user-invocable skills as commands", async () => {
    workspace = await createWorkspace("text");
    const skills = join(workspace.home, ".agentwire", "skills");
    await writeSkill(skills, "summarize", { name: "summarize", description: "Summarize a file.", "argument-hint": "'[file]'" });
    await writeSkill(skills, "internal", { name: "internal", description: "Only for the model.", "user-invocable": "false" });
    const initialize = JSON.stringify({ type: "control_request", request_id: "init-1", request: { subtype: "initialize" } });
    const run = await runAgentwire(["--input-format", "stream-json", ...STREAM], { workspace, stdin: `${initialize}\n` });
    expect(run.code).toBe(0);
    const answer = run.events.find((event) => event.type === "control_response") as unknown as {
      response: { response: { commands: unknown[] } };
    };
    expect(answer.response.response.commands).toEqual([{ name: "summarize", description: "Summarize a file.", argumentHint: "[file]" }]);
  });
});

describe("ranking the listing per prompt", () => {
  it("when the listing does not fit its budget, the skills relevant to this prompt get descriptions and the rest names only", async () => {
    workspace = await createWorkspace("multi-turn");
    const skills = join(workspace.home, ".agentwire", "skills");
    await writeSkill(skills, "docker-images", {
      name: "docker-images",
      description: "Build small Docker images and debug Dockerfiles and containers.",
    });
    await writeSkill(skills, "pdf-forms", { name: "pdf-forms", description: "Fill PDF forms and merge PDF files into one document." });
    await writeSkill(skills, "git-helper", {
      name: "git-helper",
      description: "Resolve merge conflicts, undo commits and clean up branches safely.",
    });
    const stdin = ["Shrink my docker image please", "Fill in the PDF form"]
      .map((text) => `${JSON.stringify({ type: "user", content: text })}\n`)
      .join("");
    const run = await runAgentwire(["--input-format", "stream-json", ...STREAM, "--skill-listing-budget", "120"], { workspace, stdin });
    expectWellFormedRun(run, 2);
    expect(firstUserTexts(requestBody(workspace, 0))[0]).toBe(
      "<system-reminder>\nSkills you can load with the Skill tool:\n\n- docker-images: Build small Docker images and debug Dockerfiles and containers.\n\nMore skills (ask the Skill tool with `query` for their descriptions): git-helper, pdf-forms\n</system-reminder>",
    );
    const secondPrompt = requestBody(workspace, 1).messages.at(-1)!.content;
    expect(secondPrompt[0]!.text).toBe(
      "<system-reminder>\nSkills you can load with the Skill tool:\n\n- pdf-forms: Fill PDF forms and merge PDF files into one document.\n\nMore skills (ask the Skill tool with `query` for their descriptions): docker-images, git-helper\n</system-reminder>",
    );
  });

  it("--skill-ranking llm: the session's model re-orders the best matches in a separate request, whose usage is counted", async () => {
    workspace = await createWorkspace("text");
    const skills = join(workspace.home, ".agentwire", "skills");
    await writeSkill(skills, "deploy-staging", { name: "deploy-staging", description: "Deploy the app to the staging environment." });
    await writeSkill(skills, "deploy-production", { name: "deploy-production", description: "Deploy the app to production after checks." });
    await workspace.useScenario({
      turns: [
        { text: '["deploy-production", "deploy-staging"]', usage: { input_tokens: 100, output_tokens: 10 } },
        { text: "Deploying.", usage: { input_tokens: 1000, output_tokens: 5 } },
      ],
    });
    const run = await runAgentwire(["-p", "deploy the app", ...STREAM, "--skill-ranking", "llm", "--skill-listing-budget", "90"], {
      workspace,
    });
    expectWellFormedRun(run, 1);
    const ranking = requestBody(workspace, 0) as Body & { system: unknown };
    expect(ranking.tools ?? []).toEqual([]);
    expect(JSON.stringify(ranking.system)).toContain("JSON array of skill names");
    expect(firstUserTexts(ranking)[0]).toContain("Request:\ndeploy the app");
    expect(firstUserTexts(requestBody(workspace, 1))[0]).toBe(
      "<system-reminder>\nSkills you can load with the Skill tool:\n\n- deploy-production: Deploy the app to production after checks.\n\nMore skills (ask the Skill tool with `query` for their descriptions): deploy-staging\n</system-reminder>",
    );
    expect(results(run.events)[0]!.usage.input_tokens).toBe(1100);
  });
});

describe("default skills", () => {
  it("a first run installs the bundled skills and says so; a second run never overwrites or re-adds", async () => {
    workspace = await createWorkspace("multi-turn");
    const skills = join(workspace.home, ".agentwire", "skills");
    await rm(skills, { recursive: true });
    const bundled = readdirSync(join(ROOT, "skills")).sort();
    expect(bundled.length).toBeGreaterThanOrEqual(3);

    const first = await runAgentwire(["-p", "hi", ...STREAM], { workspace });
    expectWellFormedRun(first, 1);
    // Said on stdout, as a system line a host can read; stderr, which hosts show as an error, stays empty.
    expect(first.stderr).toBe("");
    const warnings = first.events.filter((event) => event.type === "system" && event.subtype === "warning");
    expect(warnings).toEqual([
      expect.objectContaining({
        code: "default_skills_installed",
        message: `Installed the default skills (${bundled.join(", ")}) into ${skills}; --no-default-skills skips this.`,
      }),
    ]);
    expect(readdirSync(skills).sort()).toEqual(bundled);
    expect(initOf(first.events).skills).toEqual(bundled);

    await writeFile(join(skills, bundled[0]!, "SKILL.md"), "---\nname: changed\ndescription: Edited by the user.\n---\n");
    await rm(join(skills, bundled[1]!), { recursive: true });
    const second = await runAgentwire(["-p", "hi", ...STREAM], { workspace });
    expect(second.stderr).toBe("");
    expect(readFileSync(join(skills, bundled[0]!, "SKILL.md"), "utf8")).toContain("Edited by the user.");
    expect(existsSync(join(skills, bundled[1]!))).toBe(false);
  });

  it("--no-default-skills skips the install", async () => {
    workspace = await createWorkspace("text");
    await rm(join(workspace.home, ".agentwire", "skills"), { recursive: true });
    const run = await runAgentwire(["-p", "hi", ...STREAM, "--no-default-skills"], { workspace });
    expectWellFormedRun(run, 1);
    expect(existsSync(join(workspace.home, ".agentwire", "skills"))).toBe(false);
    expect(initOf(run.events).skills).toEqual([]);
  });
});

describe("documentation and the compact tool profile", () => {
  it("--llms-txt documents every flag --help lists, every tool, the protocol and how to write a skill", async () => {
    workspace = await createWorkspace("text");
    const help = await runAgentwire(["--help"], { workspace });
    const doc = await runAgentwire(["--llms-txt"], { workspace });
    expect(doc.code).toBe(0);
    const flags = [...new Set(help.stdout.match(/--[a-z][a-z-]+/gi) ?? [])];
    expect(flags.length).toBeGreaterThan(30);
    expect(flags.filter((flag) => !doc.stdout.includes(flag))).toEqual([]);
    for (const tool of [
      "Bash",
      "Edit",
      "Glob",
      "Grep",
      "LS",
      "Monitor",
      "MultiEdit",
      "NotebookEdit",
      "Read",
      "Skill",
      "TaskStop",
      "TodoWrite",
      "ToolSearch",
      "WebFetch",
      "WebSearch",
      "Write",
    ])
      expect(doc.stdout).toContain(`### ${tool}\n`);
    expect(doc.stdout).toContain("## The stream-json protocol");
    expect(doc.stdout).toContain("`system/init`");
    expect(doc.stdout).toContain("### Writing a skill");
    expect(doc.stdout).toContain("name: release-notes");
  });

  it("--tool-profile compact offers Bash, Read, Skill and Write with short definitions, and still validates strictly", async () => {
    workspace = await createWorkspace("text");
    await writeSkill(join(workspace.home, ".agentwire", "skills"), "notes", { name: "notes", description: "Keep notes." });
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: "echo hi", description: "Say hi" } }] }, { text: "ok" }],
    });
    const compact = await runAgentwire(["-p", "x", ...STREAM, "--tool-profile", "compact"], { workspace });
    expectWellFormedRun(compact, 1);
    const tools = requestBody(workspace, 0).tools;
    expect(tools.map((tool) => tool.name)).toEqual(["Bash", "Read", "Skill", "Write"]);
    expect(Math.max(...tools.map((tool) => tool.description.length))).toBeLessThan(200);
    // A field the thin schema lacks is an input error the model can act on, not silently dropped.
    expect(toolResults(compact.events)[0]).toMatchObject({
      is_error: true,
      content: expect.stringMatching(/description: unexpected parameter/),
    });

    await workspace.useScenario({ turns: [{ text: "ok" }] });
    await runAgentwire(["-p", "x", ...STREAM], { workspace });
    const compactBytes = JSON.stringify(tools).length;
    const defaultBytes = JSON.stringify(requestBody(workspace, 0).tools).length;
    expect(compactBytes * 4).toBeLessThan(defaultBytes);
  });
});
