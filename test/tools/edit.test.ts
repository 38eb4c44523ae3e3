import { chmod, link, mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditTool } from "../../src/tools/edit.js";
import { createMultiEditTool } from "../../src/tools/multi-edit.js";
import { makeToolContext } from "../helpers/tool-context.js";

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "agentwire-edit-"));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function fixture(name: string, content: string): Promise<string> {
  const filePath = path.join(directory, name);
  await writeFile(filePath, content);
  return filePath;
}

const edit = (input: { file_path: string; old_string: string; new_string: string; replace_all?: boolean }) =>
  createEditTool().execute({ replace_all: false, ...input }, makeToolContext(directory));

describe("createEditTool()", () => {
  it("replaces a unique match with the reference text and details (reference 06-write-edit)", async () => {
    const filePath = await fixture("new.txt", "alpha\nbeta\n");
    const result = await edit({ file_path: filePath, old_string: "beta", new_string: "gamma" });
    expect(result).toEqual({
      content: `The file ${filePath} has been updated successfully. (file state is current in your context — no need to Read it back)`,
      isError: false,
      details: {
        filePath,
        oldString: "beta",
        newString: "gamma",
        originalFile: "alpha\nbeta\n",
        structuredPatch: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [" alpha", "-beta", "+gamma"] }],
        userModified: false,
        replaceAll: false,
      },
    });
    expect(await readFile(filePath, "utf8")).toBe("alpha\ngamma\n");
  });

  it("refuses a non-unique match with edit_not_unique and the lines, leaving the file alone", async () => {
    const filePath = await fixture("dup.txt", "x = 1\ny = 2\nx = 1\n");
    const result = await edit({ file_path: filePath, old_string: "x = 1", new_string: "x = 3" });
    expect(result.code).toBe("edit_not_unique");
    expect(result.isError).toBe(true);
    expect(result.content).toContain("Found 2 matches of old_string (starting at lines 1, 3), but replace_all is false.");
    expect(await readFile(filePath, "utf8")).toBe("x = 1\ny = 2\nx = 1\n");
  });

  it("replaces every occurrence with replace_all", async () => {
    const filePath = await fixture("dup.txt", "x = 1\ny = 2\nx = 1\n");
    const result = await edit({ file_path: filePath, old_string: "x = 1", new_string: "x = 3", replace_all: true });
    expect(result.isError).toBe(false);
    expect(await readFile(filePath, "utf8")).toBe("x = 3\ny = 2\nx = 3\n");
    expect(result.details).toMatchObject({ replaceAll: true });
  });

  it("inserts new_string literally: $& and $1 are not replacement patterns", async () => {
    const filePath = await fixture("price.txt", "price: TBD\n");
    await edit({ file_path: filePath, old_string: "TBD", new_string: "$& costs $1 and $$" });
    expect(await readFile(filePath, "utf8")).toBe("price: $& costs $1 and $$\n");
  });

  it("edits a CRLF file with LF strings and writes it back with CRLF", async () => {
    const filePath = await fixture("windows.txt", "one\r\ntwo\r\nthree\r\n");
    const result = await edit({ file_path: filePath, old_string: "one\ntwo", new_string: "one\n2\nextra" });
    expect(result.isError).toBe(false);
    expect(await readFile(filePath, "utf8")).toBe("one\r\n2\r\nextra\r\nthree\r\n");
    expect(result.details).toMatchObject({
      originalFile: "one\r\ntwo\r\nthree\r\n",
      structuredPatch: [{ lines: [" one", "-two", "+2", "+extra", " three"] }],
    });
  });

  it("keeps bare LF lines of a mixed file untouched", async () => {
    const filePath = await fixture("mixed.txt", "a\r\nb\nc\r\n");
    await edit({ file_path: filePath, old_string: "b", new_string: "B" });
    expect(await readFile(filePath, "utf8")).toBe("a\r\nB\nc\r\n");
  });

  it.each([
    ["empty", ""],
    ["whitespace-only", "  \n\t"],
  ])("rejects an %s old_string with invalid_input", async (_label, oldString) => {
    const filePath = await fixture("a.txt", "a\n");
    const result = await edit({ file_path: filePath, old_string: oldString, new_string: "b" });
    expect(result.code).toBe("invalid_input");
    expect(result.content).toContain("use Write");
  });

  it("rejects old_string equal to new_string", async () => {
    const filePath = await fixture("a.txt", "a\n");
    const result = await edit({ file_path: filePath, old_string: "a", new_string: "a" });
    expect(result.code).toBe("invalid_input");
    expect(result.content).toContain("No changes to make");
  });

  it("applies a match that differs only in indentation and whitespace, re-indents new_string, and says so", async () => {
    const filePath = await fixture("code.py", "def f():\n\tif x:\n\t\treturn 1\n\treturn 0\n");
    const result = await edit({
      file_path: filePath,
      old_string: "    if x:\n        return 1",
      new_string: "    if x:\n        return 2",
    });
    expect(result.isError).toBe(false);
    expect(await readFile(filePath, "utf8")).toBe("def f():\n\tif x:\n\t\treturn 2\n\treturn 0\n");
    expect(result.content).toContain(
      "old_string was not found exactly; it matched ignoring whitespace differences at lines 2-3, which read:\nif x:\n\t\treturn 1",
    );
    expect(result.details).toMatchObject({ fuzzyMatch: { strategy: "whitespace", startLine: 2, endLine: 3, similarity: 1 } });
  });

  it("applies a nearly identical unique passage with diff-match-patch, keeping the file's own differences", async () => {
    const filePath = await fixture(
      "app.ts",
      "const total = computeTotal(items, taxRate);\n// Apply the discount for members.\nconst final = total * (1 - discount);\nexport { final };\n",
    );
    const result = await edit({
      file_path: filePath,
      // A slightly wrong comment (a typo) and a missing semicolon, as models sometimes write.
      old_string: "// Aply the discount for members.\nconst final = total * (1 - discount)",
      new_string: "// Aply the discount for members.\nconst final = total * (1 - discount) + shipping",
    });
    expect(result.isError).toBe(false);
    expect(await readFile(filePath, "utf8")).toBe(
      "const total = computeTotal(items, taxRate);\n// Apply the discount for members.\nconst final = total * (1 - discount) + shipping;\nexport { final };\n",
    );
    expect(result.content).toContain("matched approximately (");
    expect(result.details).toMatchObject({ fuzzyMatch: { strategy: "similar", startLine: 2, endLine: 3 } });
  });

  it("refuses a fuzzy match when two places match about equally well (edit_ambiguous)", async () => {
    const filePath = await fixture("twice.js", "function a() {\n  return compute(1, 2);\n}\nfunction b() {\n  return compute(1, 2);\n}\n");
    const original = await readFile(filePath, "utf8");
    const result = await edit({ file_path: filePath, old_string: "return   compute(1,2);", new_string: "return compute(3, 4);" });
    expect(result.code).toBe("edit_ambiguous");
    expect(result.content).toContain("line 2 (100% similar); line 5 (100% similar)");
    expect(await readFile(filePath, "utf8")).toBe(original);
  });

  it("refuses an approximate match found in two places (edit_ambiguous)", async () => {
    const block = "if (user.isAdmin) {\n  grantAccess(user, resource);\n}\n";
    const filePath = await fixture("blocks.ts", `${block}log();\n${block}`);
    const result = await edit({
      file_path: filePath,
      old_string: "if (user.isAdmin) {\n  grantAcces(user, resource);\n}",
      new_string: "deny();",
    });
    expect(result.code).toBe("edit_ambiguous");
    expect(result.content).toMatch(/lines 1-3 \(\d+% similar\); lines 5-7/);
  });

  it("fails with edit_no_match and shows the closest lines with their numbers", async () => {
    const filePath = await fixture("config.yml", "name: demo\nport: 8080\nhost: localhost\ndebug: false\n");
    const result = await edit({ file_path: filePath, old_string: "port: 9090\nhost: example.org", new_string: "port: 1" });
    expect(result.code).toBe("edit_no_match");
    expect(result.content).toContain("String to replace not found in file.\nString: port: 9090\nhost: example.org");
    expect(result.content).toMatch(/The closest text is lines 2-3 \(\d+% similar\):\n2\tport: 8080\n3\thost: localhost\n/);
  });

  it("fails with file_not_found for a missing file and points to Write", async () => {
    const result = await edit({ file_path: path.join(directory, "missing.txt"), old_string: "a", new_string: "b" });
    expect(result.code).toBe("file_not_found");
    expect(result.content).toContain("To create a new file, use Write.");
  });

  it("fails with outside_workspace for a path outside the workspace", async () => {
    const result = await edit({ file_path: "/etc/hostname", old_string: "a", new_string: "b" });
    expect(result.code).toBe("outside_workspace");
  });

  it("refuses a file with several hard links: the change would reach its other names, which may be outside", async () => {
    const outsideDirectory = await mkdtemp(path.join(os.tmpdir(), "agentwire-edit-outside-"));
    try {
      await writeFile(path.join(outsideDirectory, "shared.txt"), "value = 1\n");
      await link(path.join(outsideDirectory, "shared.txt"), path.join(directory, "hl"));
      const result = await edit({ file_path: "hl", old_string: "1", new_string: "2" });
      expect(result).toMatchObject({ isError: true, code: "permission_denied", content: expect.stringMatching(/2 hard links/) });
      expect(await readFile(path.join(outsideDirectory, "shared.txt"), "utf8")).toBe("value = 1\n");
    } finally {
      await rm(outsideDirectory, { recursive: true, force: true });
    }
  });

  it("edits through a symlink to a file inside the workspace and keeps the file's mode", async () => {
    const filePath = await fixture("real.sh", "echo one\n");
    await chmod(filePath, 0o750);
    await symlink("real.sh", path.join(directory, "alias.sh"));
    expect((await edit({ file_path: "alias.sh", old_string: "one", new_string: "two" })).isError).toBe(false);
    expect(await readFile(filePath, "utf8")).toBe("echo two\n");
    expect((await stat(filePath)).mode & 0o777).toBe(0o750);
  });

  it("fails with not_a_file for a binary file", async () => {
    const filePath = await fixture("data.bin", "ab\0cd");
    const result = await edit({ file_path: filePath, old_string: "ab", new_string: "xy" });
    expect(result.code).toBe("not_a_file");
  });

  it("refuses to write a redaction placeholder (redacted_secret)", async () => {
    const filePath = await fixture(".env", "A=1\nKEY=ghp_0123456789abcdefghijABCDEFGHIJ0123456789\n");
    const result = await edit({ file_path: filePath, old_string: "A=1", new_string: "A=2\nKEY=[REDACTED:github_token]" });
    expect(result.code).toBe("redacted_secret");
  });
});

