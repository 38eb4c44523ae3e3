import { statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import * as z from "zod/mini";
import "../validation/english-issues.js";
import { defineTool, toolError } from "./define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { resolveWorkspacePath } from "./paths.js";
import { imageProblem } from "./image-check.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";
import { isNotebookPath } from "./notebook/notebook-path.js";
import { openRegularFile, type FileBytes } from "./file-bytes.js";

const description = `Shows a file's contents with line numbers.

- Give \`file_path\` as an absolute path; a relative one is taken from the session's working directory.
- Without \`offset\` and \`limit\` you get up to 2000 lines from the top. \`offset\` (the 1-based line to begin at) and \`limit\` select a range; when the file goes on past what is shown, the result names the offset to continue from.
- If you know where the part you need is, ask for just that range: a large file fills the context fast.
- Each line comes back as its number, a tab, then its text (as \`cat -n\` prints it), numbered from 1. A line over 2000 characters is cut off.
- A Jupyter notebook (.ipynb) comes back cell by cell, each code cell followed by its outputs (text, errors, images); there \`offset\` and \`limit\` count cells instead of lines.
- Images (PNG, JPEG, GIF, WebP) come back as images when the model provider accepts them. Other binary files (archives, executables, …) are described by type and size instead of their bytes.
- A directory or a missing path is an error (LS or Glob list directories); an empty file gives a notice rather than content.
- When Bash saves a long output to a file and names it, page through that file here like any other.
- After Write succeeds there is no need to read the file back to check it: a failed write returns an error.`;

const DEFAULT_LINE_LIMIT = 2000;
const MAX_LINE_CHARACTERS = 2000;
/** UTF-8 needs at most 4 bytes per character, so this many bytes always decode to enough characters. */
const MAX_CAPTURED_LINE_BYTES = MAX_LINE_CHARACTERS * 4;
/**
 * Caps one result even when every line is long: 2000 lines of 2000 characters would be 4 MB of
 * context. The continuation hint tells the model where to pick up.
 */
const MAX_OUTPUT_CHARACTERS = 100_000;
/** Same heuristic as git and grep: a NUL byte near the start means the file is not text. */
const BINARY_PROBE_BYTES = 8192;
const READ_CHUNK_BYTES = 256 * 1024;
const NEWLINE_BYTE = 0x0a;

/**
 * Largest image sent to the model: the Anthropic API takes images up to 5 MB of base64, which
 * is 3.75 MB of bytes. Bigger images are described instead.
 */
const MAX_IMAGE_BYTES = 3_750_000;

/**
 * Magic numbers for the binary formats a model most often stumbles on, to say what the file is.
 * `mediaType` marks the image formats the model can be shown.
 */
const BINARY_SIGNATURES: ReadonlyArray<{ bytes: readonly number[]; kind: string; mediaType?: string }> = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], kind: "PNG image", mediaType: "image/png" },
  { bytes: [0xff, 0xd8, 0xff], kind: "JPEG image", mediaType: "image/jpeg" },
  { bytes: [0x47, 0x49, 0x46, 0x38], kind: "GIF image", mediaType: "image/gif" },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], kind: "PDF document" },
  { bytes: [0x50, 0x4b, 0x03, 0x04], kind: "ZIP archive" },
  { bytes: [0x1f, 0x8b], kind: "gzip archive" },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], kind: "ELF executable" },
  { bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66], kind: "SQLite database" },
];

const inputSchema = lazySchema(() =>
  z.strictObject({
    file_path: z.string().check(z.describe("Absolute path of the file to show")),
    // Claude Code treats offset 0 like 1, so 0 is accepted rather than rejected.
    offset: z.optional(z.int().check(z.minimum(0))).check(z.describe("Line to begin at, counting from 1; for a part of a long file")),
    limit: z.optional(z.int().check(z.positive())).check(z.describe("How many lines to show from there; for a part of a long file")),
  }),
);

interface ReturnedLine {
  /** The line without its line ending, cut to MAX_LINE_CHARACTERS. */
  text: string;
  /** What the model sees after the `N\t` prefix: `text` plus a marker when the line was cut. */
  display: string;
}

interface LineScan {
  lines: ReturnedLine[];
  /** Lines in the whole file, counting the (possibly empty) line after the final newline. */
  totalLines: number;
}

