import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent } from "../../protocol/events.js";
import {
  createWorkspace,
  expectWellFormedRun,
  PROVIDERS_UNDER_TEST,
  results,
  runAgentwire,
  type ProviderUnderTest,
  type Workspace,
} from "../helpers/agentwire.js";

/**
 * Hosts such as Yume show every byte of the CLI's stderr to their user as an error, and Claude
 * Code writes none in these runs: in stream-json and json modes neither does agentwire. What it
 * has to say goes into `system/warning` lines (stream-json) or the log (`--debug`).
 */
const FORMATS = {
  "stream-json": ["--output-format", "stream-json", "--verbose"],
  json: ["--output-format", "json"],
} as const;

let workspace: Workspace;
afterEach(async () => {
  await workspace?.cleanup();
});

async function findSessionFiles(projects: string, name: string): Promise<string[]> {
  const entries = await readdir(projects, { recursive: true });
  return entries.filter((entry) => entry.endsWith(name)).map((entry) => join(projects, entry));
}

const warningCodes = (events: OutputEvent[]) =>
  events.flatMap((event) => (event.type === "system" && event.subtype === "warning" ? [event.code] : []));

describe("nothing on stderr in a normal run", () => {
  it.each(Object.keys(PROVIDERS_UNDER_TEST) as ProviderUnderTest[])(
    "%s: a first run (the default skills installed) and the next, in stream-json and json",
    async (provider) => {
      workspace = await createWorkspace("text");
      for (const [format, flags] of Object.entries(FORMATS)) {
        await rm(join(workspace.home, ".agentwire"), { recursive: true, force: true });
        const first = await runAgentwire(["-p", "hi", ...flags], { workspace, provider });
        expect(first.stderr, `${format}, first run`).toBe("");
        expectWellFormedRun(first, 1);
        if (format === "stream-json") expect(warningCodes(first.events)).toEqual(["default_skills_installed"]);
        const next = await runAgentwire(["-p", "hi", ...flags], { workspace, provider });
        expect(next.stderr, `${format}, next run`).toBe("");
        expectWellFormedRun(next, 1);
      }
    },
  );

  it("with claude-sonnet-4-5-20250929, which the Anthropic SDK would warn about on every request", async () => {
    workspace = await createWorkspace("multi-turn");
    for (const flags of Object.values(FORMATS)) {
      const run = await runAgentwire(["-p", "hi", ...flags, "--model", "claude-sonnet-4-5-20250929"], { workspace });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
    }
    expect(workspace.server.requests.map((request) => (request.body as { model: string }).model)).toEqual([
      "claude-sonnet-4-5-20250929",
      "claude-sonnet-4-5-20250929",
    ]);
  });

  it("resuming a session whose process was killed mid-tool (Yume's interrupt ends with SIGKILL when it must): repaired without a word", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: "echo hi" } }] }, { text: "done" }, { text: "resumed" }],
    });
    const first = await runAgentwire(["-p", "go", ...FORMATS["stream-json"], "--dangerously-skip-permissions"], { workspace });
    expectWellFormedRun(first, 1);
    // What a kill during the tool call leaves: the call, without its result and the rest.
    const sessionId = results(first.events)[0]!.session_id;
    const [file] = await findSessionFiles(join(workspace.home, ".agentwire", "projects"), `${sessionId}.jsonl`);
    const lines = (await readFile(file!, "utf8")).split("\n");
    const call = lines.findIndex((line) => line.includes('"tool_use"'));
    await writeFile(file!, `${lines.slice(0, call + 1).join("\n")}\n`);

    const resumed = await runAgentwire(["-p", "go on", ...FORMATS["stream-json"], "--resume", sessionId], { workspace });
    expect(resumed.stderr).toBe("");
    expectWellFormedRun(resumed, 1);
    expect(results(resumed.events)[0]!.result).toBe("resumed");
  });

  it("--debug: the notices are in the log", async () => {
    workspace = await createWorkspace("text");
    await rm(join(workspace.home, ".agentwire", "skills"), { recursive: true });
    const run = await runAgentwire(["-p", "hi", ...FORMATS.json, "--effort", "high", "--debug"], { workspace });
    expect(run.code).toBe(0);
    const logged = run.stderr
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { code?: string; msg?: string });
    expect(logged.find((record) => record.code === "default_skills_installed")?.msg).toMatch(
      /^Installed the default skills \(.+\) into .+; --no-default-skills skips this\.$/,
    );
    expect(logged.find((record) => record.code === "flags_ignored")?.msg).toBe(
      "--effort is accepted for Claude Code compatibility but has no effect yet.",
    );
  });
});
