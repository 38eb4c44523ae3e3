import { describe, expect, it } from "vitest";
import { describeResult, diffRows, keyArgument } from "../../web/tool-summary.js";

describe("web page tool cards", () => {
  it("names each call by its key argument, as the terminal renderer does", () => {
    expect(keyArgument("Write", { file_path: "/repo/out/new.txt", content: "x" }, "/repo")).toBe("out/new.txt");
    expect(keyArgument("Bash", { command: "npm test\nnpm run lint" }, "/repo")).toBe("npm test …");
    expect(keyArgument("Grep", { pattern: "TODO", path: "/repo/src" }, "/repo")).toBe("TODO in src");
    expect(keyArgument("TodoWrite", { todos: [{}, {}] }, "/repo")).toBe("2 items");
    expect(keyArgument("Read", { file_path: "/elsewhere/a.txt" }, "/repo")).toBe("/elsewhere/a.txt");
  });

  it("summarizes results: line counts, exit codes, errors in full", () => {
    expect(describeResult("Read", { file_path: "a" }, { content: "1\ta\n2\tb\n" }, { type: "text", file: { numLines: 2 } }, "/repo").summary).toBe("read 2 lines");
    expect(describeResult("Bash", { command: "ls" }, { content: "a\nb\nc" }, { stdout: "a\nb\nc", stderr: "", exitCode: 0 }, "/repo").summary).toBe("3 lines of output");
    const failed = describeResult("Bash", { command: "false" }, { content: "boom", is_error: true }, { stdout: "", stderr: "boom\n", exitCode: 2, interrupted: false }, "/repo");
    expect(failed).toEqual({ failed: true, summary: "exit 2", output: "boom" });
    const error = describeResult("Read", {}, { content: "<tool_use_error>File does not exist.\nDid you mean a.txt?</tool_use_error>", is_error: true }, "Error: File does not exist.", "/repo");
    expect(error).toEqual({ failed: true, summary: "File does not exist.", output: "File does not exist.\nDid you mean a.txt?" });
  });

  it("turns a structured patch into diff rows", () => {
    const hunks = [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [" keep", "-old", "+new"] }];
    expect(diffRows(hunks)).toEqual([
      { kind: "hunk", text: "@@ -1,2 +1,2 @@" },
      { kind: "context", text: " keep" },
      { kind: "del", text: "-old" },
      { kind: "add", text: "+new" },
    ]);
    const edit = describeResult("Edit", { file_path: "/repo/a.txt" }, { content: "ok" }, { filePath: "/repo/a.txt", structuredPatch: hunks }, "/repo");
    expect(edit.summary).toBe("updated a.txt: +1 -1");
    const created = describeResult("Write", { file_path: "/repo/n.txt" }, { content: "ok" }, { type: "create", filePath: "/repo/n.txt", content: "one\ntwo\n", structuredPatch: [] }, "/repo");
    expect(created).toEqual({ failed: false, summary: "created n.txt (2 lines)", diff: [{ kind: "add", text: "+one" }, { kind: "add", text: "+two" }] });
  });
});
