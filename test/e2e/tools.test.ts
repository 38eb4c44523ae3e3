import { existsSync } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent, UserEvent } from "../../protocol/events.js";
import { createWorkspace, expectWellFormedRun, results, runAgentwire, type Workspace } from "../helpers/agentwire.js";

const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace;

afterEach(async () => {
  await workspace?.cleanup();
});

/** The tool results of a run, in order: the model-facing block plus the consumer fields. */
function toolResults(events: OutputEvent[]) {
  return events.flatMap((event) => {
    if (event.type !== "user") return [];
    const block = (event as UserEvent).message.content[0];
    if (block.type !== "tool_result") return [];
    return [
      { content: block.content, isError: block.is_error === true, toolUseResult: event.tool_use_result, code: event.tool_error_code },
    ];
  });
}

const toolTurn = (name: string, input: Record<string, unknown>) => ({ tool_calls: [{ name, input }] });

describe("every tool through the replay server", () => {
  it("Write, Edit, MultiEdit, Read, Glob + Grep + LS in parallel, TodoWrite and Bash in one session", async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, "README.md"), "# Demo\n");
    await workspace.useScenario({
      turns: [
        toolTurn("Write", { file_path: "notes/plan.md", content: "alpha\nbeta\n" }),
        toolTurn("Edit", { file_path: "notes/plan.md", old_string: "beta", new_string: "gamma $&" }),
        toolTurn("MultiEdit", {
          file_path: "notes/plan.md",
          edits: [
            { old_string: "alpha", new_string: "one" },
            { old_string: "one\ngamma", new_string: "one\ntwo" },
          ],
        }),
        toolTurn("Read", { file_path: "notes/plan.md" }),
        {
          tool_calls: [
            { name: "Glob", input: { pattern: "**/*.md" } },
            { name: "Grep", input: { pattern: "two", output_mode: "content" } },
            { name: "LS", input: {} },
          ],
        },
        toolTurn("TodoWrite", { todos: [{ content: "Check the plan", status: "in_progress", activeForm: "Checking the plan" }] }),
        toolTurn("Bash", { command: "cat notes/plan.md | wc -l" }),
        { text: "Done." },
      ],
    });
    const run = await runAgentwire(["-p", "Make a plan.", ...STREAM, "--dangerously-skip-permissions"], { workspace });
    expectWellFormedRun(run, 1);
    const init = run.events[0] as { tools: string[] };
    expect(init.tools).toEqual([
      "Task",
      "Bash",
      "Edit",
      "Glob",
      "Grep",
      "LS",
      "Monitor",
      "MultiEdit",
      "NotebookEdit",
      "Read",
      "TaskStop",
      "TodoWrite",
      "ToolSearch",
      "WebFetch",
      "WebSearch",
      "Write",
    ]);
    const planPath = join(workspace.cwd, "notes", "plan.md");
    const [write, edit, multiEdit, read, glob, grep, ls, todo, bash] = toolResults(run.events);

    expect(write).toMatchObject({
      isError: false,
      toolUseResult: { type: "create", filePath: planPath, structuredPatch: [], originalFile: null },
    });
    expect(edit).toMatchObject({
      content: `The file ${planPath} has been updated successfully. (file state is current in your context — no need to Read it back)`,
      toolUseResult: {
        filePath: planPath,
        oldString: "beta",
        newString: "gamma $&",
        originalFile: "alpha\nbeta\n",
        structuredPatch: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [" alpha", "-beta", "+gamma $&"] }],
        userModified: false,
        replaceAll: false,
      },
    });
    expect(multiEdit).toMatchObject({ isError: false, toolUseResult: { filePath: planPath, originalFile: "alpha\ngamma $&\n" } });
    expect(read).toMatchObject({
      content: "1\tone\n2\ttwo $&\n3\t",
      toolUseResult: { type: "text", file: { filePath: planPath, numLines: 3 } },
    });
    expect(glob!.content).toBe("notes/plan.md\nREADME.md");
    expect(glob!.toolUseResult).toMatchObject({ filenames: ["notes/plan.md", "README.md"], numFiles: 2, truncated: false });
    expect(grep).toMatchObject({
      content: "notes/plan.md:2:two $&",
      toolUseResult: { mode: "content", numFiles: 1, filenames: ["notes/plan.md"], numLines: 1 },
    });
    expect(ls!.content).toBe(`- ${workspace.cwd}/\n  - notes/\n    - plan.md\n  - README.md`);
    expect(todo).toMatchObject({
      isError: false,
      toolUseResult: { oldTodos: [], newTodos: [{ content: "Check the plan", status: "in_progress", activeForm: "Checking the plan" }] },
    });
    expect(bash).toMatchObject({
      isError: false,
      content: "2",
      toolUseResult: { stdout: "2", stderr: "", exitCode: 0, interrupted: false },
    });
    expect(await readFile(planPath, "utf8")).toBe("one\ntwo $&\n");
  });

  it("expected failures carry tool_error_code: edit_not_unique, edit_no_match, outside_workspace (symlink), timeout", async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, "dup.txt"), "x\nx\n");
    await mkdir(join(workspace.home, "private"));
    await writeFile(join(workspace.home, "private", "secret.txt"), "top secret\n");
    await symlink(join(workspace.home, "private"), join(workspace.cwd, "link"));
    await workspace.useScenario({
      turns: [
        toolTurn("Edit", { file_path: "dup.txt", old_string: "x", new_string: "y" }),
        toolTurn("Edit", { file_path: "dup.txt", old_string: "nothing like it at all", new_string: "y" }),
        toolTurn("Read", { file_path: "link/secret.txt" }),
        toolTurn("Bash", { command: "sleep 5", timeout: 300 }),
        { text: "Noted." },
      ],
    });
    // No bypass: the workspace policy applies (the permission system lets reads inside the cwd run).
    const run = await runAgentwire(["-p", "Try things.", ...STREAM, "--permission-mode", "acceptEdits", "--allowedTools", "Bash"], {
      workspace,
    });
    expectWellFormedRun(run, 1);
    const [notUnique, noMatch, outside, timeout] = toolResults(run.events);
    expect(notUnique).toMatchObject({ isError: true, code: "edit_not_unique" });
    expect(notUnique!.toolUseResult).toMatch(/^Error: Found 2 matches of old_string/);
    expect(noMatch).toMatchObject({ isError: true, code: "edit_no_match" });
    expect(outside).toMatchObject({ isError: true, code: "outside_workspace" });
    expect(outside!.content).not.toContain("top secret");
    expect(timeout).toMatchObject({ isError: true, code: "timeout", toolUseResult: { interrupted: true } });
  });

  it("long Bash output: head and tail, a full-output file the model is told about, removed at exit", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [toolTurn("Bash", { command: "seq 1 300000" }), { text: "Long." }] });
    const run = await runAgentwire(["-p", "Count.", ...STREAM, "--dangerously-skip-permissions"], { workspace });
    expectWellFormedRun(run, 1);
    const [bash] = toolResults(run.events);
    const fullOutputPath = (bash!.toolUseResult as { fullOutputPath: string }).fullOutputPath;
    expect(fullOutputPath).toMatch(/agentwire-[0-9a-f-]+-\d+\/bash-1\.log$/);
    expect(bash!.content).toContain("[... 299900 lines truncated ...]");
    expect(bash!.content).toContain(`is in ${fullOutputPath}; page through it with Read offset/limit`);
    expect(existsSync(fullOutputPath)).toBe(false);
  });

  it("a long-running Bash call reports tool_progress about once a second before its result", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [toolTurn("Bash", { command: "echo start; sleep 2.6; echo end" }), { text: "ok" }] });
    const run = await runAgentwire(["-p", "Run it", ...STREAM, "--dangerously-skip-permissions"], { workspace });
    expectWellFormedRun(run, 1);
    const progress = run.events.filter((event) => event.type === "tool_progress");
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]).toMatchObject({ tool_name: "Bash", parent_tool_use_id: null, progress: { details: { outputLines: 1 } } });
    const elapsed = progress.map((event) => (event as { elapsed_time_seconds: number }).elapsed_time_seconds);
    expect([...elapsed].sort((a, b) => a - b)).toEqual(elapsed);
    const resultIndex = run.events.findIndex((event) => event.type === "user");
    expect(run.events.findLastIndex((event) => event.type === "tool_progress")).toBeLessThan(resultIndex);
  });

  it("secrets in tool output are redacted on stdout and counted in a warning, not on stderr", async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, ".env"), "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz012345\n");
    await workspace.useScenario({ turns: [toolTurn("Read", { file_path: ".env" }), { text: "Read it." }] });
    const run = await runAgentwire(["-p", "Read .env", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(run.stdout).not.toContain("sk-proj-abcdefghijklmnopqrstuvwxyz012345");
    expect(toolResults(run.events)[0]!.content).toBe("1\tOPENAI_API_KEY=[REDACTED:openai_api_key]\n2\t");
    expect(run.events.find((event) => event.type === "system" && event.subtype === "warning")).toMatchObject({
      code: "secrets_redacted",
      message: expect.stringContaining("Redacted 1 secret(s) (openai_api_key) from the Read result"),
    });
    expect(run.stderr).toBe("");
    // The model's next request carries the redacted text only.
    expect(JSON.stringify(workspace.server.requests[1]!.body)).not.toContain("sk-proj-abcdefghijklmnopqrstuvwxyz012345");
  });

  it("Read sends a real image as an image block, and a file that only starts like one as an error, never an image", async () => {
    workspace = await createWorkspace("text");
    const png = Buffer.from(
      "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082",
      "hex",
    );
    await writeFile(join(workspace.cwd, "real.png"), png);
    await writeFile(join(workspace.cwd, "broken.png"), png.subarray(0, 45));
    await workspace.useScenario({
      turns: [toolTurn("Read", { file_path: "broken.png" }), toolTurn("Read", { file_path: "real.png" }), { text: "ok" }],
    });
    const run = await runAgentwire(["-p", "Look at the images", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    const [broken, real] = toolResults(run.events);
    expect(broken).toMatchObject({
      isError: true,
      code: "not_a_file",
      content: expect.stringMatching(/broken\.png is a binary file \(PNG image, 45 bytes\).*It is not a valid image \(it is cut short/),
    });
    expect(real).toMatchObject({
      isError: false,
      content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: png.toString("base64") } }],
    });
    // What the model API received: text for the broken file, an image for the real one.
    type Block = { type: string; content?: unknown };
    const lastRequest = workspace.server.requests.at(-1)!.body as { messages: Array<{ role: string; content: Block[] }> };
    const results = lastRequest.messages.flatMap((message) => message.content.filter((block) => block.type === "tool_result"));
    expect(typeof results[0]!.content === "string" || (results[0]!.content as Block[]).every((block) => block.type === "text")).toBe(true);
    expect((results[1]!.content as Block[]).map((block) => block.type)).toEqual(["image"]);
  });

  it("--add-dir lets tools use another directory", async () => {
    workspace = await createWorkspace("text");
    const extra = join(workspace.home, "extra");
    await mkdir(extra);
    await writeFile(join(extra, "shared.txt"), "shared\n");
    await workspace.useScenario({ turns: [toolTurn("Read", { file_path: join(extra, "shared.txt") }), { text: "ok" }] });
    const run = await runAgentwire(["-p", "Read it", ...STREAM, "--add-dir", extra], { workspace });
    expectWellFormedRun(run, 1);
    expect(toolResults(run.events)[0]).toMatchObject({ isError: false, content: "1\tshared\n2\t" });
  });
});

