import { spawn } from "node:child_process";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  agentwireEnv,
  BIN,
  createWorkspace,
  expectWellFormedRun,
  ROOT,
  results,
  runAgentwire,
  toolOutcomes,
  type Workspace,
} from "../helpers/agentwire.js";

// Read and NotebookEdit on real notebooks (fixtures/notebooks/README.md names their sources),
// through the binary and the replay server, as a Claude Code host would drive them.
const STREAM = ["--output-format", "stream-json", "--verbose"];
const FIXTURES = join(ROOT, "fixtures", "notebooks");
let workspace: Workspace;

afterEach(async () => {
  await workspace?.cleanup();
});

const call = (name: string, input: Record<string, unknown>) => ({ tool_calls: [{ name, input }] });

/** The notebook as Jupyter would write it: what an edit's file must equal byte for byte. */
const jupyterText = (notebook: unknown) => `${JSON.stringify(notebook, null, 1)}\n`;

async function copyFixture(name: string, as = name): Promise<string> {
  const target = join(workspace.cwd, as);
  await copyFile(join(FIXTURES, name), target);
  return target;
}

/** `agentwire render` over a run's stdout, without colours. */
async function render(stdin: string): Promise<string> {
  const child = spawn(process.execPath, [BIN, "render"], {
    cwd: workspace.cwd,
    env: agentwireEnv(workspace),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stdin.end(stdin);
  await new Promise((resolve) => child.on("close", resolve));
  return stdout.replace(/\u001b\[[0-9;]*m/g, "");
}

describe("notebooks through the binary", () => {
  it("Read shows cells and outputs; NotebookEdit replaces, inserts and deletes cells, touching nothing else", async () => {
    workspace = await createWorkspace("text");
    const withIds = await copyFixture("test4.5.ipynb", "demo.ipynb");
    const withoutIds = await copyFixture("many_tracebacks.ipynb", "errors.ipynb");
    const original = await readFile(withIds, "utf8");
    await workspace.useScenario({
      turns: [
        call("Read", { file_path: "demo.ipynb", limit: 4 }),
        call("NotebookEdit", { notebook_path: withIds, cell_id: "38f37a24", new_source: "print('tide')\n" }),
        call("NotebookEdit", {
          notebook_path: withIds,
          cell_id: "bb687f78",
          new_source: "## Inserted",
          cell_type: "markdown",
          edit_mode: "insert",
        }),
        call("NotebookEdit", { notebook_path: withIds, cell_id: "0bc81532", new_source: "", edit_mode: "delete" }),
        call("Read", { file_path: "errors.ipynb" }),
        call("NotebookEdit", { notebook_path: "errors.ipynb", cell_id: "cell-0", new_source: "iAmNotDefined = 1" }),
        { text: "Done." },
      ],
    });
    const run = await runAgentwire(["-p", "Tidy the notebooks", ...STREAM, "--permission-mode", "acceptEdits"], { workspace });
    expectWellFormedRun(run, 1);
    expect((run.events[0] as { tools: string[] }).tools).toContain("NotebookEdit");
    const [read, replaced, inserted, deleted, readErrors, replacedNoIds] = toolOutcomes(run.events);

    expect(read!.isError).toBe(false);
    const readBlocks = JSON.parse(read!.content) as Array<{ type: string; text: string }>;
    expect(readBlocks).toHaveLength(1);
    expect(readBlocks[0]!.text).toMatch(
      /^<cell id="2fcdfa53"><cell_type>markdown<\/cell_type># nbconvert latex test<\/cell id="2fcdfa53">\n/,
    );
    expect(readBlocks[0]!.text).toContain('print("hello")</cell id="38f37a24">\n\nhello\n');
    expect(readBlocks[0]!.text).toMatch(/\(Showing cells 1-4 of 9\. Use offset=5 to continue reading\.\)$/);
    expect(read!.details).toMatchObject({ type: "notebook", file: { filePath: withIds, cells: expect.any(Array) } });

    expect(replaced).toMatchObject({ isError: false, content: "Updated cell 38f37a24 with print('tide')\n" });
    expect(replaced!.details).toMatchObject({
      new_source: "print('tide')\n",
      old_source: 'from __future__ import annotations\n\nprint("hello")',
      cell_id: "38f37a24",
      cell_type: "code",
      language: "python",
      edit_mode: "replace",
      error: "",
      notebook_path: withIds,
      original_file: original,
    });
    expect(inserted!.content).toMatch(/^Inserted cell [0-9a-f]{8} with ## Inserted$/);
    const newId = (inserted!.details as { cell_id: string }).cell_id;
    expect(deleted).toMatchObject({ isError: false, content: "Deleted cell 0bc81532" });
    expect(deleted!.details).toMatchObject({ old_source: expect.stringMatching(/^\*\*Lorem ipsum\*\* dolor/), edit_mode: "delete" });
    expect(inserted!.details).not.toHaveProperty("old_source");

    // The file is exactly what Jupyter would write after the same three edits.
    const expected = JSON.parse(original);
    Object.assign(expected.cells[3], { source: ["print('tide')\n"], outputs: [], execution_count: null });
    expected.cells.splice(3, 0, { cell_type: "markdown", id: newId, metadata: {}, source: ["## Inserted"] });
    expected.cells.splice(1, 1);
    expect(await readFile(withIds, "utf8")).toBe(jupyterText(expected));
    expect((deleted!.details as { updated_file: string }).updated_file).toBe(jupyterText(expected));

    expect(readErrors!.content).toContain("NameError: name 'iAmNotDefined' is not defined");
    expect(readErrors!.content).not.toContain("\\u001b");
    expect(replacedNoIds).toMatchObject({ isError: false, content: "Updated cell cell-0 with iAmNotDefined = 1" });
    const errors = JSON.parse(await readFile(withoutIds, "utf8"));
    expect(errors.cells[0]).toEqual({ cell_type: "code", execution_count: null, metadata: {}, outputs: [], source: ["iAmNotDefined = 1"] });

    // The terminal renderer (as chat and the web page, through src/render/present/) shows each edit as a cell diff.
    const rendered = await render(run.stdout);
    expect(rendered).toContain("read 4 cells");
    expect(rendered).toContain("updated cell 38f37a24 in demo.ipynb");
    expect(rendered).toMatch(/-print\("hello"\)\n.*\+print\('tide'\)/s);
    expect(rendered).toContain(`inserted cell ${newId} in demo.ipynb`);
    expect(rendered).toMatch(/deleted cell 0bc81532 in demo\.ipynb[\s\S]*-\*\*Lorem ipsum\*\*/);
  });

  it("Read sends a notebook's image output to the model as an image block", async () => {
    workspace = await createWorkspace("text");
    await copyFixture("test4.5.ipynb", "demo.ipynb");
    await workspace.useScenario({ turns: [call("Read", { file_path: "demo.ipynb", offset: 8 }), { text: "A logo." }] });
    const run = await runAgentwire(["-p", "What does the last cell show?", ...STREAM, "--dangerously-skip-permissions"], { workspace });
    expectWellFormedRun(run, 1);
    const blocks = JSON.parse(toolOutcomes(run.events)[0]!.content) as Array<{ type: string; text?: string; source?: unknown }>;
    expect(blocks.map((block) => block.type)).toEqual(["text", "image"]);
    expect(blocks[0]!.text).toMatch(
      /^<cell id="34334c4f"><cell_type>markdown<\/cell_type>### Image<\/cell id="34334c4f">\n<cell id="8b414a68">/,
    );
    expect(blocks[1]).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png" } });
    // The model request that follows carries the image too.
    expect(JSON.stringify(workspace.server.requests.at(-1))).toContain('"media_type":"image/png"');
  });

  it("a broken notebook is refused and left untouched; a missing cell names the cells there are", async () => {
    workspace = await createWorkspace("text");
    const broken = join(workspace.cwd, "broken.ipynb");
    const brokenText = '{"cells": [{"cell_type": "code", "source": "x"';
    await writeFile(broken, brokenText);
    const good = await copyFixture("simple.ipynb");
    await workspace.useScenario({
      turns: [
        call("NotebookEdit", { notebook_path: broken, cell_id: "cell-0", new_source: "y" }),
        call("NotebookEdit", { notebook_path: good, cell_id: "nope", new_source: "y" }),
        call("NotebookEdit", { notebook_path: join(workspace.cwd, "notes.md"), cell_id: "a", new_source: "y" }),
        call("Read", { file_path: broken }),
        call("NotebookEdit", { notebook_path: good, cell_id: "cell-0", new_source: "key = '[REDACTED:anthropic_api_key]'" }),
        { text: "Done." },
      ],
    });
    const run = await runAgentwire(["-p", "Fix it", ...STREAM, "--permission-mode", "acceptEdits"], { workspace });
    expectWellFormedRun(run, 1);
    const [invalid, missing, notNotebook, readBroken, placeholder] = toolOutcomes(run.events);
    expect(invalid).toMatchObject({ isError: true, code: "invalid_notebook" });
    expect(invalid!.content).toMatch(/not a notebook NotebookEdit can change: it is not valid JSON/);
    expect(await readFile(broken, "utf8")).toBe(brokenText);
    expect(missing).toMatchObject({ isError: true, code: "invalid_input" });
    expect(missing!.content).toContain('No cell "nope" in the notebook. Its cells are: cell-0.');
    expect(notNotebook).toMatchObject({ isError: true, code: "invalid_input" });
    // Read shows a file that is not a notebook as the text it is.
    expect(readBroken).toMatchObject({ isError: false, content: `1\t${brokenText}` });
    // A redaction placeholder is never written over what it stands for.
    expect(placeholder).toMatchObject({ isError: true, code: "redacted_secret" });
    expect(await readFile(good, "utf8")).toBe(await readFile(join(FIXTURES, "simple.ipynb"), "utf8"));
  });

  it("asks like Write and Edit: denied without approval in default mode, and a protected folder asks even in acceptEdits", async () => {
    workspace = await createWorkspace("text");
    const notebook = await copyFixture("simple.ipynb");
    await mkdir(join(workspace.cwd, ".git"));
    const protectedNotebook = await copyFixture("simple.ipynb", ".git/simple.ipynb");
    const before = await readFile(notebook, "utf8");
    await workspace.useScenario({
      turns: [call("NotebookEdit", { notebook_path: notebook, cell_id: "cell-0", new_source: "# Changed" }), { text: "ok" }],
    });
    const denied = await runAgentwire(["-p", "Change it", ...STREAM], { workspace });
    expectWellFormedRun(denied, 1);
    expect(toolOutcomes(denied.events)[0]).toMatchObject({ isError: true, code: "permission_denied" });
    expect(results(denied.events)[0]!.permission_denials).toEqual([
      {
        tool_name: "NotebookEdit",
        tool_use_id: expect.any(String),
        tool_input: { notebook_path: notebook, cell_id: "cell-0", new_source: "# Changed" },
      },
    ]);
    expect(await readFile(notebook, "utf8")).toBe(before);

    await workspace.useScenario({
      turns: [call("NotebookEdit", { notebook_path: protectedNotebook, cell_id: "cell-0", new_source: "# Changed" }), { text: "ok" }],
    });
    const guarded = await runAgentwire(["-p", "Change it", ...STREAM, "--permission-mode", "acceptEdits"], { workspace });
    expectWellFormedRun(guarded, 1);
    expect(toolOutcomes(guarded.events)[0]).toMatchObject({ isError: true, code: "permission_denied" });
    expect(await readFile(protectedNotebook, "utf8")).toBe(before);
  });
});
