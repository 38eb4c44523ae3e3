import { randomBytes } from "../text/random-uuid.js";
import * as z from "zod/mini";
import "../validation/english-issues.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";
import { defineTool, toolError } from "./define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";
import { openFileToChange, type FileToChange, WriteRefused } from "./edit/file-for-writing.js";
import { isNotebookPath } from "./notebook/notebook-path.js";
import { resolveWorkspacePath } from "./paths.js";
import { REDACTION_MARKER_PREFIX } from "./redact-secrets.js";

const description = `Changes one cell of a Jupyter notebook (.ipynb): replaces its source, inserts a new cell, or deletes a cell.

- Name the cell by the id Read shows in \`<cell id="…">\` (\`cell-N\` for a notebook whose cells have no ids). Read the notebook first to learn the ids.
- \`edit_mode\` "replace" (the default) gives the cell \`new_source\`; a code cell's old outputs and execution count are cleared, since they belonged to the old code. \`cell_type\` changes the cell's type as well.
- "insert" adds a cell with \`new_source\` after the cell \`cell_id\` names, or as the first cell when there is no \`cell_id\`; \`cell_type\` is required.
- "delete" removes the cell (\`new_source\` is ignored; pass "").
- Everything else in the file stays as it was: other cells, their outputs, metadata and formatting.
- Give \`notebook_path\` as an absolute path; a relative one is taken from the session's working directory.`;

const inputSchema = lazySchema(() =>
  z.strictObject({
    notebook_path: z.string().check(z.describe("Absolute path of the notebook (.ipynb) to change")),
    cell_id: z
      .optional(z.string())
      .check(z.describe("Id of the cell to replace or delete; for an insert, the cell after which the new one goes (none: at the top)")),
    new_source: z.string().check(z.describe("The cell's new source")),
    cell_type: z
      .optional(z.enum(["code", "markdown"]))
      .check(z.describe("code or markdown; required for an insert, and for a replace only to change the cell's type")),
    edit_mode: z.optional(z.enum(["replace", "insert", "delete"])).check(z.describe("replace (default), insert or delete")),
  }),
);

export const createNotebookEditTool = () =>
  defineTool({
    name: "NotebookEdit",
    description,
    get inputSchema() {
      return inputSchema();
    },
    ...BUILTIN_TOOL_TRAITS.NotebookEdit,
    async execute(input, context): Promise<ToolResult> {
      const resolved = await resolveWorkspacePath(context, input.notebook_path);
      if (resolved.refusal) return resolved.refusal;
      const notebookPath = resolved.path;
      if (!isNotebookPath(notebookPath)) {
        return toolError("invalid_input", `${notebookPath} is not a Jupyter notebook (.ipynb). Use Edit or Write for other files.`);
      }
      let file: FileToChange | undefined;
      try {
        file = await openFileToChange(resolved.realPath, {
          path: notebookPath,
          allowLinkedFiles: context.workspace.allowLinkedFiles === true,
        });
      } catch (error) {
        return failure(error, notebookPath);
      }
      if (!file)
        return toolError(
          "file_not_found",
          `Notebook does not exist: ${notebookPath}. Note: your current working directory is ${context.cwd}.`,
        );
      try {
        // Read showed the cell with its secrets redacted; the placeholder written back would replace the real value.
        if (input.new_source.includes(REDACTION_MARKER_PREFIX) && !file.text.includes(REDACTION_MARKER_PREFIX)) {
          return toolError(
            "redacted_secret",
            `new_source contains a ${REDACTION_MARKER_PREFIX}…] placeholder. agentwire shows those instead of secrets; writing one would replace the real value. ` +
              "Leave the cell that holds the secret as it is, or ask the user to change it.",
          );
        }
        // Loaded on the first notebook edit: most runs never make one.
        const { editNotebookText } = await import("./notebook/edit-notebook-text.js");
        const editMode = input.edit_mode ?? "replace";
        const outcome = editNotebookText(
          file.text,
          { mode: editMode, cellId: input.cell_id, newSource: input.new_source, cellType: input.cell_type },
          () => randomBytes(4).toString("hex"),
        );
        if (!outcome.ok) return toolError(outcome.reason, `${outcome.message}\nNotebook: ${notebookPath}`);
        await file.replace(outcome.edited.text);
        const { cellId, cellType, language, oldSource } = outcome.edited;
        return {
          content: resultText(editMode, cellId, input.new_source),
          isError: false,
          // Claude Code's NotebookEdit result fields (the Agent SDK's NotebookEditOutput).
          details: {
            new_source: input.new_source,
            ...(oldSource === undefined ? {} : { old_source: oldSource }),
            cell_id: cellId,
            cell_type: cellType,
            language,
            edit_mode: editMode,
            error: "",
            notebook_path: notebookPath,
            original_file: file.text,
            updated_file: outcome.edited.text,
          },
        };
      } catch (error) {
        return failure(error, notebookPath);
      } finally {
        await file.close();
      }
    },
  });

function resultText(editMode: "replace" | "insert" | "delete", cellId: string, newSource: string): string {
  if (editMode === "delete") return `Deleted cell ${cellId}`;
  return `${editMode === "insert" ? "Inserted" : "Updated"} cell ${cellId} with ${newSource}`;
}

function failure(error: unknown, notebookPath: string): ToolResult {
  if (error instanceof WriteRefused) return toolError(error.code, error.message);
  const errorCode = (error as NodeJS.ErrnoException).code;
  if (errorCode === "ENOENT" || errorCode === "ENOTDIR") return toolError("file_not_found", `Notebook does not exist: ${notebookPath}.`);
  if (errorCode === "EISDIR") return toolError("is_directory", `${notebookPath} is a directory, not a notebook.`);
  if (errorCode === "EACCES" || errorCode === "EPERM" || errorCode === "EROFS") {
    return toolError("permission_denied", `Permission denied: cannot change ${notebookPath}.`);
  }
  return toolError("io_error", `Could not change ${notebookPath}: ${(error as Error).message}`);
}
