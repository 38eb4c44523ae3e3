import { describe, expect, it } from "vitest";
import {
  describeCall,
  describeResult,
  describeSubagent,
  diffRows,
  keyArgument,
  markdownBlocks,
  parseInline,
  permissionDescription,
} from "../../src/render/present/index.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { createStyle } from "../../src/render/style.js";

/**
 * The presentation every view shares (terminal, chat, web page): what a call, its result and an
 * answer's markdown say, before any styling.
 */
describe("presenting tool calls", () => {
  it("names each call by its key argument, paths relative to the session's folder", () => {
    expect(keyArgument("Write", { file_path: "/repo/out/new.txt", content: "x" }, "/repo")).toBe("out/new.txt");
    expect(keyArgument("Bash", { command: "npm test\nnpm run lint" }, "/repo")).toBe("npm test …");
    expect(keyArgument("Grep", { pattern: "TODO", path: "/repo/src" }, "/repo")).toBe("TODO in src");
    expect(keyArgument("Glob", { path: "/repo" }, "/repo")).toBe(".");
    expect(keyArgument("TodoWrite", { todos: [{}, {}] }, "/repo")).toBe("2 items");
    expect(keyArgument("Read", { file_path: "/elsewhere/a.txt" }, "/repo")).toBe("/elsewhere/a.txt");
    expect(keyArgument("Read", { file_path: "/repository/a.txt" }, "/repo")).toBe("/repository/a.txt");
    expect(keyArgument("Odd", { limit: 3 }, "/repo")).toBe('{"limit":3}');
    expect(keyArgument("Odd", {}, "/repo")).toBe("");
  });

  it("describes a call within a width", () => {
    expect(describeCall("Bash", { command: "echo hello" }, "/repo", 80)).toBe("Bash echo hello");
    expect(describeCall("Bash", { command: "x".repeat(100) }, "/repo", 40)).toBe(`Bash ${"x".repeat(25)}…`);
  });

  it("gives the host Claude Code's unabridged subject as a permission request's description", () => {
    expect(permissionDescription({ name: "Read", input: { file_path: "/tmp/outside/o.txt" } })).toBe("/tmp/outside/o.txt");
    expect(permissionDescription({ name: "Bash", input: { command: "npm test\nnpm run lint", description: "tests" } })).toBe(
      "npm test\nnpm run lint",
    );
    expect(permissionDescription({ name: "Grep", input: { pattern: "TODO" } })).toBe("TODO");
    expect(permissionDescription({ name: "WebFetch", input: { url: "https://example.com" } })).toBe("WebFetch");
    expect(permissionDescription({ name: "Bash", input: { command: 3 } })).toBe("Bash");
  });

  it("summarizes background work: where a background command or agent went, which task TaskStop stopped", () => {
    const started = { stdout: "", stderr: "", interrupted: false, backgroundTaskId: "babc12345" };
    expect(
      describeResult("Bash", { command: "npm run dev", run_in_background: true }, { content: "Command running…" }, started, "/repo", 120)
        .summary,
    ).toBe("running in the background as babc12345");
    const stopped = {
      message: "Successfully stopped task: babc12345 (sleep 9)",
      task_id: "babc12345",
      task_type: "local_bash",
      command: "sleep 9",
    };
    expect(describeResult("TaskStop", { task_id: "babc12345" }, { content: JSON.stringify(stopped) }, stopped, "/repo", 120).summary).toBe(
      "stopped babc12345",
    );
    const launched = { isAsync: true, status: "async_launched", agentId: "a0123456789abcdef", description: "Survey", prompt: "Look" };
    expect(
      describeResult(
        "Agent",
        { description: "Survey", prompt: "Look", run_in_background: true },
        { content: "Async agent launched…" },
        launched,
        "/repo",
        120,
      ).summary,
    ).toBe("agent running in the background as a0123456789abcdef");
    expect(describeCall("TaskStop", { task_id: "babc12345" }, "/repo", 120)).toBe("TaskStop babc12345");
    expect(describeCall("Monitor", { description: "errors", command: "tail -f log | grep --line-buffered ERROR" }, "/repo", 120)).toBe(
      "Monitor tail -f log | grep --line-buffered ERROR",
    );
  });

  it("shows an Agent call's hand-back as the subagent's report, with the work it took", () => {
    const details = { status: "completed", content: [{ type: "text", text: "Found it." }], totalToolUseCount: 3, totalTokens: 1200 };
    const outcome = describeResult(
      "Agent",
      { description: "Look" },
      { content: [{ type: "text", text: "<tools-used…" }] },
      details,
      "/repo",
      120,
    );
    expect(outcome).toEqual({
      kind: "done",
      failed: false,
      summary: "subagent reported after 3 tool calls, 1200 tokens",
      output: "Found it.",
    });
  });

  it("summarizes results: line counts, exit codes, errors in full", () => {
    expect(
      describeResult("Read", { file_path: "a" }, { content: "1\ta\n2\tb\n" }, { type: "text", file: { numLines: 2 } }, "/repo", 120)
        .summary,
    ).toBe("read 2 lines");
    expect(describeResult("Read", {}, { content: [{ type: "image" }] }, { type: "image", file: {} }, "/repo", 120).summary).toBe(
      "read an image",
    );
    expect(
      describeResult("Bash", { command: "ls" }, { content: "a\nb\nc" }, { stdout: "a\nb\nc", stderr: "", exitCode: 0 }, "/repo", 120)
        .summary,
    ).toBe("3 lines of output");
    expect(describeResult("Bash", { command: "ls" }, { content: "" }, { stdout: "", stderr: "", exitCode: 1 }, "/repo", 120).summary).toBe(
      "exit 1, no output",
    );
    expect(describeResult("Skill", {}, { content: "x".repeat(50) }, undefined, "/repo", 20).summary).toBe(`${"x".repeat(19)}…`);
    expect(describeResult("Skill", {}, {}, undefined, "/repo", 20).summary).toBe("done");
    const loaded = { content: [{ type: "tool_reference", tool_name: "WebFetch" }] };
    const search = { matches: ["WebFetch", "WebSearch"], query: "web", total_deferred_tools: 9 };
    expect(describeResult("ToolSearch", { query: "web" }, loaded, search, "/repo", 120).summary).toBe("loaded WebFetch, WebSearch");
    expect(describeResult("ToolSearch", { query: "x" }, { content: "none" }, { ...search, matches: [] }, "/repo", 120).summary).toBe(
      "no tool matched",
    );
    expect(describeResult("ToolSearch", { query: "web" }, loaded, search, "/repo", 120)).toMatchObject({ output: "[loaded WebFetch]" });
    const failed = describeResult(
      "Bash",
      { command: "false" },
      { content: "boom", is_error: true },
      { stdout: "", stderr: "boom\n", exitCode: 2, interrupted: false },
      "/repo",
      120,
    );
    expect(failed).toEqual({ kind: "exit", failed: true, summary: "exit 2", output: "boom" });
    const error = describeResult(
      "Read",
      {},
      { content: "<tool_use_error>File does not exist.\nDid you mean a.txt?</tool_use_error>", is_error: true },
      "Error: File does not exist.",
      "/repo",
      120,
    );
    expect(error).toEqual({
      kind: "error",
      failed: true,
      summary: "File does not exist.",
      output: "File does not exist.\nDid you mean a.txt?",
    });
  });

  it("shows a fetched page as its URL and size, a redirect as such", () => {
    expect(keyArgument("WebFetch", { url: "https://example.com/docs", prompt: "What?" }, "/repo")).toBe("https://example.com/docs");
    const page = { bytes: 12_800, code: 200, codeText: "OK", result: "…", durationMs: 40, url: "https://example.com/docs" };
    expect(describeResult("WebFetch", {}, { content: "Some\npage" }, page, "/repo", 120)).toMatchObject({
      kind: "done",
      summary: "fetched 12.5 KB (200 OK)",
      output: "Some\npage",
    });
    expect(describeResult("WebFetch", {}, { content: "x" }, { ...page, bytes: 512 }, "/repo", 120).summary).toBe(
      "fetched 512 bytes (200 OK)",
    );
    expect(describeResult("WebFetch", {}, { content: "x" }, { ...page, bytes: 3_500_000 }, "/repo", 120).summary).toBe(
      "fetched 3.3 MB (200 OK)",
    );
    expect(
      describeResult("WebFetch", {}, { content: "REDIRECT" }, { ...page, bytes: 0, code: 302, codeText: "Found" }, "/repo", 120).summary,
    ).toBe("redirected (302 Found)");
  });

  it("ignores details of the wrong shape", () => {
    // An exit code that is not a number is no command result: the text speaks.
    expect(describeResult("Bash", {}, { content: "one line" }, { stdout: "", stderr: "", exitCode: "1" }, "/repo", 120).summary).toBe(
      "one line",
    );
    expect(describeResult("Edit", {}, { content: "ok" }, { structuredPatch: [{ oldStart: 1 }] }, "/repo", 120).summary).toBe("ok");
  });

  it("turns a structured patch, a new file or a stored edit into diff rows", () => {
    const hunks = [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [" keep", "-old", "+new"] }];
    expect(diffRows(hunks)).toEqual([
      { kind: "hunk", text: "@@ -1,2 +1,2 @@" },
      { kind: "context", text: " keep" },
      { kind: "del", text: "-old" },
      { kind: "add", text: "+new" },
    ]);
    const edit = describeResult(
      "Edit",
      { file_path: "/repo/a.txt" },
      { content: "ok" },
      { filePath: "/repo/a.txt", structuredPatch: hunks },
      "/repo",
      120,
    );
    expect(edit.summary).toBe("updated a.txt: +1 -1");
    const created = describeResult(
      "Write",
      { file_path: "/repo/n.txt" },
      { content: "ok" },
      { type: "create", filePath: "/repo/n.txt", content: "one\ntwo\n", structuredPatch: [] },
      "/repo",
      120,
    );
    expect(created).toEqual({
      kind: "created",
      failed: false,
      summary: "created n.txt (2 lines)",
      diff: [
        { kind: "add", text: "+one" },
        { kind: "add", text: "+two" },
      ],
    });
    const stored = describeResult(
      "MultiEdit",
      { file_path: "/repo/a.txt", edits: [{ old_string: "a", new_string: "b" }] },
      { content: "ok" },
      undefined,
      "/repo",
      120,
    );
    expect(stored).toEqual({
      kind: "updated",
      failed: false,
      summary: "updated a.txt",
      diff: [
        { kind: "del", text: "-a" },
        { kind: "add", text: "+b" },
      ],
    });
  });
});

