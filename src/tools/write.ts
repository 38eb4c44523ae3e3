import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import * as z from "zod";
import { defineTool, toolError } from "./define-tool.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { FILE_STATE_NOTE } from "./edit-file.js";
import { applyLineEnding, detectLineEnding, toLf } from "./line-endings.js";
import { resolveWorkspacePath } from "./paths.js";
import { REDACTION_MARKER_PREFIX } from "./redact-secrets.js";
import { structuredPatch } from "./structured-patch.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";

const description = `Writes a file to the local filesystem, overwriting it if one exists.

- Use it to create a new file or to replace a whole file. Read an existing file before overwriting it, so nothing you did not mean to drop is lost. For changes to part of a file, Edit is safer.
- Missing parent directories are created.
- When an existing file uses Windows (CRLF) line endings, the new content is written with CRLF too.
- \`file_path\` should be an absolute path; a relative path is resolved against the session's working directory.`;

const inputSchema = z
  .object({
    file_path: z.string().describe("The absolute path to the file to write (must be absolute, not relative)"),
    content: z.string().describe("The content to write to the file"),
  })
  .strict();

export const createWriteTool = () =>
  defineTool({
  name: "Write",
  description,
  inputSchema,
  ...BUILTIN_TOOL_TRAITS.Write,
  async execute(input, context): Promise<ToolResult> {
    const resolved = await resolveWorkspacePath(context, input.file_path);
    if (resolved.refusal) return resolved.refusal;
    const filePath = resolved.path;

    let originalFile: string | null;
    try {
      originalFile = await readFile(filePath, "utf8");
    } catch (error) {
      const errorCode = (error as NodeJS.ErrnoException).code;
      if (errorCode === "ENOENT") {
        originalFile = null;
      } else {
        return writeFailure(error, filePath);
      }
    }
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
    try {
      await mkdir(path.dirname(filePath), { recursive: true });
      await writeFile(filePath, written, "utf8");
    } catch (error) {
      return writeFailure(error, filePath);
    }

    if (originalFile === null) {
      return {
        content: `File created successfully at: ${filePath} ${FILE_STATE_NOTE}`,
        isError: false,
        details: { type: "create", filePath, content: input.content, structuredPatch: [], originalFile: null, userModified: false },
      };
    }
    return {
      content: `The file ${filePath} has been updated successfully. ${FILE_STATE_NOTE}`,
      isError: false,
      details: {
        type: "update",
        filePath,
        content: input.content,
        structuredPatch: await structuredPatch(toLf(originalFile), toLf(written)),
        originalFile,
        userModified: false,
      },
    };
  },
});

function writeFailure(error: unknown, filePath: string): ToolResult {
  const errorCode = (error as NodeJS.ErrnoException).code;
  if (errorCode === "EISDIR") {
    return toolError(
      "is_directory",
      `${filePath} is a directory; Write can only replace files. Choose a file path inside it.`,
    );
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
