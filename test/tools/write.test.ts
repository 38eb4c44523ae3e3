import { chmod, link, lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../../src/tools/define-tool.js";
import { makeToolContext } from "../helpers/tool-context.js";
import { createWriteTool } from "../../src/tools/write.js";

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "agentwire-write-"));
});

afterEach(async () => {
  await chmod(directory, 0o700);
  await rm(directory, { recursive: true, force: true });
});

function makeContext(): ToolContext {
  return makeToolContext(directory);
}

const runningAsRoot = process.getuid?.() === 0;

describe("createWriteTool()", () => {
  it("creates a new file with the reference text and create details (reference 06-write-edit)", async () => {
    const filePath = path.join(directory, "new.txt");
    const result = await createWriteTool().execute({ file_path: filePath, content: "alpha\nbeta\n" }, makeContext());
    expect(result).toEqual({
      content: `File created successfully at: ${filePath} (file state is current in your context — no need to Read it back)`,
      isError: false,
      details: {
        type: "create",
        filePath,
        content: "alpha\nbeta\n",
        structuredPatch: [],
        originalFile: null,
        userModified: false,
      },
    });
    expect(await readFile(filePath, "utf8")).toBe("alpha\nbeta\n");
  });

  it("overwrites an existing file and reports an update with the original content", async () => {
    const filePath = path.join(directory, "existing.txt");
    await writeFile(filePath, "old\n");
    const result = await createWriteTool().execute({ file_path: filePath, content: "new\n" }, makeContext());
    expect(result).toEqual({
      content: `The file ${filePath} has been updated successfully. (file state is current in your context — no need to Read it back)`,
      isError: false,
      details: {
        type: "update",
        filePath,
        content: "new\n",
        structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ["-old", "+new"] }],
        originalFile: "old\n",
        userModified: false,
      },
    });
    expect(await readFile(filePath, "utf8")).toBe("new\n");
  });

  it("creates missing parent directories", async () => {
    const filePath = path.join(directory, "a", "b", "c", "deep.txt");
    const result = await createWriteTool().execute({ file_path: filePath, content: "deep" }, makeContext());
    expect(result.isError).toBe(false);
    expect(await readFile(filePath, "utf8")).toBe("deep");
  });

  it("resolves a relative path against the session cwd", async () => {
    const result = await createWriteTool().execute({ file_path: "notes/todo.md", content: "- item" }, makeContext());
    const expectedPath = path.join(directory, "notes", "todo.md");
    expect(result.details).toMatchObject({ filePath: expectedPath });
    expect(await readFile(expectedPath, "utf8")).toBe("- item");
  });

  it("fails with is_directory when the path is a directory", async () => {
    await mkdir(path.join(directory, "folder"));
    const result = await createWriteTool().execute({ file_path: path.join(directory, "folder"), content: "x" }, makeContext());
    expect(result.isError).toBe(true);
    expect(result.code).toBe("is_directory");
    expect(result.details).toBe(`Error: ${result.content as string}`);
  });

  it("fails with io_error when a parent in the path is a file", async () => {
    await writeFile(path.join(directory, "plain"), "x");
    const result = await createWriteTool().execute({ file_path: path.join(directory, "plain", "child.txt"), content: "x" }, makeContext());
    expect(result.isError).toBe(true);
    expect(result.code).toBe("io_error");
    expect(result.content).toContain("not a directory");
  });

  it.skipIf(runningAsRoot)("fails with permission_denied in a read-only directory", async () => {
    await chmod(directory, 0o500);
    const result = await createWriteTool().execute({ file_path: path.join(directory, "locked.txt"), content: "x" }, makeContext());
    expect(result.code).toBe("permission_denied");
  });

  it("keeps CRLF line endings when overwriting a CRLF file with LF text", async () => {
    const filePath = path.join(directory, "windows.txt");
    await writeFile(filePath, "one\r\ntwo\r\n");
    const result = await createWriteTool().execute({ file_path: filePath, content: "one\nthree\n" }, makeContext());
    expect(result.isError).toBe(false);
    expect(await readFile(filePath, "utf8")).toBe("one\r\nthree\r\n");
    expect(result.details).toMatchObject({ structuredPatch: [{ lines: [" one", "-two", "+three"] }] });
  });

  it("writes LF text as given to an LF or new file", async () => {
    const filePath = path.join(directory, "unix.txt");
    await writeFile(filePath, "a\nb\n");
    await createWriteTool().execute({ file_path: filePath, content: "c\nd\n" }, makeContext());
    expect(await readFile(filePath, "utf8")).toBe("c\nd\n");
  });

  it("refuses a path outside the workspace with outside_workspace", async () => {
    const outsidePath = path.join(path.dirname(directory), `agentwire-write-escape-${path.basename(directory)}.txt`);
    const result = await createWriteTool().execute({ file_path: `../${path.basename(outsidePath)}`, content: "x" }, makeContext());
    expect(result.code).toBe("outside_workspace");
    expect(result.isError).toBe(true);
    await expect(readFile(outsidePath)).rejects.toThrow();
  });

  it("writes through a symlink to a file inside the workspace, leaving the link in place", async () => {
    await writeFile(path.join(directory, "real.txt"), "old\n");
    await symlink("real.txt", path.join(directory, "alias.txt"));
    const result = await createWriteTool().execute({ file_path: "alias.txt", content: "new\n" }, makeContext());
    expect(result).toMatchObject({ isError: false, details: { type: "update", filePath: path.join(directory, "alias.txt") } });
    expect(await readFile(path.join(directory, "real.txt"), "utf8")).toBe("new\n");
    expect((await lstat(path.join(directory, "alias.txt"))).isSymbolicLink()).toBe(true);
  });

  it("refuses a dangling symlink that points outside: the file it would create is outside", async () => {
    const outsidePath = path.join(path.dirname(directory), `agentwire-write-dangling-${path.basename(directory)}.txt`);
    await symlink(outsidePath, path.join(directory, "out"));
    const result = await createWriteTool().execute({ file_path: "out", content: "x" }, makeContext());
    expect(result.code).toBe("outside_workspace");
    expect(existsSync(outsidePath)).toBe(false);
  });

  it("keeps the mode of a file it overwrites", async () => {
    const filePath = path.join(directory, "script.sh");
    await writeFile(filePath, "echo old\n");
    await chmod(filePath, 0o750);
    await createWriteTool().execute({ file_path: filePath, content: "echo new\n" }, makeContext());
    expect((await stat(filePath)).mode & 0o777).toBe(0o750);
  });

  it("refuses a file with several hard links unless the call was approved for itself", async () => {
    const other = path.join(directory, "other-name.txt");
    await writeFile(other, "shared\n");
    await link(other, path.join(directory, "hl"));
    const refused = await createWriteTool().execute({ file_path: "hl", content: "changed\n" }, makeContext());
    expect(refused).toMatchObject({ isError: true, code: "permission_denied", content: expect.stringMatching(/2 hard links/) });
    expect(await readFile(other, "utf8")).toBe("shared\n");
    const approved = { ...makeContext(), workspace: { roots: [directory], allowOutside: false, allowLinkedFiles: true } };
    expect((await createWriteTool().execute({ file_path: "hl", content: "changed\n" }, approved)).isError).toBe(false);
    expect(await readFile(other, "utf8")).toBe("changed\n");
  });

  it("refuses content that would write a redaction placeholder over a secret", async () => {
    const filePath = path.join(directory, ".env");
    await writeFile(filePath, "KEY=sk-ant-api03-realsecretrealsecretrealsecret\n");
    const result = await createWriteTool().execute(
      { file_path: filePath, content: "KEY=[REDACTED:anthropic_api_key]\nOTHER=1\n" },
      makeContext(),
    );
    expect(result.code).toBe("redacted_secret");
    expect(await readFile(filePath, "utf8")).toBe("KEY=sk-ant-api03-realsecretrealsecretrealsecret\n");
  });
});