describe("a notebook in every view", () => {
  const original = JSON.stringify({
    cells: [
      { cell_type: "markdown", id: "intro", metadata: {}, source: ["# Tide\n", "notebook"] },
      { cell_type: "code", metadata: {}, outputs: [], source: "x = 40 + 2\nx" },
    ],
  });
  const details = (extra: Record<string, unknown>) => ({
    language: "python",
    error: "",
    notebook_path: "/repo/nb.ipynb",
    original_file: original,
    ...extra,
  });

  it("shows a replaced cell as a cell diff: its old source removed, the new one added", () => {
    const replaced = describeResult(
      "NotebookEdit",
      { notebook_path: "/repo/nb.ipynb", cell_id: "cell-1", new_source: "x = 43\nx\n" },
      { content: "Updated cell cell-1 with x = 43" },
      details({ new_source: "x = 43\nx\n", cell_id: "cell-1", cell_type: "code", edit_mode: "replace" }),
      "/repo",
      120,
    );
    expect(replaced).toEqual({
      kind: "updated",
      failed: false,
      summary: "updated cell cell-1 in nb.ipynb",
      diff: [
        { kind: "hunk", text: "@@ cell cell-1 (code) @@" },
        { kind: "del", text: "-x = 40 + 2" },
        { kind: "del", text: "-x" },
        { kind: "add", text: "+x = 43" },
        { kind: "add", text: "+x" },
      ],
    });
  });

  it("shows an insert as added lines, a delete as removed ones, and a stored call by its input", () => {
    const inserted = describeResult(
      "NotebookEdit",
      { notebook_path: "/repo/nb.ipynb", cell_id: "intro", new_source: "## Next", cell_type: "markdown", edit_mode: "insert" },
      { content: "Inserted cell ab12cd34 with ## Next" },
      details({ new_source: "## Next", cell_id: "ab12cd34", cell_type: "markdown", edit_mode: "insert" }),
      "/repo",
      120,
    );
    expect(inserted.summary).toBe("inserted cell ab12cd34 in nb.ipynb");
    expect(inserted.kind === "updated" && inserted.diff).toEqual([
      { kind: "hunk", text: "@@ cell ab12cd34 (markdown) @@" },
      { kind: "add", text: "+## Next" },
    ]);
    const deleted = describeResult(
      "NotebookEdit",
      { notebook_path: "/repo/nb.ipynb", cell_id: "intro", new_source: "", edit_mode: "delete" },
      { content: "Deleted cell intro" },
      details({ new_source: "", cell_id: "intro", cell_type: "markdown", edit_mode: "delete" }),
      "/repo",
      120,
    );
    expect(deleted.kind === "updated" && deleted.diff.map((row) => row.text)).toEqual([
      "@@ cell intro (markdown) @@",
      "-# Tide",
      "-notebook",
    ]);
    const withOldSource = describeResult(
      "NotebookEdit",
      { notebook_path: "/repo/nb.ipynb", cell_id: "x", new_source: "b" },
      { content: "Updated cell x with b" },
      { new_source: "b", old_source: "a", cell_id: "x", cell_type: "code", edit_mode: "replace" },
      "/repo",
      120,
    );
    expect(withOldSource.kind === "updated" && withOldSource.diff.map((row) => row.text)).toEqual(["@@ cell x (code) @@", "-a", "+b"]);
    const stored = describeResult(
      "NotebookEdit",
      { notebook_path: "/repo/nb.ipynb", cell_id: "intro", new_source: "# Tides" },
      { content: "ok" },
      undefined,
      "/repo",
      120,
    );
    expect(stored.kind === "updated" && stored.diff.map((row) => row.text)).toEqual(["@@ cell intro @@", "+# Tides"]);
  });

  it("summarizes a notebook Read by its cells, and names the notebook of a call", () => {
    const read = describeResult(
      "Read",
      { file_path: "/repo/nb.ipynb" },
      { content: [{ type: "text", text: "<cell id=…" }] },
      { type: "notebook", file: { filePath: "/repo/nb.ipynb", cells: [{}, {}] } },
      "/repo",
      120,
    );
    expect(read.summary).toBe("read 2 cells");
    expect(describeCall("NotebookEdit", { notebook_path: "/repo/nb.ipynb", cell_id: "intro" }, "/repo", 80)).toBe("NotebookEdit nb.ipynb");
  });
});

