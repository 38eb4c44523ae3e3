import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentwireEnv, BIN, createWorkspace, expectWellFormedRun, results, runAgentwire, type Workspace } from "../helpers/agentwire.js";
import { startWeb, stopWeb, type Web } from "../helpers/web.js";
import { LISTING_HEADER } from "../../src/skills/listing.js";

/**
 * What people see of stored sessions: titles and transcripts show the user's own words (the
 * skills listing the model got is not one of them), a resumed session does not repeat the
 * listing, and a bad entry in the sessions folder breaks nothing that lists or continues.
 * Each through the CLI, the piped chat and the web API.
 */
const STREAM = ["--output-format", "stream-json", "--verbose"];
const LISTING_START = `<system-reminder>\n${LISTING_HEADER}`;
let workspace: Workspace | undefined;
let web: Web | undefined;

afterEach(async () => {
  if (web) await stopWeb(web.child);
  web = undefined;
  await workspace?.cleanup();
  workspace = undefined;
});

async function withSkill(): Promise<Workspace> {
  const created = await createWorkspace("text");
  await created.useScenario({ turns: [{ text: "First." }, { text: "Second." }, { text: "Third." }] });
  const folder = join(created.home, ".agentwire", "skills", "csv-cleaning");
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, "SKILL.md"),
    "---\nname: csv-cleaning\ndescription: Clean CSV files and fix their encodings.\n---\n\nSteps.\n",
  );
  return created;
}

function sessionsFolder(workspace: Workspace): string {
  const projects = join(workspace.home, ".agentwire", "projects");
  return join(projects, readdirSync(projects)[0]!);
}

type Body = { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> | string }> };
const listingsIn = (body: Body): number =>
  body.messages
    .flatMap((message) => (typeof message.content === "string" ? [message.content] : message.content.map((block) => block.text ?? "")))
    .filter((text) => text.startsWith(LISTING_START)).length;

async function pipedChat(workspace: Workspace, input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, "chat"], {
    cwd: workspace.cwd,
    env: agentwireEnv(workspace),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(input);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr };
}

describe("stored sessions show the user's words", () => {
  it("the title, transcript and reopened history leave the listing out; the model still got it, once per session, resumes included", async () => {
    workspace = await withSkill();
    const first = await runAgentwire(["-p", "tidy the quarterly report", ...STREAM], { workspace });
    expectWellFormedRun(first, 1);
    const sessionId = results(first.events)[0]!.session_id;
    await runAgentwire(["-p", "now the summary", "--resume", sessionId, ...STREAM], { workspace });
    const third = await runAgentwire(["-p", "and the totals", "--continue", ...STREAM], { workspace });
    expect(results(third.events)[0]).toMatchObject({ is_error: false, session_id: sessionId });

    // The model: the listing before the first prompt, and never again while it is unchanged.
    const requests = workspace.server.requests.map((request) => request.body as Body);
    expect(requests).toHaveLength(3);
    expect(requests.map(listingsIn)).toEqual([1, 1, 1]);
    const lastMessages = requests[2]!.messages;
    expect(lastMessages.filter((message) => message.role === "user")).toHaveLength(3);

    // sessions list: the title is the user's first prompt.
    const listed = await runAgentwire(["sessions", "list", "--output-format", "json"], { workspace });
    const rows = JSON.parse(listed.stdout) as Array<{ sessionId?: string; session_id?: string; title: string }>;
    expect(rows.map((row) => row.title)).toEqual(["tidy the quarterly report"]);
    const shown = await runAgentwire(["sessions", "show", sessionId], { workspace });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("tidy the quarterly report");
    expect(shown.stdout).toContain("and the totals");
    expect(shown.stdout).not.toContain(LISTING_HEADER);

    // The piped chat's /sessions.
    const chat = await pipedChat(workspace, "/sessions\n");
    expect(chat.code).toBe(0);
    expect(chat.stdout).toContain("tidy the quarterly report");
    expect(chat.stdout).not.toContain("system-reminder");

    // The web: sidebar title, search by a word of the prompt, the reopened history.
    web = await startWeb(workspace);
    const sidebar = (await web.call("GET", "/api/sessions")).body as Array<{ id: string; firstPrompt: string }>;
    expect(sidebar.map((row) => row.firstPrompt)).toEqual(["tidy the quarterly report"]);
    expect(((await web.call("GET", "/api/sessions?q=quarterly")).body as unknown[]).length).toBe(1);
    const history = (await web.call("GET", `/api/sessions/${sessionId}/history`)).body as unknown;
    const historyText = JSON.stringify(history);
    expect(historyText).toContain("tidy the quarterly report");
    expect(historyText).not.toContain(LISTING_HEADER);
  });
});

