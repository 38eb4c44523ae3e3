import { elementSpans, findMember, lineIndent, memberSpans, type Span, valueSpan } from "./json-layout.js";
import {
  cellLabel,
  findCell,
  joinMultiline,
  type Notebook,
  notebookLanguage,
  parseNotebook,
  withoutByteOrderMark,
} from "./notebook-schema.js";

export type NotebookEditMode = "replace" | "insert" | "delete";

export interface NotebookEditRequest {
  mode: NotebookEditMode;
  cellId?: string;
  newSource: string;
  cellType?: "code" | "markdown";
}

/** A successful edit: the file's new text and what the result reports. */
export interface NotebookEdited {
  text: string;
  /** The cell changed, inserted or deleted, as the model names it (an id or `cell-N`). */
  cellId: string;
  cellType: "code" | "markdown" | "raw";
  language: string;
  /** The cell's source before a replace or delete. */
  oldSource?: string;
}

export type NotebookEditOutcome =
  | { ok: true; edited: NotebookEdited }
  | { ok: false; reason: "invalid_notebook" | "invalid_input"; message: string };

/**
 * Applies one NotebookEdit to a notebook file's text. Only the edited cell's text changes (or,
 * for a replace, only its source, outputs and execution count): every other byte of the file
 * stays as it was, and new text follows the file's own indentation, line breaks and escaping,
 * so a notebook written by Jupyter diffs as if Jupyter had made the change.
 *
 * Contract: pure; `newCellId` makes the id of an inserted cell (nbformat 4.5 and later) and is
 * called until it returns an id the notebook does not use yet.
 */
export function editNotebookText(text: string, request: NotebookEditRequest, newCellId: () => string): NotebookEditOutcome {
  const parsed = parseNotebook(text);
  if (!parsed.ok)
    return { ok: false, reason: "invalid_notebook", message: `The file is not a notebook NotebookEdit can change: ${parsed.problem}.` };
  const { notebook } = parsed;
  let index: number | undefined;
  if (request.cellId !== undefined) {
    index = findCell(notebook, request.cellId);
    if (index === undefined) return { ok: false, reason: "invalid_input", message: cellNotFound(notebook, request.cellId) };
  }
  const layout = notebookLayout(text);
  switch (request.mode) {
    case "replace":
      if (index === undefined) return missingCellId("replace");
      return finish(replaceCell(text, layout, notebook, index, request), notebook);
    case "delete":
      if (index === undefined) return missingCellId("delete");
      return finish(deleteCell(text, layout, notebook, index), notebook);
    case "insert":
      if (request.cellType === undefined) {
        return { ok: false, reason: "invalid_input", message: "Inserting a cell needs cell_type (code or markdown)." };
      }
      return finish(insertCell(text, layout, notebook, index, { ...request, cellType: request.cellType }, newCellId), notebook);
  }
}

/** How the file is laid out: what new text must imitate. */
interface Layout {
  cells: Span;
  elements: Span[];
  /** One level of indentation ("" for a file on one line). */
  unit: string;
  lineBreak: string;
  /** The file holds only ASCII (Python's default `ensure_ascii`): new text escapes the rest. */
  asciiOnly: boolean;
}

function notebookLayout(text: string): Layout {
  const root = valueSpan(text, text.startsWith("\uFEFF") ? 1 : 0);
  const members = memberSpans(text, root);
  // parseNotebook checked that `cells` is there and is an array.
  const cells = findMember(members, "cells")!.value;
  const firstKey = members[0];
  return {
    cells,
    elements: elementSpans(text, cells),
    unit: firstKey === undefined ? "" : lineIndent(text, firstKey.keyStart),
    lineBreak: text.includes("\r\n") ? "\r\n" : "\n",
    asciiOnly: !/[^\u0000-\u007f]/.test(text),
  };
}

type TextChange = Omit<NotebookEdited, "language">;

function finish(change: TextChange, notebook: Notebook): NotebookEditOutcome {
  // Splicing text could only break the JSON around the splice (the values written are whole
  // cells or members of a valid shape), so the edit is checked as JSON before it is written.
  try {
    JSON.parse(withoutByteOrderMark(change.text));
  } catch (error) {
    throw new Error(`NotebookEdit produced invalid JSON: ${(error as Error).message}`);
  }
  return { ok: true, edited: { ...change, language: notebookLanguage(notebook) } };
}

function replaceCell(text: string, layout: Layout, notebook: Notebook, index: number, request: NotebookEditRequest): TextChange {
  const cell = notebook.cells[index]!;
  const element = layout.elements[index]!;
  const cellId = cellLabel(cell, index);
  const oldSource = joinMultiline(cell.source);
  const source = sourceValue(request.newSource, Array.isArray(cell.source));
  const cellType = request.cellType ?? cell.cell_type;
  if (cellType !== cell.cell_type) {
    // A cell changing type gains or loses members; it is written whole, in the file's style.
    const rewritten = retypedCell(JSON.parse(text.slice(element.start, element.end)) as Record<string, unknown>, cellType, source);
    return { text: splice(text, element, serialize(rewritten, layout, lineIndent(text, element.start))), cellId, cellType, oldSource };
  }
  const members = memberSpans(text, element);
  const changes: Array<{ span: Span; value: string }> = [];
  const source_ = findMember(members, "source")!;
  changes.push({ span: source_.value, value: serialize(source, layout, lineIndent(text, source_.keyStart)) });
  if (cell.cell_type === "code") {
    // The old outputs came from the old source; Jupyter clears them the same way when a cell changes.
    const outputs = findMember(members, "outputs");
    if (outputs) changes.push({ span: outputs.value, value: "[]" });
    const executionCount = findMember(members, "execution_count");
    if (executionCount) changes.push({ span: executionCount.value, value: "null" });
  }
  // From the end backwards, so each span still points at the text it was found in.
  const edited = changes
    .sort((a, b) => b.span.start - a.span.start)
    .reduce((current, { span, value }) => splice(current, span, value), text);
  return { text: edited, cellId, cellType, oldSource };
}

