import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, expectWellFormedRun, runAgentwire, type Workspace } from "../helpers/agentwire.js";

const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

/** The system prompt of the n-th request, as one string (Anthropic sends text blocks). */
function systemOf(workspace: Workspace, index = 0): string {
  const system = (workspace.server.requests[index]!.body as { system: string | Array<{ text: string }> }).system;
  return typeof system === "string" ? system : system.map((block) => block.text).join("\n");
}

describe("project memory files", () => {
  it("AGENTS.md and CLAUDE.md from the repository root down to the cwd, after the user's, reach the model with their paths", async () => {
    workspace = await createWorkspace("multi-turn");
    const repo = join(workspace.cwd, "repo");
    const app = join(repo, "app");
    await mkdir(join(repo, ".git"), { recursive: true });
    await mkdir(app, { recursive: true });
    await writeFile(join(workspace.home, ".agentwire", "AGENTS.md"), "User rule: answer in English.\n");
    await writeFile(join(repo, "AGENTS.md"), "Repo rule: run npm test before committing.\n");
    await writeFile(join(app, "CLAUDE.md"), "App rule: components live in src/components.\n");
    // Above the repository root: not this project's.
    await writeFile(join(workspace.cwd, "AGENTS.md"), "Outside the repository.\n");

    const run = await runAgentwire(["-p", "hi", ...STREAM, "--cwd", app], { workspace });
    expectWellFormedRun(run, 1);
    const system = systemOf(workspace);
    const order = [join(workspace.home, ".agentwire", "AGENTS.md"), join(repo, "AGENTS.md"), join(app, "CLAUDE.md")].map((file) =>
      system.indexOf(`Contents of ${file}:`),
    );
    expect(order.every((position) => position > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(system).toContain("Repo rule: run npm test before committing.");
    expect(system).toContain("App rule: components live in src/components.");
    expect(system).not.toContain("Outside the repository.");

    const off = await runAgentwire(["-p", "hi", ...STREAM, "--cwd", app, "--no-memory-files"], { workspace });
    expectWellFormedRun(off, 1);
    expect(systemOf(workspace, 1)).not.toContain("Repo rule");
  });

  it("a replaced system prompt stays exactly as given; memory over the size cap is cut with one warning", async () => {
    workspace = await createWorkspace("multi-turn");
    await writeFile(join(workspace.cwd, "AGENTS.md"), `Start.\n${"x".repeat(40_000)}\nEnd of a very long file.\n`);
    const replaced = await runAgentwire(["-p", "hi", ...STREAM, "--system-prompt", "You are terse."], { workspace });
    expectWellFormedRun(replaced, 1);
    expect(systemOf(workspace)).not.toContain("Start.");

    const cut = await runAgentwire(["-p", "hi", ...STREAM], { workspace });
    expectWellFormedRun(cut, 1);
    const system = systemOf(workspace, 1);
    expect(system).toContain("Start.");
    expect(system).not.toContain("End of a very long file.");
    const warnings = cut.events.filter((event) => event.type === "system" && event.subtype === "warning");
    expect(warnings).toEqual([
      expect.objectContaining({
        code: "memory_file_cut",
        path: join(workspace.cwd, "AGENTS.md"),
        message: expect.stringMatching(/was cut to 32768 of its \d+ characters/),
      }),
    ]);
  });
});