describe("tool selection flags", () => {
  it("--tools offers exactly the named tools, in system/init and in the API request", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "hi", ...STREAM, "--tools", "Read,Grep"], { workspace });
    expectWellFormedRun(run, 1);
    expect((run.events[0] as { tools: string[] }).tools).toEqual(["Grep", "Read"]);
    const body = workspace.server.requests[0]!.body as { tools: Array<{ name: string }> };
    expect(body.tools.map((tool) => tool.name)).toEqual(["Grep", "Read"]);
  });

  it('--tools "" offers no tools; --disallowedTools removes one', async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "a", repeat: true }] });
    const none = await runAgentwire(["-p", "hi", ...STREAM, "--tools", ""], { workspace });
    expect((none.events[0] as { tools: string[] }).tools).toEqual([]);
    const withoutBash = await runAgentwire(["-p", "hi", ...STREAM, "--disallowedTools", "Bash"], { workspace });
    expect((withoutBash.events[0] as { tools: string[] }).tools).not.toContain("Bash");
    expect((withoutBash.events[0] as { tools: string[] }).tools).toContain("Read");
  });

  it("an unknown name in --tools is a clear error before any request", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "hi", ...STREAM, "--tools", "Read,Telepathy"], { workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Unknown tool name in --tools: Telepathy. Available tools: Agent, Bash, Edit,");
    expect(results(run.events)[0]).toMatchObject({ is_error: true, terminal_reason: "invalid_arguments" });
    expect(workspace.server.requests).toHaveLength(0);
  });

  it("--list-tools prints names and descriptions, or the JSON schemas with --output-format json", async () => {
    workspace = await createWorkspace("text");
    const text = await runAgentwire(["--list-tools"], { workspace });
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines.map((line) => line.split(/\s+/)[0])).toEqual([
      "Agent",
      "Bash",
      "Edit",
      "Glob",
      "Grep",
      "LS",
      "Monitor",
      "MultiEdit",
      "NotebookEdit",
      "Read",
      "TaskStop",
      "TodoWrite",
      "ToolSearch",
      "WebFetch",
      "WebSearch",
      "Write",
    ]);
    expect(lines[6]).toMatch(/^NotebookEdit\s+Changes one cell of a Jupyter notebook \(\.ipynb\)/);
    expect(lines[7]).toMatch(/^Read\s+Shows a file's contents with line numbers\.$/);
    const json = await runAgentwire(["--list-tools", "--output-format", "json", "--tools", "Edit"], { workspace });
    expect(json.code).toBe(0);
    expect(json.stdout.endsWith("\n")).toBe(true);
    const listing = JSON.parse(json.stdout) as Array<{ name: string; description: string; input_schema: { required: string[] } }>;
    expect(listing).toHaveLength(1);
    expect(listing[0]).toMatchObject({
      name: "Edit",
      input_schema: { type: "object", required: ["file_path", "old_string", "new_string"] },
    });
    expect(listing[0]!.description).toContain("Replaces text in an existing file");
    expect(workspace.server.requests).toHaveLength(0);
  });
});