function deleteCell(text: string, layout: Layout, notebook: Notebook, index: number): TextChange {
  const cell = notebook.cells[index]!;
  const { elements } = layout;
  const removed =
    elements.length === 1
      ? splice(text, layout.cells, "[]")
      : index > 0
        ? // The separator before the cell goes with it.
          splice(text, { start: elements[index - 1]!.end, end: elements[index]!.end }, "")
        : splice(text, { start: elements[0]!.start, end: elements[1]!.start }, "");
  return { text: removed, cellId: cellLabel(cell, index), cellType: cell.cell_type, oldSource: joinMultiline(cell.source) };
}

function insertCell(
  text: string,
  layout: Layout,
  notebook: Notebook,
  afterIndex: number | undefined,
  request: NotebookEditRequest & { cellType: "code" | "markdown" },
  newCellId: () => string,
): TextChange {
  const withIds = notebook.nbformat_minor >= 5 || notebook.cells.some((cell) => cell.id !== undefined);
  let id: string | undefined;
  if (withIds) {
    const taken = new Set(notebook.cells.map((cell) => cell.id));
    do id = newCellId();
    while (taken.has(id));
  }
  const asLines = notebook.cells.length === 0 || notebook.cells.some((cell) => Array.isArray(cell.source));
  const cell = newCell(request.cellType, id, sourceValue(request.newSource, asLines));
  const position = afterIndex === undefined ? 0 : afterIndex + 1;
  const cellId = id ?? `cell-${position}`;
  const { elements, unit, lineBreak } = layout;

  if (elements.length === 0) {
    const outerIndent = lineIndent(text, layout.cells.start);
    const cellIndent = outerIndent + unit;
    const cellText = serialize(cell, layout, cellIndent);
    const array = unit === "" ? `[${cellText}]` : `[${lineBreak}${cellIndent}${cellText}${lineBreak}${outerIndent}]`;
    return { text: splice(text, layout.cells, array), cellId, cellType: request.cellType };
  }
  const cellIndent = lineIndent(text, elements[0]!.start);
  const cellText = serialize(cell, layout, cellIndent);
  const separator = unit === "" ? "," : `,${lineBreak}${cellIndent}`;
  const inserted =
    afterIndex === undefined
      ? splice(text, { start: elements[0]!.start, end: elements[0]!.start }, `${cellText}${separator}`)
      : splice(text, { start: elements[afterIndex]!.end, end: elements[afterIndex]!.end }, `${separator}${cellText}`);
  return { text: inserted, cellId, cellType: request.cellType };
}

/** A new cell with its members in the order Jupyter writes them (sorted). */
function newCell(cellType: "code" | "markdown", id: string | undefined, source: string | string[]): Record<string, unknown> {
  return {
    cell_type: cellType,
    ...(cellType === "code" ? { execution_count: null } : {}),
    ...(id === undefined ? {} : { id }),
    metadata: {},
    ...(cellType === "code" ? { outputs: [] } : {}),
    source,
  };
}

/** A cell turned into another type: code cells need outputs and a count, other cells must not have them. */
function retypedCell(cell: Record<string, unknown>, cellType: string, source: string | string[]): Record<string, unknown> {
  const { outputs: _outputs, execution_count: _executionCount, ...rest } = cell;
  const retyped: Record<string, unknown> = { ...rest, cell_type: cellType, source };
  if (cellType === "code") Object.assign(retyped, { execution_count: null, outputs: [] });
  const keys = Object.keys(cell);
  const wasSorted = keys.every((key, position) => position === 0 || keys[position - 1]! <= key);
  if (!wasSorted) return retyped;
  return Object.fromEntries(Object.entries(retyped).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The source as the file keeps it: a list of lines (Jupyter's form) or one string. */
function sourceValue(source: string, asLines: boolean): string | string[] {
  return asLines ? (source.match(/[^\n]*\n|[^\n]+$/g) ?? []) : source;
}

/** A value in the file's style, to sit at a place whose line is indented by `indent`. */
function serialize(value: unknown, layout: Layout, indent: string): string {
  const json =
    layout.unit === "" ? JSON.stringify(value) : JSON.stringify(value, null, layout.unit).replaceAll("\n", layout.lineBreak + indent);
  return layout.asciiOnly
    ? json.replace(/[^\u0000-\u007f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`)
    : json;
}

function splice(text: string, span: Span, replacement: string): string {
  return text.slice(0, span.start) + replacement + text.slice(span.end);
}

function missingCellId(mode: NotebookEditMode): NotebookEditOutcome {
  return { ok: false, reason: "invalid_input", message: `cell_id is required to ${mode} a cell: give the id Read shows in <cell id="…">.` };
}

function cellNotFound(notebook: Notebook, cellId: string): string {
  const labels = notebook.cells.map(cellLabel);
  const shown = labels.slice(0, 20).join(", ");
  const more = labels.length > 20 ? `, … (${labels.length} cells)` : "";
  return labels.length === 0
    ? `The notebook has no cells, so there is no cell "${cellId}". Insert one without cell_id.`
    : `No cell "${cellId}" in the notebook. Its cells are: ${shown}${more}.`;
}
