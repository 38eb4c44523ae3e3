import type { ImageBlock, TextBlock } from "../../conversation/messages.js";
import { cellLabel, joinMultiline, type Notebook, type NotebookCell, type NotebookOutput, notebookLanguage } from "./notebook-schema.js";

/**
 * A notebook as Read shows it to the model, in Claude Code's form: each cell as
 * `<cell id="…">` + its source + `</cell id="…">` (markdown and raw cells tagged with their type,
 * code cells in another language than Python with theirs), each code cell's outputs after it as
 * plain text, images as image blocks. No raw JSON: the model reads what a person sees.
 */

/** One output as the result's `tool_use_result` carries it (Claude Code's field names). */
export interface OutputView {
  output_type: string;
  text?: string;
  image?: { image_data: string; media_type: string };
}

/** One cell as the result's `tool_use_result` carries it. */
export interface CellView {
  cellType: NotebookCell["cell_type"];
  source: string;
  execution_count?: number | null;
  cell_id: string;
  language?: string;
  outputs?: OutputView[];
}

export interface NotebookViewOptions {
  notebookPath: string;
  /** The provider accepts images in tool results. */
  imageInput: boolean;
  /** First cell to show, counting from 1 (Read's `offset`, which counts cells in a notebook). */
  firstCell: number;
  /** How many cells at most (Read's `limit`). */
  cellLimit: number;
}

export interface NotebookView {
  blocks: Array<TextBlock | ImageBlock>;
  cells: CellView[];
}

/**
 * A cell's outputs beyond this many characters are cut, with a note saying how to get them all:
 * a loop printing a million lines should not fill the context.
 */
export const MAX_CELL_OUTPUT_CHARACTERS = 10_000;
/** One result's text, as Read caps a text file's: the rest of the notebook is paged. */
export const MAX_VIEW_CHARACTERS = 100_000;
/** The Anthropic API's limit for one image (5 MB of base64). */
const MAX_IMAGE_BASE64_CHARACTERS = 5_000_000;
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

export function viewNotebook(notebook: Notebook, options: NotebookViewOptions): NotebookView {
  const language = notebookLanguage(notebook);
  const total = notebook.cells.length;
  const first = Math.max(options.firstCell, 1);
  if (total === 0 || first > total) {
    const message =
      total === 0
        ? "<system-reminder>Warning: the notebook has no cells.</system-reminder>"
        : `<system-reminder>Warning: the notebook has ${total} cells, fewer than the offset (${first}).</system-reminder>`;
    return { blocks: [{ type: "text", text: message }], cells: [] };
  }
  const blocks: Array<TextBlock | ImageBlock> = [];
  const cells: CellView[] = [];
  let characters = 0;
  let last = first - 1;
  for (let index = first - 1; index < total && cells.length < options.cellLimit; index++) {
    const view = cellView(notebook.cells[index]!, index, language, options.notebookPath);
    const cellBlocks = cellBlocksOf(view, options.imageInput);
    const cellCharacters = cellBlocks.reduce((sum, block) => sum + (block.type === "text" ? block.text.length : 0), 0);
    // Always at least one cell, even a huge one (its outputs are already capped).
    if (cells.length > 0 && characters + cellCharacters > MAX_VIEW_CHARACTERS) break;
    characters += cellCharacters;
    cells.push(view);
    blocks.push(...cellBlocks);
    last = index + 1;
  }
  if (last < total) {
    blocks.push({ type: "text", text: `\n(Showing cells ${first}-${last} of ${total}. Use offset=${last + 1} to continue reading.)` });
  }
  return { blocks: mergeTexts(blocks), cells };
}

function cellView(cell: NotebookCell, index: number, language: string, notebookPath: string): CellView {
  const view: CellView = { cellType: cell.cell_type, source: joinMultiline(cell.source), cell_id: cellLabel(cell, index) };
  if (cell.cell_type !== "code") return view;
  view.execution_count = cell.execution_count ?? null;
  view.language = language;
  if (cell.outputs !== undefined && cell.outputs.length > 0) view.outputs = capOutputs(cell.outputs.map(outputView), index, notebookPath);
  return view;
}