describe("parsing markdown", () => {
  it("classifies lines and keeps fenced code whole", () => {
    expect(markdownBlocks("# Title ##\n\n- one\n  2) two\n> quoted\n---\n```ts\nconst a = 1;\n~~~\n```\ntext")).toEqual([
      { type: "heading", level: 1, text: "Title" },
      { type: "blank" },
      { type: "item", indent: 0, marker: "-", ordered: false, text: "one" },
      { type: "item", indent: 2, marker: "2)", ordered: true, text: "two" },
      { type: "quote", text: "quoted" },
      { type: "rule", text: "---" },
      { type: "code", language: "ts", lines: ["const a = 1;", "~~~"] },
      { type: "line", text: "text" },
    ]);
    expect(markdownBlocks("# C#")).toEqual([{ type: "heading", level: 1, text: "C#" }]);
    expect(markdownBlocks("a\r\n```\nstill streaming")).toEqual([
      { type: "line", text: "a" },
      { type: "code", language: "", lines: ["still streaming"] },
    ]);
  });

  it("parses inline markup: code is literal, links only to safe targets, emphasis may span code", () => {
    expect(parseInline("Some **bold**, *it* and `a **b**`.")).toEqual([
      { type: "text", text: "Some " },
      { type: "strong", marker: "**", children: [{ type: "text", text: "bold" }] },
      { type: "text", text: ", " },
      { type: "emphasis", marker: "*", children: [{ type: "text", text: "it" }] },
      { type: "text", text: " and " },
      { type: "code", text: "a **b**" },
      { type: "text", text: "." },
    ]);
    expect(parseInline("**see `x`**")).toEqual([
      {
        type: "strong",
        marker: "**",
        children: [
          { type: "text", text: "see " },
          { type: "code", text: "x" },
        ],
      },
    ]);
    expect(parseInline("[docs](https://example.com) [x](javascript:alert(1))")).toEqual([
      { type: "link", href: "https://example.com", children: [{ type: "text", text: "docs" }] },
      { type: "text", text: " [x](javascript:alert(1))" },
    ]);
    expect(parseInline("*a **b** c*")).toEqual([
      {
        type: "emphasis",
        marker: "*",
        children: [
          { type: "text", text: "a " },
          { type: "strong", marker: "**", children: [{ type: "text", text: "b" }] },
          { type: "text", text: " c" },
        ],
      },
    ]);
    expect(parseInline("read_file_now and 2*3*4")).toEqual([{ type: "text", text: "read_file_now and 2*3*4" }]);
    // The placeholders' characters in the text itself cannot stand for code or links.
    expect(parseInline("\uE0000\uE001 `x`")).toEqual([
      { type: "text", text: "\uFFFD0\uFFFD " },
      { type: "code", text: "x" },
    ]);
  });

  it("is styled by the terminal per wrapped line", () => {
    const style = createStyle(true);
    expect(renderMarkdown("**bold** and `code` and *it* and [a](https://x.example)", 80, style)).toEqual([
      "\u001b[1mbold\u001b[22m and \u001b[36mcode\u001b[39m and *it* and [a](https://x.example)",
    ]);
    expect(renderMarkdown("- one\n   - two\n3. three", 80, createStyle(false))).toEqual(["• one", "   • two", "3. three"]);
  });
});

