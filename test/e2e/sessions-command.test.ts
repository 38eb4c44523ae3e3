import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  agentwireEnv,
  BIN,
  createWorkspace,
  expectWellFormedRun,
  results,
  runAgentwire,
  spawnAgentwire,
  waitForEvent,
  waitForExit,
  type Workspace,
} from "../helpers/agentwire.js";
import { isDeferredListing } from "../helpers/deferred-listing.js";

const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

/** `agentwire sessions …` in the workspace: exit code, stdout, stderr. */
async function sessions(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, "sessions", ...args], {
    cwd: workspace!.cwd,
    env: agentwireEnv(workspace!),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr };
}

type Body = { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> };
const textsOf = (body: unknown): string[] =>
  (body as Body).messages.flatMap((message) =>
    message.content.flatMap((block) => (block.type === "text" && !isDeferredListing(block.text!) ? [block.text!] : [])),
  );

async function startSession(prompt: string, answer: string): Promise<{ sessionId: string; file: string }> {
  await workspace!.useScenario({ turns: [{ text: answer }] });
  const run = await runAgentwire(["-p", prompt, ...STREAM], { workspace: workspace! });
  expectWellFormedRun(run, 1);
  const sessionId = results(run.events)[0]!.session_id;
  const projects = join(workspace!.home, ".agentwire", "projects");
  const project = readdirSync(projects)[0]!;
  return { sessionId, file: join(projects, project, `${sessionId}.jsonl`) };
}

describe("agentwire sessions", () => {
  it("list shows this directory's sessions, newest first, as a table or JSON", async () => {
    workspace = await createWorkspace("text");
    const first = await startSession("Plan the database migration", "Planned.");
    const second = await startSession("Write the release notes", "Written.");
    const table = await sessions(["list"]);
    expect(table.code).toBe(0);
    const rows = table.stdout.trim().split("\n");
    expect(rows[0]).toMatch(/^ID\s+UPDATED\s+SIZE\s+TURNS\s+COST\s+FIRST PROMPT$/);
    expect(rows[1]).toContain(second.sessionId);
    expect(rows[1]).toContain("Write the release notes");
    expect(rows[2]).toContain(first.sessionId);
    const json = JSON.parse((await sessions(["list", "--output-format", "json"])).stdout) as Array<Record<string, unknown>>;
    expect(json.map((entry) => entry.session_id)).toEqual([second.sessionId, first.sessionId]);
    expect(json[0]).toMatchObject({ cwd: workspace.cwd, title: "Write the release notes", turns: 1, file: second.file });
    expect(json[0]!.total_cost_usd).toBeGreaterThan(0);
    // Another directory has none of its own; --all finds them.
    const elsewhere = await sessions(["list", "--cwd", workspace.home]);
    expect(elsewhere.stdout).toContain("No sessions in");
    expect((await sessions(["list", "--all", "--cwd", workspace.home])).stdout).toContain(first.sessionId);
  });

  it("show prints the conversation; export gives the file as stored or as one JSON document", async () => {
    workspace = await createWorkspace("text");
    const { sessionId, file } = await startSession("What is 2 + 2?", "Four.");
    const shown = await sessions(["show", sessionId]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`● session ${sessionId} · ${workspace.cwd}`);
    expect(shown.stdout).toContain("> What is 2 + 2?\nFour.\n");
    expect(shown.stdout).toMatch(/── end of turn · session cost \$\d/);

    const jsonl = await sessions(["export", sessionId]);
    expect(jsonl.stdout).toBe(readFileSync(file, "utf8"));
    const document = JSON.parse((await sessions(["export", sessionId, "--format", "json"])).stdout) as {
      session: { session_id: string };
      entries: Array<{ type: string }>;
    };
    expect(document.session.session_id).toBe(sessionId);
    expect(document.entries.map((entry) => entry.type)).toEqual(["message", "message", "turn_end"]);
    const written = await sessions(["export", sessionId, "--format", "json", "-o", "out.json"]);
    expect(written.code).toBe(0);
    expect(JSON.parse(readFileSync(join(workspace.cwd, "out.json"), "utf8"))).toEqual(document);
  });

  it("import adds an export under a new id that --resume continues; a broken file is refused whole", async () => {
    workspace = await createWorkspace("text");
    const { sessionId } = await startSession("Remember the word kumquat.", "Remembered.");
    writeFileSync(join(workspace.cwd, "export.json"), (await sessions(["export", sessionId, "--format", "json"])).stdout);
    const imported = await sessions(["import", "export.json"]);
    expect(imported.code).toBe(0);
    const newId = imported.stdout.trim();
    expect(newId).not.toBe(sessionId);
    expect(imported.stderr).toContain(`agentwire --resume ${newId}`);

    await workspace.useScenario({ turns: [{ text: "kumquat" }] });
    const resumed = await runAgentwire(["-p", "Which word?", ...STREAM, "--resume", newId], { workspace });
    expectWellFormedRun(resumed, 1);
    expect(results(resumed.events)[0]!.session_id).toBe(newId);
    expect(textsOf(workspace.server.requests[0]!.body)).toEqual(["Remember the word kumquat.", "Remembered.", "Which word?"]);

    // --keep-id refuses an id that exists; the jsonl export imports as well.
    writeFileSync(join(workspace.cwd, "export.jsonl"), (await sessions(["export", sessionId])).stdout);
    const clash = await sessions(["import", "export.jsonl", "--keep-id"]);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain("already exists");

    const lines = readFileSync(join(workspace.cwd, "export.jsonl"), "utf8").split("\n");
    lines[1] = '{"type":"message","message":{"role":"robot"}}';
    lines.splice(2, 0, "not json");
    writeFileSync(join(workspace.cwd, "broken.jsonl"), lines.join("\n"));
    const before = (await sessions(["list", "--output-format", "json"])).stdout;
    const broken = await sessions(["import", "broken.jsonl"]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("Not imported: the file is not a valid session (2 problems)");
    expect(broken.stderr).toContain("line 2: message.role");
    expect(broken.stderr).toContain("line 3: not JSON");
    expect((await sessions(["list", "--output-format", "json"])).stdout).toBe(before);
  });

  it("delete removes a session; unknown ids and commands fail clearly", async () => {
    workspace = await createWorkspace("text");
    const { sessionId, file } = await startSession("Temporary", "Yes.");
    expect((await sessions(["delete", sessionId])).code).toBe(0);
    expect(existsSync(file)).toBe(false);
    const unknown = await sessions(["show", sessionId]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`No session ${sessionId}`);
    const bogus = await sessions(["rename", sessionId]);
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toContain("Unknown sessions command: rename");
  });
});

describe("--fork-session", () => {
  it("continues a copy under a new id and leaves the original file as it was", async () => {
    workspace = await createWorkspace("text");
    const { sessionId, file } = await startSession("Start here.", "Started.");
    const original = readFileSync(file, "utf8");
    await workspace.useScenario({ turns: [{ text: "Forked." }] });
    const forked = await runAgentwire(["-p", "Go on.", ...STREAM, "--resume", sessionId, "--fork-session"], { workspace });
    expectWellFormedRun(forked, 1);
    const forkId = results(forked.events)[0]!.session_id;
    expect(forkId).not.toBe(sessionId);
    expect(textsOf(workspace.server.requests[0]!.body)).toEqual(["Start here.", "Started.", "Go on."]);
    expect(readFileSync(file, "utf8")).toBe(original);
    const listed = JSON.parse((await sessions(["list", "--output-format", "json"])).stdout) as Array<{
      session_id: string;
      forked_from?: string;
      total_cost_usd: number;
    }>;
    const fork = listed.find((entry) => entry.session_id === forkId)!;
    expect(fork.forked_from).toBe(sessionId);
    // The copy carries the original's cost, and its own run adds to it.
    expect(fork.total_cost_usd).toBeGreaterThan(listed.find((entry) => entry.session_id === sessionId)!.total_cost_usd);
    // The fork resumes on its own, with the copied history.
    await workspace.useScenario({ turns: [{ text: "Again." }] });
    const again = await runAgentwire(["-p", "And?", ...STREAM, "--resume", forkId], { workspace });
    expectWellFormedRun(again, 1);
    expect(textsOf(workspace.server.requests[0]!.body)).toEqual(["Start here.", "Started.", "Go on.", "Forked.", "And?"]);
  });

  it("needs --resume or --continue", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "x", "--fork-session"], { workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("--fork-session needs --resume or --continue");
  });
});