function outputView(output: NotebookOutput): OutputView {
  switch (output.output_type) {
    case "stream":
      return { output_type: output.output_type, text: withoutTerminalCodes(joinMultiline(output.text)) };
    case "error":
      return {
        output_type: output.output_type,
        text: withoutTerminalCodes(`${output.ename}: ${output.evalue}\n${output.traceback.join("\n")}`),
      };
    default: {
      const view: OutputView = { output_type: output.output_type };
      const plain = multilineField(output.data["text/plain"]);
      if (plain !== undefined) view.text = withoutTerminalCodes(plain);
      for (const mediaType of IMAGE_TYPES) {
        const data = multilineField(output.data[mediaType]);
        if (data !== undefined) {
          // Jupyter wraps base64 over lines; the model API wants it whole.
          view.image = { image_data: data.replace(/\s+/g, ""), media_type: mediaType };
          break;
        }
      }
      return view;
    }
  }
}

/** The outputs of one cell, their text cut to MAX_CELL_OUTPUT_CHARACTERS in all. */
function capOutputs(outputs: OutputView[], index: number, notebookPath: string): OutputView[] {
  const total = outputs.reduce((sum, output) => sum + (output.text?.length ?? 0), 0);
  if (total <= MAX_CELL_OUTPUT_CHARACTERS) return outputs;
  let room = MAX_CELL_OUTPUT_CHARACTERS;
  const capped = outputs.map((output) => {
    if (output.text === undefined) return output;
    const text = output.text.slice(0, room);
    room -= text.length;
    return { ...output, text };
  });
  const quotedPath = `'${notebookPath.replaceAll("'", `'\\''`)}'`;
  capped.push({
    output_type: "stream",
    text: `[Outputs cut at ${MAX_CELL_OUTPUT_CHARACTERS} of ${total} characters. All of them: jq '.cells[${index}].outputs' ${quotedPath}]`,
  });
  return capped.filter((output) => output.text !== "" || output.image !== undefined);
}

function cellBlocksOf(cell: CellView, imageInput: boolean): Array<TextBlock | ImageBlock> {
  const tags =
    cell.cellType === "code"
      ? cell.language === "python"
        ? ""
        : `<language>${cell.language}</language>`
      : `<cell_type>${cell.cellType}</cell_type>`;
  const blocks: Array<TextBlock | ImageBlock> = [
    { type: "text", text: `<cell id="${cell.cell_id}">${tags}${cell.source}</cell id="${cell.cell_id}">` },
  ];
  for (const output of cell.outputs ?? []) {
    if (output.text !== undefined && output.text !== "") blocks.push({ type: "text", text: `\n${output.text}` });
    if (output.image === undefined) continue;
    const { media_type: mediaType, image_data: data } = output.image;
    if (!imageInput)
      blocks.push({ type: "text", text: `\n[${mediaType} output, not shown: the model provider takes no images in tool results]` });
    else if (data.length > MAX_IMAGE_BASE64_CHARACTERS)
      blocks.push({ type: "text", text: `\n[${mediaType} output, not shown: too large to send]` });
    else blocks.push({ type: "image", mediaType, data });
  }
  return blocks;
}

/** Neighbouring text blocks joined by a line break, as one block each: images stay between them. */
function mergeTexts(blocks: Array<TextBlock | ImageBlock>): Array<TextBlock | ImageBlock> {
  const merged: Array<TextBlock | ImageBlock> = [];
  for (const block of blocks) {
    const previous = merged.at(-1);
    if (previous?.type === "text" && block.type === "text")
      merged[merged.length - 1] = { type: "text", text: `${previous.text}\n${block.text}` };
    else merged.push(block);
  }
  return merged;
}

function multilineField(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((line) => typeof line === "string")) return value.join("");
  return undefined;
}

/** Colour and cursor codes of terminal output (IPython tracebacks are full of them): noise to a model. */
function withoutTerminalCodes(text: string): string {
  return text.replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g, "");
}
