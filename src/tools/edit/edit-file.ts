import { applyEdit, type EditInstruction, type FuzzyMatchNote } from "./apply-edit.js";
import { toolError } from "../define-tool.js";
import { openFileToChange, WriteRefused, type FileToChange } from "./file-for-writing.js";
import type { ToolContext } from "../define-tool.js";
import type { ToolResult } from "../../conversation/tool-result.js";
import { applyLineEnding, detectLineEnding, toLf } from "./line-endings.js";
import { resolveWorkspacePath } from "../paths.js";
import { structuredPatch, type PatchHunk } from "./structured-patch.js";

/** Appended to every Edit/Write success, as Claude Code 2.1.330 does (reference 06-write-edit). */
export const FILE_STATE_NOTE = "(file state is current in your context — no need to Read it back)";

export interface FileEdited {
  filePath: string;
  /** The file as it was, with its own line endings. */
  originalFile: string;
  /** Hunks between the old and new text (LF), for renderers. */
  structuredPatch: PatchHunk[];
  /** One entry per edit that needed an inexact match (index into the edits). */
  fuzzyMatches: Array<{ editIndex: number; note: FuzzyMatchNote }>;
}

/**
 * Reads a text file, applies `edits` in order (each edit sees the result of the previous ones;
 * a CRLF file is edited in LF form), and writes it back once with the file's own line endings
 * (CRLF files stay CRLF). All or nothing: when any edit fails, the file is not written.
 *
 * Contract: never throws for expected failures; returns an error result (file_not_found,
 * is_directory, not_a_file, outside_workspace, permission_denied, io_error, or the edit's own
 * code, prefixed with the edit's position when there are several).
 */
export async function editFile(
  context: ToolContext,
  rawPath: string,
  edits: EditInstruction[],
): Promise<{ ok: true; edited: FileEdited } | { ok: false; result: ToolResult }> {
  const resolved = await resolveWorkspacePath(context, rawPath);
  if (resolved.refusal) return { ok: false, result: resolved.refusal };
  const filePath = resolved.path;

  let file: FileToChange | undefined;
  try {
    file = await openFileToChange(resolved.realPath, { path: filePath, allowLinkedFiles: context.workspace.allowLinkedFiles === true });
  } catch (error) {
    return { ok: false, result: readFailure(error, filePath, context.cwd) };
  }
  if (!file) return { ok: false, result: fileNotFound(filePath, context.cwd) };
  try {
    const outcome = await applyEdits(context, filePath, file.text, edits);
    if (!outcome.ok) return outcome;
    try {
      await file.replace(outcome.written);
    } catch (error) {
      return { ok: false, result: readFailure(error, filePath, context.cwd) };
    }
    return { ok: true, edited: outcome.edited };
  } finally {
    await file.close();
  }
}

/** The edits applied to the file's text in memory: the text to write back, or why not. */
async function applyEdits(
  context: ToolContext,
  filePath: string,
  originalFile: string,
  edits: EditInstruction[],
): Promise<{ ok: true; edited: FileEdited; written: string } | { ok: false; result: ToolResult }> {
  if (originalFile.includes("\0")) {
    return { ok: false, result: toolError("not_a_file", `${filePath} is a binary file; Edit only changes text files.`) };
  }

  const lineEnding = detectLineEnding(originalFile);
  // Only a pure CRLF file is matched in LF form; a mixed file is matched as it is, so its bare
  // "\n" lines and its "\r\n" lines both survive.
  const normalize = (text: string): string => (lineEnding === "crlf" ? toLf(text) : text);
  const originalText = normalize(originalFile);
  let text = originalText;
  const fuzzyMatches: FileEdited["fuzzyMatches"] = [];
  for (const [editIndex, edit] of edits.entries()) {
    context.signal.throwIfAborted();
    const application = await applyEdit(text, {
      oldString: normalize(edit.oldString),
      newString: normalize(edit.newString),
      replaceAll: edit.replaceAll,
    });
    if (!application.ok) {
      const position = edits.length > 1 ? `Edit ${editIndex + 1} of ${edits.length} failed, so no edit was applied: ` : "";
      return { ok: false, result: toolError(application.code, `${position}${application.message}\nFile: ${filePath}`) };
    }
    text = application.content;
    if (application.fuzzyMatch) fuzzyMatches.push({ editIndex, note: application.fuzzyMatch });
  }
  return {
    ok: true,
    written: applyLineEnding(text, lineEnding),
    edited: { filePath, originalFile, structuredPatch: await structuredPatch(originalText, text), fuzzyMatches },
  };
}

/** The success text, plus what each inexact match replaced, so the model can check it. */
export function editSuccessText(edited: FileEdited, editCount: number): string {
  const lines = [`The file ${edited.filePath} has been updated successfully. ${FILE_STATE_NOTE}`];
  for (const { editIndex, note } of edited.fuzzyMatches) {
    const which = editCount > 1 ? `edit ${editIndex + 1}: ` : "";
    const how =
      note.strategy === "whitespace"
        ? "matched ignoring whitespace differences"
        : `matched approximately (${Math.round(note.similarity * 100)}% similar)`;
    const lineSpan = note.startLine === note.endLine ? `line ${note.startLine}` : `lines ${note.startLine}-${note.endLine}`;
    lines.push(
      `Note (${which}old_string was not found exactly; it ${how} at ${lineSpan}, which read:\n${note.matchedText}\nCheck that this was the text you meant.)`,
    );
  }
  return lines.join("\n");
}

function readFailure(error: unknown, filePath: string, cwd: string): ToolResult {
  if (error instanceof WriteRefused) return toolError(error.code, error.message);
  const errorCode = (error as NodeJS.ErrnoException).code;
  if (errorCode === "ENOENT" || errorCode === "ENOTDIR") return fileNotFound(filePath, cwd);
  if (errorCode === "EISDIR")
    return toolError("is_directory", `${filePath} is a directory; Edit changes files. Use LS or Glob to find the file inside it.`);
  if (errorCode === "EACCES" || errorCode === "EPERM")
    return toolError("permission_denied", `Permission denied: cannot change ${filePath}.`);
  return toolError("io_error", `Could not edit ${filePath}: ${(error as Error).message}`);
}

function fileNotFound(filePath: string, cwd: string): ToolResult {
  return toolError(
    "file_not_found",
    `File does not exist: ${filePath}. Note: your current working directory is ${cwd}. To create a new file, use Write.`,
  );
}
