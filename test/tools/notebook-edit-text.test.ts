import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { editNotebookText, type NotebookEditRequest } from "../../src/tools/notebook/edit-notebook-text.js";
import { ROOT } from "../helpers/agentwire.js";

// Real notebooks (fixtures/notebooks/README.md names their sources). Jupyter writes them as
// JSON.stringify(notebook, null, 1) + "\n" would (checked below), so an edit is right when its
// text is exactly what Jupyter would write for the edited notebook: nothing else moved.
const fixture = (name: string) => readFileSync(join(ROOT, "fixtures", "notebooks", name), "utf8");
const WITH_IDS = fixture("test4.5.ipynb"); // nbformat 4.5: ids, stream, execute_result, display_data, a PNG
const NO_IDS = fixture("test4jupyter_metadata_timings.ipynb"); // nbformat 4.4: no ids, execution timings
const TRACEBACK = fixture("many_tracebacks.ipynb"); // one code cell with an error output
const SIMPLE = fixture("simple.ipynb"); // nbformat 4.2, one markdown cell

const jupyterText = (notebook: unknown, indent: string | number = 1) => `${JSON.stringify(notebook, null, indent)}\n`;
const ids = () => {
  let next = 0;
  return () => `new${++next}`;
};

function edit(text: string, request: NotebookEditRequest, newCellId = ids()) {
  const outcome = editNotebookText(text, request, newCellId);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.edited;
}

describe("the fixtures", () => {
  it("are written as Jupyter writes notebooks (indent 1, keys in file order, a final newline)", () => {
    for (const text of [WITH_IDS, NO_IDS, TRACEBACK, SIMPLE]) expect(jupyterText(JSON.parse(text))).toBe(text);
  });
});

describe("replacing a cell", () => {
  it("gives the cell the new source as lines, clears a code cell's outputs and count, and keeps everything else", () => {
    const edited = edit(WITH_IDS, { mode: "replace", cellId: "8206b3b9", newSource: "x = 40 + 2\nx\n" });
    const expected = JSON.parse(WITH_IDS);
    const cell = expected.cells[5];
    Object.assign(cell, { source: ["x = 40 + 2\n", "x\n"], outputs: [], execution_count: null });
    expect(edited.text).toBe(jupyterText(expected));
    expect(edited).toMatchObject({
      cellId: "8206b3b9",
      cellType: "code",
      language: "python",
      oldSource: expect.stringMatching(/^from IPython.display import HTML\n/),
    });
    // The bytes before and after the cell are the file's own.
    const cellStart = WITH_IDS.lastIndexOf("{", WITH_IDS.indexOf('"id": "8206b3b9"'));
    expect(edited.text.slice(0, cellStart)).toBe(WITH_IDS.slice(0, cellStart));
    const nextCellStart = WITH_IDS.lastIndexOf("{", WITH_IDS.indexOf('"id": "88d8965b"'));
    expect(edited.text.endsWith(WITH_IDS.slice(nextCellStart))).toBe(true);
  });

  it("keeps a markdown cell's metadata and id, and a string source stays a string", () => {
    const stringSource = JSON.parse(SIMPLE);
    stringSource.cells[0].source = "# Old";
    stringSource.cells[0].metadata = { tags: ["keep"] };
    const edited = edit(jupyterText(stringSource), { mode: "replace", cellId: "cell-0", newSource: "# New title\nline" });
    expect(JSON.parse(edited.text).cells[0]).toEqual({ cell_type: "markdown", metadata: { tags: ["keep"] }, source: "# New title\nline" });
  });

  it("changes a code cell into markdown (its outputs and count go) and back", () => {
    const toMarkdown = edit(NO_IDS, { mode: "replace", cellId: "cell-0", newSource: "Now prose", cellType: "markdown" });
    const expected = JSON.parse(NO_IDS);
    const { metadata } = expected.cells[0];
    expected.cells[0] = { cell_type: "markdown", metadata, source: ["Now prose"] };
    expect(toMarkdown.text).toBe(jupyterText(expected));
    const toCode = edit(toMarkdown.text, { mode: "replace", cellId: "cell-0", newSource: "1 + 1", cellType: "code" });
    expected.cells[0] = { cell_type: "code", execution_count: null, metadata, outputs: [], source: ["1 + 1"] };
    expect(toCode.text).toBe(jupyterText(expected));
  });

  it("keeps a one-line file on one line, tabs as tabs, and CRLF line breaks", () => {
    const notebook = JSON.parse(WITH_IDS);
    for (const [indent, lineBreak] of [
      ["", "\n"],
      ["\t", "\n"],
      [2, "\r\n"],
    ] as const) {
      const text = jupyterText(notebook, indent).replaceAll("\n", lineBreak);
      const edited = edit(text, { mode: "replace", cellId: "38f37a24", newSource: "print('hi')" });
      const expected = structuredClone(notebook);
      Object.assign(expected.cells[3], { source: ["print('hi')"], outputs: [], execution_count: null });
      expect(edited.text).toBe(jupyterText(expected, indent).replaceAll("\n", lineBreak));
    }
  });

  it("escapes non-ASCII text in a file that has none (Python's ensure_ascii), and writes it as is otherwise", () => {
    const ascii = edit(SIMPLE, { mode: "replace", cellId: "cell-0", newSource: "# Café ☕" });
    expect(ascii.text).toContain('"# Caf\\u00e9 \\u2615"');
    expect(JSON.parse(ascii.text).cells[0].source).toEqual(["# Café ☕"]);
    const unicode = edit(SIMPLE.replace("Test Notebook", "Tëst"), { mode: "replace", cellId: "cell-0", newSource: "# Café" });
    expect(unicode.text).toContain('"# Café"');
  });
});