describe("createMultiEditTool()", () => {
  it("applies every edit in order, each to the result of the previous, and writes once", async () => {
    const filePath = await fixture("m.txt", "one\ntwo\nthree\n");
    const result = await createMultiEditTool().execute(
      {
        file_path: filePath,
        edits: [
          { old_string: "one", new_string: "uno", replace_all: false },
          { old_string: "uno\ntwo", new_string: "uno\ndos", replace_all: false },
        ],
      },
      makeToolContext(directory),
    );
    expect(result.isError).toBe(false);
    expect(await readFile(filePath, "utf8")).toBe("uno\ndos\nthree\n");
    expect(result.details).toMatchObject({
      filePath,
      originalFile: "one\ntwo\nthree\n",
      structuredPatch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: ["-one", "-two", "+uno", "+dos", " three"] }],
    });
  });

  it("applies none when one edit fails, and names the failing edit", async () => {
    const filePath = await fixture("m.txt", "one\ntwo\n");
    const result = await createMultiEditTool().execute(
      {
        file_path: filePath,
        edits: [
          { old_string: "one", new_string: "uno", replace_all: false },
          { old_string: "zzz qqq www", new_string: "x", replace_all: false },
        ],
      },
      makeToolContext(directory),
    );
    expect(result.code).toBe("edit_no_match");
    expect(result.content).toMatch(/^Edit 2 of 2 failed, so no edit was applied: String to replace not found in file\./);
    expect(await readFile(filePath, "utf8")).toBe("one\ntwo\n");
  });
});
