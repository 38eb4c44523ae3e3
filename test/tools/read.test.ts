import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../../src/tools/define-tool.js";
import { makeToolContext } from "../helpers/tool-context.js";
import { createReadTool } from "../../src/tools/read.js";

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "agentwire-read-"));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

function makeContext(): ToolContext {
  return makeToolContext(directory);
}

async function writeFixture(name: string, content: string | Buffer): Promise<string> {
  const filePath = path.join(directory, name);
  await writeFile(filePath, content);
  return filePath;
}

function numberedLines(first: number, last: number): string {
  const lines: string[] = [];
  for (let lineNumber = first; lineNumber <= last; lineNumber += 1) lines.push(`line${lineNumber}`);
  return lines.join("\n");
}

describe("createReadTool()", () => {
  it("numbers lines cat -n style and shows the empty line after the final newline (reference 02-read)", async () => {
    const filePath = await writeFixture("hello.txt", "Hello, world!\nThis is line two.\nThird line here.\n");
    const result = await createReadTool().execute({ file_path: filePath }, makeContext());
    expect(result).toEqual({
      content: "1\tHello, world!\n2\tThis is line two.\n3\tThird line here.\n4\t",
      isError: false,
      details: {
        type: "text",
        file: {
          filePath,
          content: "Hello, world!\nThis is line two.\nThird line here.\n",
          numLines: 4,
          startLine: 1,
          totalLines: 4,
        },
      },
    });
  });

  it("resolves a relative path against the session cwd", async () => {
    await writeFixture("a.txt", "a\nb\n");
    const result = await createReadTool().execute({ file_path: "a.txt" }, makeContext());
    expect(result.content).toBe("1\ta\n2\tb\n3\t");
    expect(result.details).toMatchObject({ file: { filePath: path.join(directory, "a.txt") } });
  });

  it("reads the range given by offset and limit and says where to continue", async () => {
    const filePath = await writeFixture("ten.txt", `${numberedLines(1, 10)}\n`);
    const result = await createReadTool().execute({ file_path: filePath, offset: 3, limit: 2 }, makeContext());
    expect(result.isError).toBe(false);
    expect(result.content).toBe("3\tline3\n4\tline4\n\n(Showing lines 3-4 of 11. Use offset=5 to continue reading.)");
    expect(result.details).toEqual({
      type: "text",
      file: { filePath, content: "line3\nline4", numLines: 2, startLine: 3, totalLines: 11 },
    });
  });

  it("treats offset 0 like 1", async () => {
    const filePath = await writeFixture("two.txt", "first\nsecond");
    const result = await createReadTool().execute({ file_path: filePath, offset: 0 }, makeContext());
    expect(result.content).toBe("1\tfirst\n2\tsecond");
    expect(result.details).toMatchObject({ file: { startLine: 1, numLines: 2, totalLines: 2 } });
  });

  it("stops at 2000 lines by default", async () => {
    const filePath = await writeFixture("long.txt", numberedLines(1, 2500));
    const result = await createReadTool().execute({ file_path: filePath }, makeContext());
    const text = result.content as string;
    expect(text.startsWith("1\tline1\n")).toBe(true);
    expect(text).toContain("2000\tline2000\n\n(Showing lines 1-2000 of 2500. Use offset=2001 to continue reading.)");
    expect(text).not.toContain("line2001");
    expect(result.details).toMatchObject({ file: { numLines: 2000, totalLines: 2500 } });
  });

  it("finds lines correctly across read-chunk boundaries in a large file", async () => {
    const filePath = await writeFixture("big.txt", `${numberedLines(1, 200_000)}\n`);
    const result = await createReadTool().execute({ file_path: filePath, offset: 199_999, limit: 5 }, makeContext());
    expect(result.content).toBe("199999\tline199999\n200000\tline200000\n200001\t");
    expect(result.details).toMatchObject({ file: { numLines: 3, startLine: 199_999, totalLines: 200_001 } });
  });

  it("cuts lines longer than 2000 characters and marks them", async () => {
    const filePath = await writeFixture("wide.txt", `${"x".repeat(5000)}\nshort`);
    const result = await createReadTool().execute({ file_path: filePath }, makeContext());
    expect(result.content).toBe(`1\t${"x".repeat(2000)}... [line truncated to 2000 characters]\n2\tshort`);
    expect(result.details).toMatchObject({ file: { content: `${"x".repeat(2000)}\nshort`, totalLines: 2 } });
  });

  it("keeps memory bounded for a single huge line", async () => {
    const filePath = await writeFixture("one-line.txt", "y".repeat(8 * 1024 * 1024));
    const result = await createReadTool().execute({ file_path: filePath }, makeContext());
    expect(result.content).toBe(`1\t${"y".repeat(2000)}... [line truncated to 2000 characters]`);
  });

  it("shows CRLF lines without the carriage return", async () => {
    const filePath = await writeFixture("windows.txt", "one\r\ntwo\r\n");
    const result = await createReadTool().execute({ file_path: filePath }, makeContext());
    expect(result.content).toBe("1\tone\n2\ttwo\n3\t");
  });

  it("warns instead of failing when the offset is past the end", async () => {
    const filePath = await writeFixture("short.txt", "a\nb");
    const result = await createReadTool().execute({ file_path: filePath, offset: 10 }, makeContext());
    expect(result.isError).toBe(false);
    expect(result.content).toBe(
      "<system-reminder>Warning: the file exists but is shorter than the provided offset (10). The file has 2 lines.</system-reminder>",
    );
    expect(result.details).toMatchObject({ file: { numLines: 0, startLine: 10, totalLines: 2 } });
  });

  it("reports an empty file with a reminder, not an error", async () => {
    const filePath = await writeFixture("empty.txt", "");
    const result = await createReadTool().execute({ file_path: filePath }, makeContext());
    expect(result.isError).toBe(false);
    expect(result.content).toBe("<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>");
    expect(result.details).toEqual({
      type: "text",
      file: { filePath, content: "", numLines: 0, startLine: 1, totalLines: 0 },
    });
  });

  it("fails with file_not_found and the reference text for a missing file", async () => {
    const result = await createReadTool().execute({ file_path: path.join(directory, "missing.txt") }, makeContext());
    const message = `File does not exist. Note: your current working directory is ${directory}.`;
    expect(result).toEqual({ content: message, isError: true, code: "file_not_found", details: `Error: ${message}` });
  });

  it("fails with file_not_found when a parent in the path is a file", async () => {
    const filePath = await writeFixture("plain.txt", "x");
    const result = await createReadTool().execute({ file_path: path.join(filePath, "child.txt") }, makeContext());
    expect(result.code).toBe("file_not_found");
  });

  it("fails with is_directory and points to LS and Glob for a directory", async () => {
    await mkdir(path.join(directory, "src"));
    const result = await createReadTool().execute({ file_path: path.join(directory, "src") }, makeContext());
    expect(result.isError).toBe(true);
    expect(result.code).toBe("is_directory");
    expect(result.content).toBe(
      `${path.join(directory, "src")} is a directory, not a file. To see what it contains, use LS (or Glob with a pattern).`,
    );
  });

  it("describes a binary file (NUL byte) instead of dumping it", async () => {
    const filePath = await writeFixture("data.bin", Buffer.from([0x41, 0x00, 0x42, 0x43]));
    const result = await createReadTool().execute({ file_path: filePath }, makeContext());
    expect(result.isError).toBe(true);
    expect(result.code).toBe("not_a_file");
    expect(result.content).toBe(
      `${filePath} is a binary file (binary data, 4 bytes), so Read does not show its contents. ` +
        "To inspect it, use the Bash tool (for example `file`, `xxd | head` or `strings`).",
    );
  });

  it("names well-known binary formats", async () => {
    const filePath = await writeFixture("archive.zip", Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]));
    const result = await createReadTool().execute({ file_path: filePath }, makeContext());
    expect(result.code).toBe("not_a_file");
    expect(result.content).toContain("(ZIP archive, 8 bytes)");
  });

  // A real 1×1 PNG: signature, IHDR, IDAT, IEND.
  const pngBytes = Buffer.from(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082",
    "hex",
  );

  it("returns an image as image content when the provider takes images", async () => {
    const filePath = await writeFixture("image.png", pngBytes);
    const result = await createReadTool().execute({ file_path: filePath }, makeContext());
    expect(result).toEqual({
      content: [{ type: "image", mediaType: "image/png", data: pngBytes.toString("base64") }],
      isError: false,
      details: { type: "image", file: { filePath, base64: pngBytes.toString("base64"), type: "image/png", originalSize: pngBytes.length } },
    });
  });

  it("describes an image when the provider cannot take images", async () => {
    const filePath = await writeFixture("image.png", pngBytes);
    const result = await createReadTool().execute({ file_path: filePath }, { ...makeContext(), imageInput: false });
    expect(result.code).toBe("not_a_file");
    expect(result.content).toContain(
      `(PNG image, ${pngBytes.length} bytes), so Read does not show its contents. The current model provider cannot be shown images in tool results.`,
    );
  });

  it("recognizes WebP and GIF images", async () => {
    for (const [name, mediaType, base64] of [
      ["image.webp", "image/webp", "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="],
      ["image.gif", "image/gif", "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"],
    ]) {
      const filePath = await writeFixture(name!, Buffer.from(base64!, "base64"));
      const result = await createReadTool().execute({ file_path: filePath }, makeContext());
      expect(result.content).toEqual([{ type: "image", mediaType, data: base64 }]);
    }
  });

  it("a file that only starts like an image is a binary file, never an image block", async () => {
    // A JPEG's head (SOI, a JFIF APP0, SOF0 of 1×1) without its end marker, as an interrupted copy leaves it.
    const jpegHead = Buffer.from("ffd8ffe000104a46494600010100000100010000ffc0000b080001000101011100", "hex");
    const cases: Array<[string, Buffer, RegExp]> = [
      ["garbage.png", Buffer.concat([pngBytes.subarray(0, 8), Buffer.from("this is not an image at all")]), /header cannot be read/],
      ["cut.png", pngBytes.subarray(0, 40), /cut short/],
      ["cut.jpg", jpegHead, /cut short/],
      ["cut.gif", Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64").subarray(0, 30), /cut short/],
      ["cut.webp", Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64").subarray(0, 28), /cut short/],
    ];
    for (const [name, bytes, reason] of cases) {
      const result = await createReadTool().execute({ file_path: await writeFixture(name, bytes) }, makeContext());
      expect(result.isError, name).toBe(true);
      expect(result.code, name).toBe("not_a_file");
      expect(typeof result.content, name).toBe("string");
      expect(result.content, name).toMatch(/is a binary file \((PNG|JPEG|GIF|WebP) image, \d+ bytes\).* It is not a valid image \(/);
      expect(result.content, name).toMatch(reason);
    }
    // The same head with its end marker is accepted.
    const whole = await createReadTool().execute(
      { file_path: await writeFixture("whole.jpg", Buffer.concat([jpegHead, Buffer.from("ffd9", "hex")])) },
      makeContext(),
    );
    expect(whole.isError).toBe(false);
  });

  it("refuses a path outside the workspace with outside_workspace, also through a symlink", async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), "agentwire-read-outside-"));
    try {
      await writeFile(path.join(outside, "secret.txt"), "x");
      const direct = await createReadTool().execute({ file_path: path.join(outside, "secret.txt") }, makeContext());
      expect(direct.code).toBe("outside_workspace");
      expect(direct.content).toContain(`--add-dir ${outside}`);
      const viaDots = await createReadTool().execute({ file_path: `../${path.basename(outside)}/secret.txt` }, makeContext());
      expect(viaDots.code).toBe("outside_workspace");
      await symlink(outside, path.join(directory, "link"));
      const viaLink = await createReadTool().execute({ file_path: "link/secret.txt" }, makeContext());
      expect(viaLink.code).toBe("outside_workspace");
      const bypass = await createReadTool().execute(
        { file_path: "link/secret.txt" },
        { ...makeContext(), workspace: { roots: [directory], allowOutside: true } },
      );
      expect(bypass.content).toBe("1\tx");
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("refuses a named pipe instead of blocking on it", async () => {
    const fifoPath = path.join(directory, "pipe");
    execFileSync("mkfifo", [fifoPath]);
    const result = await createReadTool().execute({ file_path: fifoPath }, makeContext());
    expect(result.code).toBe("not_a_file");
  });

  it("stops when the signal is aborted", async () => {
    const filePath = await writeFixture("abort.txt", "a\n");
    const controller = new AbortController();
    controller.abort();
    const context = { ...makeContext(), signal: controller.signal };
    await expect(createReadTool().execute({ file_path: filePath }, context)).rejects.toThrow();
  });
});
