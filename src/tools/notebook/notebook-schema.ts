import * as z from "zod";

/**
 * A Jupyter notebook in nbformat 4 (https://nbformat.readthedocs.io/en/latest/format_description.html),
 * checked as far as Read and NotebookEdit rely on it. Unknown members are allowed everywhere, as
 * the format allows them in metadata and tools add their own: they are never rewritten, since
 * edits change the file's text in place (json-layout.ts) rather than re-serializing this parse.
 */

/** Jupyter stores long text either as one string or as a list of lines (each keeping its "\n"). */
const MultilineSchema = z.union([z.string(), z.array(z.string())]);

const MimeBundleSchema = z.record(z.string(), z.unknown());

const OutputSchema = z.discriminatedUnion("output_type", [
  z.looseObject({ output_type: z.literal("stream"), name: z.string(), text: MultilineSchema }),
  z.looseObject({
    output_type: z.literal("execute_result"),
    execution_count: z.number().int().nullable().optional(),
    data: MimeBundleSchema,
  }),
  z.looseObject({ output_type: z.literal("display_data"), data: MimeBundleSchema }),
  z.looseObject({
    output_type: z.literal("error"),
    ename: z.string(),
    evalue: z.string(),
    traceback: z.array(z.string()),
  }),
]);

const cellFields = {
  id: z.string().min(1).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  source: MultilineSchema,
};

const CellSchema = z.discriminatedUnion("cell_type", [
  z.looseObject({ cell_type: z.literal("markdown"), ...cellFields }),
  z.looseObject({ cell_type: z.literal("raw"), ...cellFields }),
  z.looseObject({
    cell_type: z.literal("code"),
    ...cellFields,
    execution_count: z.number().int().nullable().optional(),
    outputs: z.array(OutputSchema).optional(),
  }),
]);

const NotebookSchema = z.looseObject({
  cells: z.array(CellSchema),
  metadata: z.record(z.string(), z.unknown()),
  nbformat: z.literal(4),
  nbformat_minor: z.number().int().nonnegative(),
});

export type Notebook = z.infer<typeof NotebookSchema>;
export type NotebookCell = z.infer<typeof CellSchema>;
export type NotebookOutput = z.infer<typeof OutputSchema>;

/**
 * The notebook in `text`, or why it is not one, in words that let the model decide what to do
 * (the file is left as it is either way).
 */
export function parseNotebook(text: string): { ok: true; notebook: Notebook } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(withoutByteOrderMark(text));
  } catch (error) {
    return { ok: false, problem: `it is not valid JSON (${(error as Error).message})` };
  }
  const version = (json as { nbformat?: unknown } | null)?.nbformat;
  if (typeof version === "number" && version !== 4) {
    return {
      ok: false,
      problem: `it is in nbformat ${version}; only nbformat 4 is supported (\`jupyter nbconvert --to notebook --nbformat 4\` converts it)`,
    };
  }
  const parsed = NotebookSchema.safeParse(json);
  if (!parsed.success) return { ok: false, problem: `it does not follow nbformat 4: ${describeIssues(parsed.error)}` };
  return { ok: true, notebook: parsed.data };
}

/** A notebook's source or output text as one string. */
export function joinMultiline(value: string | readonly string[]): string {
  return typeof value === "string" ? value : value.join("");
}

/** The language of the notebook's code cells, as its metadata names it. */
export function notebookLanguage(notebook: Notebook): string {
  const languageInfo = notebook.metadata.language_info as { name?: unknown } | undefined;
  if (typeof languageInfo?.name === "string" && languageInfo.name !== "") return languageInfo.name;
  const kernelspec = notebook.metadata.kernelspec as { language?: unknown } | undefined;
  return typeof kernelspec?.language === "string" && kernelspec.language !== "" ? kernelspec.language : "python";
}

/**
 * What the model calls a cell: its `id`, or `cell-N` (N counted from 0) for a notebook written
 * before nbformat 4.5, whose cells have no ids.
 */
export function cellLabel(cell: NotebookCell, index: number): string {
  return cell.id ?? `cell-${index}`;
}

/**
 * The index of the cell the model named: by id first, then by the `cell-N` label Read shows
 * for a cell without an id. Undefined when nothing matches.
 */
export function findCell(notebook: Notebook, cellId: string): number | undefined {
  const byId = notebook.cells.findIndex((cell) => cell.id === cellId);
  if (byId !== -1) return byId;
  const positional = /^cell-(\d+)$/.exec(cellId);
  if (!positional) return undefined;
  const index = Number(positional[1]);
  const cell = notebook.cells[index];
  return cell !== undefined && cell.id === undefined ? index : undefined;
}

export function withoutByteOrderMark(text: string): string {
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

function describeIssues(error: z.ZodError): string {
  const described = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.length === 0 ? "the top level" : issue.path.map(String).join(".");
    return `${where}: ${issue.message}`;
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : "";
  return `${described.join("; ")}${more}`;
}
