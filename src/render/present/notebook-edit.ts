import type { ToolInput } from "./tool-call.js";

/** One row of a cell diff, in the shape tool-result.ts gives every diff. */
interface Row {
  kind: "hunk" | "add" | "del";
  text: string;
}

/**
 * A NotebookEdit as a cell diff: a header naming the cell, then the cell's old source as removed
 * lines and its new source as added ones (an insert only adds, a delete only removes). The old
 * source comes from the result's `old_source`, else its `original_file`; a stored session
 * without either shows the new source alone.
 */
export function notebookEditRows(input: ToolInput | undefined, details: unknown): { verb: string; cellId: string; rows: Row[] } {
  const detail = (key: string): unknown => (isObject(details) ? details[key] : undefined);
  const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
  const mode = text(detail("edit_mode")) ?? text(input?.edit_mode) ?? "replace";
  const cellId = text(detail("cell_id")) ?? text(input?.cell_id) ?? "";
  const cellType = text(detail("cell_type")) ?? text(input?.cell_type);
  const newSource = text(detail("new_source")) ?? text(input?.new_source) ?? "";
  const oldSource = mode === "insert" ? undefined : (text(detail("old_source")) ?? cellSource(text(detail("original_file")), cellId));
  const header: Row = { kind: "hunk", text: `@@ cell ${cellId}${cellType ? ` (${cellType})` : ""} @@` };
  const removed = (oldSource === undefined ? [] : lines(oldSource)).map((line): Row => ({ kind: "del", text: `-${line}` }));
  const added = (mode === "delete" ? [] : lines(newSource)).map((line): Row => ({ kind: "add", text: `+${line}` }));
  const verb = mode === "insert" ? "inserted" : mode === "delete" ? "deleted" : "updated";
  return { verb, cellId, rows: [header, ...removed, ...added] };
}

/** The source of the cell `cellId` names (an id, or `cell-N` by position) in a notebook's JSON text. */
function cellSource(notebookText: string | undefined, cellId: string): string | undefined {
  if (notebookText === undefined) return undefined;
  let cells: unknown;
  try {
    cells = (JSON.parse(notebookText) as { cells?: unknown }).cells;
  } catch {
    return undefined;
  }
  if (!Array.isArray(cells)) return undefined;
  const positional = /^cell-(\d+)$/.exec(cellId);
  const cell: unknown =
    cells.find((candidate) => isObject(candidate) && candidate.id === cellId) ?? (positional ? cells[Number(positional[1])] : undefined);
  if (!isObject(cell)) return undefined;
  const { source } = cell;
  if (typeof source === "string") return source;
  return Array.isArray(source) && source.every((line) => typeof line === "string") ? source.join("") : undefined;
}

function lines(text: string): string[] {
  return text === "" ? [] : text.replace(/\n$/, "").split("\n");
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
