import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { defineTool, toolError } from "./define-tool.js";
import type { ToolResult } from "./define-tool.js";
import { resolveToolPath } from "./paths.js";

const description = `Writes a file to the local filesystem, overwriting it if one exists.

- Use it to create a new file or to replace a whole file. Read an existing file before overwriting it, so nothing you did not mean to drop is lost.
- Missing parent directories are created.
- \`file_path\` should be an absolute path; a relative path is resolved against the session's working directory.`;

/**
 * Appended to every success text, exactly as Claude Code 2.1.330 does (reference transcript
 * 06-write-edit), so models trained on it skip the verification Read.
 */
const FILE_STATE_NOTE = "(file state is current in your context — no need to Read it back)";

const inputSchema = z
  .object({
    file_path: z.string().describe("The absolute path to the file to write (must be absolute, not relative)"),
    content: z.string().describe("The content to write to the file"),
  })
  .strict();

export const writeTool = defineTool({
  name: "Write",
  description,
  inputSchema,
  readOnly: false,
  async execute(input, context): Promise<ToolResult> {
    const filePath = resolveToolPath(context.cwd, input.file_path);

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

    try {
      await mkdir(path.dirname(filePath), { recursive: true });
      await writeFile(filePath, input.content, "utf8");
    } catch (error) {
      return writeFailure(error, filePath);
    }

    const isNewFile = originalFile === null;
    return {
      content: isNewFile
        ? `File created successfully at: ${filePath} ${FILE_STATE_NOTE}`
        : `The file ${filePath} has been updated successfully. ${FILE_STATE_NOTE}`,
      isError: false,
      details: {
        type: isNewFile ? "create" : "update",
        filePath,
        content: input.content,
        // Claude Code fills this with a diff for updates; computing one belongs to the Edit work.
        structuredPatch: [],
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