describe("a reopened session shows what was shown live", () => {
  it("the web's history carries each tool call's structured result (a Write's diff, a command's exit code), as the live events did", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        {
          tool_calls: [
            { name: "Write", input: { file_path: "notes.md", content: "one\ntwo\n" } },
            { name: "Bash", input: { command: "echo out; echo err >&2; exit 3" } },
          ],
        },
        { text: "Done." },
      ],
    });
    const live = await runAgentwire(["-p", "write notes", ...STREAM, "--permission-mode", "bypassPermissions"], { workspace });
    expectWellFormedRun(live, 1);
    const sessionId = results(live.events)[0]!.session_id;
    const liveResults = live.events.flatMap((event) =>
      event.type === "user" && "tool_use_result" in event ? [event.tool_use_result as Record<string, unknown>] : [],
    );
    expect(liveResults).toHaveLength(2);

    web = await startWeb(workspace);
    const history = (await web.call("GET", `/api/sessions/${sessionId}/history`)).body as Array<Record<string, unknown>>;
    const stored = history.flatMap((event) =>
      event.tool_use_result === undefined ? [] : [event.tool_use_result as Record<string, unknown>],
    );
    // The same structured results, less the whole-file copy only the live event needs.
    const withoutOriginal = ({ originalFile: _unused, ...rest }: Record<string, unknown>) => rest;
    expect(stored).toEqual(liveResults.map(withoutOriginal));
    expect(stored[0]).toMatchObject({ type: "create", content: "one\ntwo\n" });
    expect(stored[1]).toMatchObject({ stdout: expect.stringContaining("out"), stderr: expect.stringContaining("err") });
  });
});

describe("a bad entry in the sessions folder", () => {
  async function withBadEntries(): Promise<{ workspace: Workspace; sessionId: string }> {
    const created = await createWorkspace("text");
    await created.useScenario({ turns: [{ text: "First." }, { text: "Second." }] });
    const first = await runAgentwire(["-p", "the one good session", ...STREAM], { workspace: created });
    const sessionId = results(first.events)[0]!.session_id;
    const folder = sessionsFolder(created);
    // Newer than the good session: --continue must not pick them.
    await symlink(join(created.root, "gone.jsonl"), join(folder, "dangling.jsonl"));
    await mkdir(join(folder, "a-folder.jsonl"));
    return { workspace: created, sessionId };
  }

  it("sessions list, --continue, the piped chat and the web list the good session and ignore the rest", async () => {
    const setup = await withBadEntries();
    workspace = setup.workspace;
    const listed = await runAgentwire(["sessions", "list", "--output-format", "json"], { workspace });
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<{ title: string }>).map((row) => row.title)).toEqual(["the one good session"]);

    const continued = await runAgentwire(["-p", "go on", "--continue", ...STREAM], { workspace });
    expectWellFormedRun(continued, 1);
    expect(results(continued.events)[0]).toMatchObject({ is_error: false, session_id: setup.sessionId });

    const chat = await pipedChat(workspace, "/sessions\n");
    expect(chat.code).toBe(0);
    expect(chat.stdout).toContain("the one good session");

    web = await startWeb(workspace);
    const sidebar = await web.call("GET", "/api/sessions");
    expect(sidebar.status).toBe(200);
    expect((sidebar.body as Array<{ firstPrompt: string }>).map((row) => row.firstPrompt)).toEqual(["the one good session"]);
  });

  it("--resume of a folder or a dangling link named like a session ends with a result, not a stack trace", async () => {
    const setup = await withBadEntries();
    workspace = setup.workspace;
    for (const id of ["dangling", "a-folder"]) {
      const run = await runAgentwire(["-p", "go on", "--resume", id, ...STREAM], { workspace });
      expect(run.code).toBe(1);
      expect(run.stderr).not.toContain("    at ");
      expect(results(run.events)).toHaveLength(1);
      expect(results(run.events)[0]).toMatchObject({
        is_error: true,
        terminal_reason: id === "dangling" ? "session_not_found" : "session_unreadable",
      });
    }
  });
});

describe("a session whose header line is damaged", () => {
  it("is not resumed or appended to: a clear session_unreadable result, the file unchanged", async () => {
    workspace = await createWorkspace("text");
    const first = await runAgentwire(["-p", "remember this", ...STREAM], { workspace });
    const sessionId = results(first.events)[0]!.session_id;
    const file = join(sessionsFolder(workspace), `${sessionId}.jsonl`);
    const damaged = `{"type":"header","sess${readFileSync(file, "utf8").slice(30)}`;
    await writeFile(file, damaged);

    for (const how of [["--resume", sessionId], ["--continue"]]) {
      const run = await runAgentwire(["-p", "go on", ...how, ...STREAM], { workspace });
      expect(run.code).toBe(1);
      const result = results(run.events)[0]!;
      expect(result).toMatchObject({ is_error: true, terminal_reason: "session_unreadable" });
      expect(JSON.stringify(result)).toContain("first line is not a session header");
      expect(readFileSync(file, "utf8")).toBe(damaged);
    }
    expect(workspace.server.requests).toHaveLength(1);
    // What is left of it still reads as a conversation.
    const shown = await runAgentwire(["sessions", "show", sessionId], { workspace });
    expect(shown.stdout).toContain("remember this");
    expect(shown.stdout).toContain("Hello! I am the mock model.");
  });
});