describe("one writer per session", () => {
  it("a session another process is running cannot be resumed or deleted; a fork can; once it exits, it can", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "First answer." }, { text: "Fork answer." }, { text: "Later answer." }] });
    const running = spawnAgentwire(["--input-format", "stream-json", ...STREAM], { workspace });
    running.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: "Hello" } })}\n`);
    const result = await waitForEvent(running, (event) => event.type === "result");
    const sessionId = (result as { session_id: string }).session_id;

    const second = await runAgentwire(["-p", "Me too", ...STREAM, "--resume", sessionId], { workspace });
    expect(second.code).toBe(1);
    expect(results(second.events)[0]).toMatchObject({ is_error: true, terminal_reason: "invalid_arguments" });
    expect(second.stderr).toContain(`Session ${sessionId} is in use by another agentwire process (pid ${running.pid})`);
    expect((await sessions(["delete", sessionId])).stderr).toContain(`is in use by process ${running.pid}`);
    const fork = await runAgentwire(["-p", "A copy", ...STREAM, "--resume", sessionId, "--fork-session"], { workspace });
    expectWellFormedRun(fork, 1);

    running.stdin.end();
    await waitForExit(running);
    const later = await runAgentwire(["-p", "Now?", ...STREAM, "--resume", sessionId], { workspace });
    expectWellFormedRun(later, 1);
    expect(results(later.events)[0]!.is_error).toBe(false);
  });

  it("the lock of a killed process is taken over", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "First." }, { text: "After the kill." }] });
    const running = spawnAgentwire(["--input-format", "stream-json", ...STREAM], { workspace });
    running.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: "Hello" } })}\n`);
    const result = await waitForEvent(running, (event) => event.type === "result");
    running.kill("SIGKILL");
    await new Promise((resolve) => running.on("close", resolve));
    const resumed = await runAgentwire(["-p", "Still there?", ...STREAM, "--resume", (result as { session_id: string }).session_id], {
      workspace,
    });
    expectWellFormedRun(resumed, 1);
    expect(results(resumed.events)[0]!.is_error).toBe(false);
  });
});
