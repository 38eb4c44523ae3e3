import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Notebook, parseNotebook } from "../../src/tools/notebook/notebook-schema.js";
import { MAX_CELL_OUTPUT_CHARACTERS, type NotebookViewOptions, viewNotebook } from "../../src/tools/notebook/notebook-view.js";
import { ROOT } from "../helpers/agentwire.js";

function load(name: string): Notebook {
  const parsed = parseNotebook(readFileSync(join(ROOT, "fixtures", "notebooks", name), "utf8"));
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.notebook;
}

const options = (overrides: Partial<NotebookViewOptions> = {}): NotebookViewOptions => ({
  notebookPath: "/work/nb.ipynb",
  imageInput: true,
  firstCell: 1,
  cellLimit: Number.POSITIVE_INFINITY,
  ...overrides,
});
const texts = (view: ReturnType<typeof viewNotebook>) => view.blocks.flatMap((block) => (block.type === "text" ? [block.text] : []));

describe("a notebook as Read shows it", () => {
  it("tags each cell with its id, markdown with its type, and puts outputs after their cell", () => {
    const view = viewNotebook(load("test4.5.ipynb"), options());
    const [first] = texts(view);
    expect(first).toContain(
      '<cell id="2fcdfa53"><cell_type>markdown</cell_type># nbconvert latex test</cell id="2fcdfa53">\n<cell id="0bc81532"><cell_type>markdown</cell_type>**Lorem ipsum**',
    );
    // A code cell is untagged; its stream output follows after a blank line, as Claude Code joins them.
    expect(first).toContain(
      '<cell id="38f37a24">from __future__ import annotations\n\nprint("hello")</cell id="38f37a24">\n\nhello\n\n<cell id="a1f70963">',
    );
    // execute_result and display_data show their text/plain, not their HTML or JavaScript.
    expect(first).toContain("\n<IPython.core.display.HTML at 0x1112757d0>");
    expect(view.cells[5]!.outputs).toEqual([{ output_type: "execute_result", text: "<IPython.core.display.HTML at 0x1112757d0>" }]);
    expect(view.cells[3]).toMatchObject({ cellType: "code", cell_id: "38f37a24", execution_count: 1, language: "python" });
    expect(view.cells[3]!.outputs).toEqual([{ output_type: "stream", text: "hello\n" }]);
  });

  it("sends an image output as an image block where the provider takes images, else says it is not shown", () => {
    const withImages = viewNotebook(load("test4.5.ipynb"), options());
    const image = withImages.blocks.find((block) => block.type === "image");
    expect(image).toMatchObject({ type: "image", mediaType: "image/png" });
    expect(
      Buffer.from((image as { data: string }).data, "base64")
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    // The image's text/plain comes first, then the image itself.
    expect(withImages.blocks.at(-1)).toBe(image);
    expect(texts(withImages).at(-1)).toContain("<IPython.core.display.Image at 0x111275490>");

    const withoutImages = viewNotebook(load("test4.5.ipynb"), options({ imageInput: false }));
    expect(withoutImages.blocks).toHaveLength(1);
    expect(texts(withoutImages)[0]).toContain("[image/png output, not shown: the model provider takes no images in tool results]");
  });

  it("names cells without ids cell-N and shows an error's traceback without terminal colour codes", () => {
    const [text] = texts(viewNotebook(load("many_tracebacks.ipynb"), options()));
    expect(text).toMatch(/^<cell id="cell-0"># Imagine this cell/);
    expect(text).toContain("\nNameError: name 'iAmNotDefined' is not defined\n---");
    expect(text).toContain("----> 1 iAmNotDefined");
    expect(text).not.toContain("\u001b");
  });

  it("names the language of code cells that are not Python", () => {
    const notebook = load("test4jupyter_metadata_timings.ipynb");
    notebook.metadata.language_info = { name: "julia" };
    expect(texts(viewNotebook(notebook, options()))[0]).toMatch(/^<cell id="cell-0"><language>julia<\/language>from __future__/);
  });

  it("cuts a cell's long outputs and says how to print them all", () => {
    const notebook = load("many_tracebacks.ipynb");
    const cell = notebook.cells[0] as Extract<Notebook["cells"][number], { cell_type: "code" }>;
    cell.outputs = [{ output_type: "stream", name: "stdout", text: "x".repeat(MAX_CELL_OUTPUT_CHARACTERS * 3) }];
    const [text] = texts(viewNotebook(notebook, options({ notebookPath: "/work/it's.ipynb" })));
    expect(text!.length).toBeLessThan(MAX_CELL_OUTPUT_CHARACTERS + 500);
    expect(text).toContain(`[Outputs cut at 10000 of 30000 characters. All of them: jq '.cells[0].outputs' '/work/it'\\''s.ipynb']`);
  });

  it("pages by cells: offset is the first cell (from 1), limit how many, and the rest is named", () => {
    const notebook = load("test4.5.ipynb");
    const page = viewNotebook(notebook, options({ firstCell: 2, cellLimit: 2, imageInput: false }));
    expect(page.cells.map((cell) => cell.cell_id)).toEqual(["0bc81532", "bb687f78"]);
    expect(texts(page)[0]).toMatch(/\(Showing cells 2-3 of 9\. Use offset=4 to continue reading\.\)$/);
    const beyond = viewNotebook(notebook, options({ firstCell: 20 }));
    expect(texts(beyond)[0]).toContain("the notebook has 9 cells, fewer than the offset (20)");
  });
});
