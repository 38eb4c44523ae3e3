import { readFile } from "node:fs/promises";
import type { ToolResult } from "../../conversation/tool-result.js";
import { parseNotebook } from "./notebook-schema.js";
import { viewNotebook } from "./notebook-view.js";

/**
 * Above this size a notebook is read as text (paged by lines) instead of parsed whole: its JSON
 * would be held several times over in memory, for a view that is paged anyway.
 */
const MAX_NOTEBOOK_BYTES = 64 * 1024 * 1024;

/**
 * Read's answer for a `.ipynb` file: the notebook cell by cell with its outputs, paged by cells
 * (`offset` is the first cell, from 1; `limit` how many). Undefined when the file is not a
 * notebook in nbformat 4 (or too large to parse): Read then shows it as the text file it is, so
 * the model can see what is wrong with it.
 */
export async function readNotebook(
  filePath: string,
  size: number,
  paging: { offset?: number; limit?: number },
  imageInput: boolean,
): Promise<ToolResult | undefined> {
  if (size > MAX_NOTEBOOK_BYTES) return undefined;
  let text: string;
  try {
    text = await readFile(filePath, "utf8");
  } catch {
    // Read's own path reports the failure (permission denied, gone since the stat) in its words.
    return undefined;
  }
  const parsed = parseNotebook(text);
  if (!parsed.ok) return undefined;
  const view = viewNotebook(parsed.notebook, {
    notebookPath: filePath,
    imageInput,
    firstCell: paging.offset ?? 1,
    cellLimit: paging.limit ?? Number.POSITIVE_INFINITY,
  });
  // A list of blocks even when it is one text block, as Claude Code sends a notebook.
  return {
    content: view.blocks,
    isError: false,
    details: { type: "notebook", file: { filePath, cells: view.cells } },
  };
}