export const createReadTool = () =>
  defineTool({
    name: "Read",
    description,
    get inputSchema() {
      return inputSchema();
    },
    ...BUILTIN_TOOL_TRAITS.Read,
    async execute(input, context): Promise<ToolResult> {
      const resolved = await resolveWorkspacePath(context, input.file_path);
      if (resolved.refusal) return resolved.refusal;
      const filePath = resolved.path;
      let fileStats;
      try {
        // Synchronous, as the path's real path before it: one local call, no thread-pool round trip.
        fileStats = statSync(filePath);
      } catch (error) {
        return fileAccessError(error, filePath, context.cwd);
      }
      if (fileStats.isDirectory()) {
        return toolError(
          "is_directory",
          `${filePath} is a directory, not a file. To see what it contains, use LS (or Glob with a pattern).`,
        );
      }
      // Opening a FIFO would block until some writer appears, and devices can be endless.
      if (!fileStats.isFile()) return notARegularFile(filePath);
      if (fileStats.size === 0) {
        return textResult("<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>", {
          filePath,
          content: "",
          numLines: 0,
          startLine: 1,
          totalLines: 0,
        });
      }

      if (isNotebookPath(filePath)) {
        // Loaded on the first notebook: most runs never read one.
        const { readNotebook } = await import("./notebook/read-notebook.js");
        const notebook = await readNotebook(filePath, fileStats.size, input, context.imageInput);
        if (notebook) return notebook;
      }

      let file: FileBytes | undefined;
      try {
        file = openRegularFile(filePath);
      } catch (error) {
        return fileAccessError(error, filePath, context.cwd);
      }
      // Replaced by something else since the stat above.
      if (file === undefined) return notARegularFile(filePath);
      try {
        const binary = await detectBinaryKind(file);
        let notAnImage: string | undefined;
        if (binary?.mediaType !== undefined && context.imageInput && fileStats.size <= MAX_IMAGE_BYTES) {
          const bytes = await readFile(filePath);
          notAnImage = await imageProblem(bytes, binary.mediaType);
          if (notAnImage === undefined) return imageResult(filePath, binary.mediaType, bytes);
        }
        if (binary !== undefined) {
          const imageNote =
            binary.mediaType === undefined
              ? ""
              : notAnImage !== undefined
                ? ` It is not a valid image (${notAnImage}), so it is not shown as one.`
                : context.imageInput
                  ? ` It is too large to show as an image (over ${MAX_IMAGE_BYTES} bytes).`
                  : " The current model provider cannot be shown images in tool results.";
          // An error rather than a description with isError false, as Claude Code does: the model
          // asked for contents and did not get them, and the flag makes it change course (use Bash
          // with `file`, `xxd` or `strings`) instead of treating the description as the file text.
          return toolError(
            "not_a_file",
            `${filePath} is a binary file (${binary.kind}, ${fileStats.size} bytes), so Read does not show its contents.${imageNote} ` +
              "To inspect it, use the Bash tool (for example `file`, `xxd | head` or `strings`).",
          );
        }
        const startLine = Math.max(input.offset ?? 1, 1);
        const scan = await scanLines(file, startLine, input.limit ?? DEFAULT_LINE_LIMIT, context.signal);
        return formatScan(filePath, startLine, scan);
      } finally {
        file.close();
      }
    },
  });

function formatScan(filePath: string, startLine: number, scan: LineScan): ToolResult {
  const { lines, totalLines } = scan;
  if (lines.length === 0) {
    return textResult(
      `<system-reminder>Warning: the file exists but is shorter than the provided offset (${startLine}). The file has ${totalLines} lines.</system-reminder>`,
      { filePath, content: "", numLines: 0, startLine, totalLines },
    );
  }
  const lastShownLine = startLine + lines.length - 1;
  let text = lines.map((line, index) => `${startLine + index}\t${line.display}`).join("\n");
  if (lastShownLine < totalLines) {
    text += `\n\n(Showing lines ${startLine}-${lastShownLine} of ${totalLines}. Use offset=${lastShownLine + 1} to continue reading.)`;
  }
  return textResult(text, {
    filePath,
    content: lines.map((line) => line.text).join("\n"),
    numLines: lines.length,
    startLine,
    totalLines,
  });
}

function textResult(
  content: string,
  file: { filePath: string; content: string; numLines: number; startLine: number; totalLines: number },
): ToolResult {
  return { content, isError: false, details: { type: "text", file } };
}

function notARegularFile(filePath: string): ToolResult {
  return toolError("not_a_file", `${filePath} is not a regular file (it is a device, socket or pipe), so Read cannot show it.`);
}

function fileAccessError(error: unknown, filePath: string, cwd: string): ToolResult {
  const errorCode = (error as NodeJS.ErrnoException).code;
  // ENOTDIR: some parent in the path is a file, which for the model means the same as missing.
  if (errorCode === "ENOENT" || errorCode === "ENOTDIR") {
    return toolError("file_not_found", `File does not exist. Note: your current working directory is ${cwd}.`);
  }
  if (errorCode === "EACCES" || errorCode === "EPERM") {
    return toolError("permission_denied", `Permission denied: cannot read ${filePath}.`);
  }
  return toolError("io_error", `Could not read ${filePath}: ${(error as Error).message}`);
}