describe("inserting a cell", () => {
  it("adds a cell with a fresh id after the one named, in Jupyter's member order", () => {
    const edited = edit(WITH_IDS, { mode: "insert", cellId: "2fcdfa53", newSource: "import numpy as np\n", cellType: "code" });
    const expected = JSON.parse(WITH_IDS);
    expected.cells.splice(1, 0, {
      cell_type: "code",
      execution_count: null,
      id: "new1",
      metadata: {},
      outputs: [],
      source: ["import numpy as np\n"],
    });
    expect(edited.text).toBe(jupyterText(expected));
    expect(edited.cellId).toBe("new1");
  });

  it("skips an id the notebook already uses", () => {
    const taken = ["2fcdfa53", "fresh"];
    const edited = edit(WITH_IDS, { mode: "insert", newSource: "# Top", cellType: "markdown" }, () => taken.shift()!);
    expect(edited.cellId).toBe("fresh");
  });

  it("adds a cell at the top without cell_id; in a notebook without ids it has none and is named by position", () => {
    const edited = edit(NO_IDS, { mode: "insert", newSource: "# Timings", cellType: "markdown" });
    const expected = JSON.parse(NO_IDS);
    expected.cells.unshift({ cell_type: "markdown", metadata: {}, source: ["# Timings"] });
    expect(edited.text).toBe(jupyterText(expected));
    expect(edited.cellId).toBe("cell-0");
    expect(edit(NO_IDS, { mode: "insert", cellId: "cell-1", newSource: "2", cellType: "code" }).cellId).toBe("cell-2");
  });

  it("fills a notebook without cells", () => {
    const empty = JSON.parse(SIMPLE);
    empty.cells = [];
    const edited = edit(jupyterText(empty), { mode: "insert", newSource: "a\nb", cellType: "markdown" });
    expect(edited.text).toBe(jupyterText({ ...empty, cells: [{ cell_type: "markdown", metadata: {}, source: ["a\n", "b"] }] }));
  });
});

describe("deleting a cell", () => {
  it("removes the first, a middle and the last cell, and the only one", () => {
    const notebook = JSON.parse(WITH_IDS);
    for (const position of [0, 4, notebook.cells.length - 1]) {
      const expected = structuredClone(notebook);
      const [removed] = expected.cells.splice(position, 1);
      const edited = edit(WITH_IDS, { mode: "delete", cellId: removed.id, newSource: "" });
      expect(edited.text).toBe(jupyterText(expected));
      expect(edited.cellType).toBe(removed.cell_type);
    }
    expect(edit(TRACEBACK, { mode: "delete", cellId: "cell-0", newSource: "" }).text).toBe(
      jupyterText({ ...JSON.parse(TRACEBACK), cells: [] }),
    );
  });
});

describe("refusals (the text is not changed)", () => {
  const refusal = (text: string, request: NotebookEditRequest) => {
    const outcome = editNotebookText(text, request, ids());
    if (outcome.ok) throw new Error("expected a refusal");
    return outcome;
  };

  it("names the cells when the id matches none; cell-N works only for cells without ids", () => {
    const outcome = refusal(WITH_IDS, { mode: "replace", cellId: "cell-0", newSource: "" });
    expect(outcome.reason).toBe("invalid_input");
    expect(outcome.message).toContain("2fcdfa53, 0bc81532");
  });

  it("needs cell_id to replace or delete, and cell_type to insert", () => {
    expect(refusal(WITH_IDS, { mode: "replace", newSource: "x" }).message).toMatch(/cell_id is required/);
    expect(refusal(WITH_IDS, { mode: "delete", newSource: "" }).message).toMatch(/cell_id is required/);
    expect(refusal(WITH_IDS, { mode: "insert", newSource: "x" }).message).toMatch(/needs cell_type/);
  });

  it("says why a file is not a notebook: broken JSON, an old nbformat, a cell without source", () => {
    const broken = refusal(WITH_IDS.slice(0, 500), { mode: "replace", cellId: "2fcdfa53", newSource: "" });
    expect(broken).toMatchObject({ reason: "invalid_notebook" });
    expect(broken.message).toMatch(/not valid JSON/);
    expect(refusal('{"nbformat": 3, "worksheets": []}', { mode: "delete", cellId: "x", newSource: "" }).message).toMatch(/nbformat 3/);
    const noSource = JSON.parse(SIMPLE);
    delete noSource.cells[0].source;
    expect(refusal(jupyterText(noSource), { mode: "delete", cellId: "cell-0", newSource: "" }).message).toMatch(/cells\.0\.source/);
  });
});