describe("presenting web search results", () => {
  const details = {
    query: "tides",
    results: [
      { tool_use_id: "a", content: [{ title: "Tide tables", url: "https://tides.example.org/" }] },
      "A summary.",
      { tool_use_id: "b", content: [{ title: "", url: "https://news.example.com/" }] },
    ],
    durationSeconds: 2,
    searchCount: 2,
  };

  it("counts every search's links and lists them, one a line", () => {
    expect(describeResult("WebSearch", { query: "tides" }, { content: "…" }, details, "/repo", 60)).toEqual({
      kind: "done",
      failed: false,
      summary: "2 results",
      output: "Tide tables — https://tides.example.org/\nhttps://news.example.com/",
      links: [
        { title: "Tide tables", url: "https://tides.example.org/" },
        { title: "https://news.example.com/", url: "https://news.example.com/" },
      ],
    });
  });

  it("leaves details of another shape alone, and shows a failed search as an error", () => {
    const other = describeResult("WebSearch", {}, { content: "one line" }, { query: "x", results: [{ content: [{}] }] }, "/repo", 60);
    expect(other).toMatchObject({ kind: "done", summary: "one line" });
    expect(other).not.toHaveProperty("links");
    expect(describeResult("WebSearch", {}, { content: "no backend", is_error: true }, "Error: no backend", "/repo", 60)).toMatchObject({
      kind: "error",
      failed: true,
    });
  });

  it("a subagent's own line: tool uses, tokens, its price when the hand-back carries one (agentwire's does), time", () => {
    const details = {
      status: "completed",
      content: [{ type: "text", text: "Found it." }],
      totalToolUseCount: 1,
      totalTokens: 40_500,
      totalDurationMs: 1300,
      usage: { input_tokens: 40_000, output_tokens: 500 },
      total_cost_usd: 0.17,
    };
    const input = { description: "Look", subagent_type: "general-purpose" };
    const summary = describeSubagent(input, undefined, { block: { content: [] }, details });
    expect(summary.facts).toEqual(["1 tool use", "40,500 tokens (40,000 in, 500 out)", "$0.1700", "1.3 s"]);
    // Claude Code's hand-back has no price: the line simply goes without it.
    const { total_cost_usd: _price, ...claudeCodes } = details;
    expect(describeSubagent(input, undefined, { block: { content: [] }, details: claudeCodes }).facts).not.toContain("$0.1700");
  });
});