/** Claude Code's shape for an image Read: the bytes go to the model as an image block. */
function imageResult(filePath: string, mediaType: string, bytes: Buffer): ToolResult {
  const base64 = bytes.toString("base64");
  return {
    content: [{ type: "image", mediaType, data: base64 }],
    isError: false,
    details: { type: "image", file: { filePath, base64, type: mediaType, originalSize: bytes.length } },
  };
}

async function detectBinaryKind(file: FileBytes): Promise<{ kind: string; mediaType?: string } | undefined> {
  const probe = Buffer.alloc(BINARY_PROBE_BYTES);
  const bytesRead = await file.readAt(probe, 0);
  const head = probe.subarray(0, bytesRead);
  const signature = BINARY_SIGNATURES.find(({ bytes }) => bytes.every((byte, index) => head[index] === byte));
  if (signature !== undefined) return signature;
  // WebP: "RIFF", a 4-byte size, then "WEBP".
  if (head.subarray(0, 4).toString("latin1") === "RIFF" && head.subarray(8, 12).toString("latin1") === "WEBP") {
    return { kind: "WebP image", mediaType: "image/webp" };
  }
  return head.includes(0) ? { kind: "binary data" } : undefined;
}

/**
 * Streams the file once with a fixed buffer: lines before `startLine` and after the wanted range
 * are only counted, never decoded, and each returned line keeps at most MAX_CAPTURED_LINE_BYTES,
 * so memory stays small even for multi-GB files or a single endless line. The rest of the file is
 * still scanned to report `totalLines` (Claude Code's `tool_use_result` carries it).
 * Splitting on the 0x0A byte is safe in UTF-8, where that byte never occurs inside a character.
 */
async function scanLines(file: FileBytes, startLine: number, lineLimit: number, signal: AbortSignal): Promise<LineScan> {
  const lines: ReturnedLine[] = [];
  let collecting = true;
  let outputCharacters = 0;
  let lineNumber = 1;
  let capturedParts: Buffer[] = [];
  let capturedBytes = 0;
  let lineBytes = 0;

  const captureSegment = (segment: Buffer): void => {
    lineBytes += segment.length;
    const room = MAX_CAPTURED_LINE_BYTES - capturedBytes;
    if (room <= 0 || segment.length === 0) return;
    // Copy: `segment` points into the read buffer, which the next read overwrites.
    const kept = Buffer.from(segment.subarray(0, room));
    capturedParts.push(kept);
    capturedBytes += kept.length;
  };

  const finishLine = (): void => {
    if (collecting && lineNumber >= startLine) {
      const line = decodeLine(Buffer.concat(capturedParts), lineBytes > capturedBytes);
      if (lines.length > 0 && outputCharacters + line.display.length > MAX_OUTPUT_CHARACTERS) {
        collecting = false;
      } else {
        lines.push(line);
        outputCharacters += line.display.length;
        if (lines.length >= lineLimit) collecting = false;
      }
    }
    capturedParts = [];
    capturedBytes = 0;
    lineBytes = 0;
  };

  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let position = 0;
  for (;;) {
    signal.throwIfAborted();
    const bytesRead = await file.readAt(buffer, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const chunk = buffer.subarray(0, bytesRead);
    let segmentStart = 0;
    for (;;) {
      const newlineIndex = chunk.indexOf(NEWLINE_BYTE, segmentStart);
      const segmentEnd = newlineIndex === -1 ? chunk.length : newlineIndex;
      if (collecting && lineNumber >= startLine) captureSegment(chunk.subarray(segmentStart, segmentEnd));
      if (newlineIndex === -1) break;
      finishLine();
      lineNumber += 1;
      segmentStart = newlineIndex + 1;
    }
  }
  // The text after the last newline is a line too (empty when the file ends with a newline);
  // Claude Code numbers it, which is why "a\nb\n" reads as three lines.
  finishLine();
  return { lines, totalLines: lineNumber };
}

function decodeLine(capturedBytes: Buffer, cutWhileCapturing: boolean): ReturnedLine {
  let text = capturedBytes.toString("utf8");
  // CRLF files: show the line without its "\r" so Edit strings can be written naturally.
  if (text.endsWith("\r")) text = text.slice(0, -1);
  if (!cutWhileCapturing && text.length <= MAX_LINE_CHARACTERS) return { text, display: text };
  text = text.slice(0, MAX_LINE_CHARACTERS);
  return { text, display: `${text}... [line truncated to ${MAX_LINE_CHARACTERS} characters]` };
}
