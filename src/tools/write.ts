import * as z from "zod/mini";
import "../validation/english-issues.js";
import { defineTool, toolError } from "./define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { FILE_STATE_NOTE } from "./edit/edit-file.js";
import { createFile, openFileToChange, WriteRefused, type FileToChange } from "./edit/file-for-writing.js";
import { applyLineEnding, detectLineEnding, toLf } from "./edit/line-endings.js";
import { resolveWorkspacePath } from "./paths.js";
import { REDACTION_MARKER_PREFIX } from "./redact-secrets.js";
import { structuredPatch } from "./edit/structured-patch.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";

const description = `Creates a file, or replaces everything in an existing one, with \`content\`.

- Meant for new files and full rewrites. Read a file before writing over it, so nothing you meant to keep disappears; to change part of a file, Edit is the safer tool.
- Folders missing on the way to the file are created.
- A file that used Windows (CRLF) line endings keeps them: the new content is written with CRLF as well.
- Give \`file_path\` as an absolute path; a relative one is taken from the session's working directory.`;

const inputSchema = lazySchema(() =>
  z.strictObject({
    file_path: z.string().check(z.describe("Absolute path of the file to create or replace")),
    content: z.string().check(z.describe("Everything the file should contain")),
  }),
);

export const createWriteTool = () =>
  defineTool({
    name: "Write",
    description,
    get inputSchema() {
      return inputSchema();
    },
    ...BUILTIN_TOOL_TRAITS.Write,
    async execute(input, context): Promise<ToolResult> {
      const resolved = await resolveWorkspacePath(context, input.file_path);
      if (resolved.refusal) return resolved.refusal;
      const filePath = resolved.path;
      const writeOptions = { path: filePath, allowLinkedFiles: context.workspace.allowLinkedFiles === true };

      let existing: FileToChange | undefined;
      try {
        existing = await openFileToChange(resolved.realPath, writeOptions);
      } catch (error) {
        return writeFailure(error, filePath);
      }
      const originalFile = existing?.text ?? null;
      try {
        if (input.content.includes(REDACTION_MARKER_PREFIX) && !(originalFile ?? "").includes(REDACTION_MARKER_PREFIX)) {
          return toolError(
            "redacted_secret",
            `The content contains a ${REDACTION_MARKER_PREFIX}…] placeholder. agentwire shows those instead of secrets; writing one would replace the real value. ` +
              "Use Edit to change the other parts of the file, leaving the lines with secrets alone.",
          );
        }
        // Keep the file's convention: a CRLF file stays CRLF even when the model writes LF.
        const lineEnding = originalFile === null ? "lf" : detectLineEnding(originalFile);
        const written = input.content.includes("\r\n") ? input.content : applyLineEnding(input.content, lineEnding);
        if (existing) await existing.replace(written);
        else await createFile(resolved.realPath, written, writeOptions);
        return originalFile === null
          ? createdResult(filePath, input.content)
          : await updatedResult(filePath, input.content, originalFile, written);
      } catch (error) {
        return writeFailure(error, filePath);
      } finally {
        await existing?.close();
      }
    },
  });

function createdResult(filePath: string, content: string): ToolResult {
  return {
    content: `File created successfully at: ${filePath} ${FILE_STATE_NOTE}`,
    isError: false,
    details: { type: "create", filePath, content, structuredPatch: [], originalFile: null, userModified: false },
  };
}

async function updatedResult(filePath: string, content: string, originalFile: string, written: string): Promise<ToolResult> {
  return {
    content: `The file ${filePath} has been updated successfully. ${FILE_STATE_NOTE}`,
    isError: false,
    details: {
      type: "update",
      filePath,
      content,
      structuredPatch: await structuredPatch(toLf(originalFile), toLf(written)),
      originalFile,
      userModified: false,
    },
  };
}

function writeFailure(error: unknown, filePath: string): ToolResult {
  if (error instanceof WriteRefused) return toolError(error.code, error.message);
  const errorCode = (error as NodeJS.ErrnoException).code;
  if (errorCode === "EISDIR") {
    return toolError("is_directory", `${filePath} is a directory; Write can only replace files. Choose a file path inside it.`);
  }
  if (errorCode === "EACCES" || errorCode === "EPERM" || errorCode === "EROFS") {
    return toolError("permission_denied", `Permission denied: cannot write ${filePath}.`);
  }
  // ENOTDIR / EEXIST from mkdir: a component of the parent path is an existing file.
  if (errorCode === "ENOTDIR" || errorCode === "EEXIST") {
    return toolError("io_error", `Cannot write ${filePath}: a part of its parent path is a file, not a directory.`);
  }
  return toolError("io_error", `Could not write ${filePath}: ${(error as Error).message}`);
}
