import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, expectWellFormedRun, results, runAgentwire, type Workspace } from "../helpers/agentwire.js";
import { isDeferredListing } from "../helpers/deferred-listing.js";

const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

type Body = { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> };
const userTexts = (body: unknown): string[] =>
  (body as Body).messages
    .filter((message) => message.role === "user")
    .flatMap((message) =>
      message.content.flatMap((block) => (block.type === "text" && !isDeferredListing(block.text!) ? [block.text!] : [])),
    );

function sessionFileOf(workspace: Workspace): string {
  const projects = join(workspace.home, ".agentwire", "projects");
  const [project] = readdirSync(projects);
  const [file] = readdirSync(join(projects, project!));
  return join(projects, project!, file!);
}

describe("the session file", () => {
  it("crash mid-write, then resume, then resume: the message after the cut line is kept", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "One." }, { text: "Two." }, { text: "Three." }] });
    const first = await runAgentwire(["-p", "First?", ...STREAM], { workspace });
    const sessionId = results(first.events)[0]!.session_id;
    const file = sessionFileOf(workspace);
    // What a crash in the middle of an append leaves: half a line, no newline.
    appendFileSync(file, '{"type":"message","message":{"role":"user","cont');

    const second = await runAgentwire(["-p", "Second?", ...STREAM, "--resume", sessionId], { workspace });
    expectWellFormedRun(second, 1);
    const third = await runAgentwire(["-p", "Third?", ...STREAM, "--resume", sessionId], { workspace });
    expectWellFormedRun(third, 1);
    expect(userTexts(workspace.server.requests[2]!.body)).toEqual(["First?", "Second?", "Third?"]);
    // The fragment stays on a line of its own; every other line is whole JSON.
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(
      lines.filter((line) => {
        try {
          JSON.parse(line);
          return false;
        } catch {
          return true;
        }
      }),
    ).toEqual(['{"type":"message","message":{"role":"user","cont']);
  });

  it("AGENTWIRE_HOME is a file: one session_not_persisted warning, the turns go on, results say not saved", async () => {
    workspace = await createWorkspace("multi-turn");
    const home = join(workspace.home, "not-a-directory");
    writeFileSync(home, "");
    const stdin = `${["First?", "Second?"].map((text) => JSON.stringify({ type: "user", message: { role: "user", content: text } })).join("\n")}\n`;
    const run = await runAgentwire(["--input-format", "stream-json", ...STREAM], { workspace, stdin, env: { AGENTWIRE_HOME: home } });
    expectWellFormedRun(run, 2);
    const warnings = run.events.filter((event) => event.type === "system" && event.subtype === "warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: "session_not_persisted" });
    expect((warnings[0] as { message: string }).message).toMatch(
      /not being saved and cannot be resumed: could not write .*not-a-directory.*ENOTDIR/,
    );
    expect(results(run.events).map((result) => [result.is_error, result.session_persisted])).toEqual([
      [false, false],
      [false, false],
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  it("in text mode the warning is one readable stderr line and the answer is still printed", async () => {
    workspace = await createWorkspace("text");
    const home = join(workspace.home, "not-a-directory");
    writeFileSync(home, "");
    const run = await runAgentwire(["-p", "hi"], { workspace, env: { AGENTWIRE_HOME: home } });
    expect(run.code).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(1);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^agentwire: warning: The session is not being saved/);
  });

  it("a persisted session's result carries no session_persisted field", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "hi", ...STREAM], { workspace });
    expect(results(run.events)[0]).not.toHaveProperty("session_persisted");
  });
});
