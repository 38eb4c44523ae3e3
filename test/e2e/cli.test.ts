import { afterEach, describe, expect, it } from "vitest";
import {
  agentwireEnv,
  createWorkspace,
  expectWellFormedRun,
  results,
  ROOT,
  runAgentwire,
  spawnAgentwire,
  waitForEvent,
  waitForExit,
  type Workspace,
} from "../helpers/agentwire.js";

let workspace: Workspace;

afterEach(async () => {
  await workspace?.cleanup();
});

describe("command line", () => {
  it("--version and --help print to stdout and exit 0", async () => {
    workspace = await createWorkspace("text");
    const version = await runAgentwire(["--version"], { workspace });
    expect(version.code).toBe(0);
    // The Claude Code release whose protocol agentwire follows, then agentwire's own version.
    expect(version.stdout).toMatch(/^2\.\d+\.\d+ \(agentwire \d+\.\d+\.\d+\)\n$/);
    const help = await runAgentwire(["--help"], { workspace });
    expect(help.code).toBe(0);
    for (const flag of [
      "--print",
      "--output-format",
      "--input-format",
      "--model",
      "--resume",
      "--continue",
      "--max-turns",
      "--include-partial-messages",
    ]) {
      expect(help.stdout).toContain(flag);
    }
  });

  it("the quick --version / --help answers (before the bundle loads) say what the CLI itself says", async () => {
    workspace = await createWorkspace("text");
    const { execFileSync } = await import("node:child_process");
    const cli = (args: string[]) => execFileSync(process.execPath, [`${ROOT}/dist/cli.cjs`, ...args], { encoding: "utf8" });
    for (const args of [["--version"], ["-v"], ["--help"], ["-h"], ["start", "--help"]]) {
      const quick = await runAgentwire(args, { workspace });
      expect(quick.code, args.join(" ")).toBe(0);
      expect(quick.stdout, args.join(" ")).toBe(cli(args));
    }
  });

  it("the quick answers end quietly when the reader has already gone (`| head`, `| grep -q`)", async () => {
    workspace = await createWorkspace("text");
    for (const args of [["--help"], ["--version"]]) {
      const child = spawnAgentwire(args, { workspace });
      // Closed before the child (still starting) writes: its write meets a broken pipe.
      child.stdout.destroy();
      child.stdin.end();
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect({ code, stderr }, args.join(" ")).toEqual({ code: 0, stderr: "" });
    }
  });

  it("an unknown flag: a clear error on stderr, a terminal result in stream-json, exit 1", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "hi", "--output-format", "stream-json", "--verbose", "--bogus-flag"], { workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("Error: Unknown option: --bogus-flag. Run agentwire --help for the supported options.\n");
    expectWellFormedRun(run, 1);
    expect(results(run.events)[0]).toMatchObject({
      is_error: true,
      terminal_reason: "invalid_arguments",
      errors: ["Unknown option: --bogus-flag. Run agentwire --help for the supported options."],
    });
    expect(workspace.server.requests).toHaveLength(0);
  });

  it('the prompt can be a positional argument, also after flags (claude -p --flags "prompt")', async () => {
    workspace = await createWorkspace("multi-turn");
    const run = await runAgentwire(["-p", "--output-format", "json", "Say", "hello."], { workspace });
    expect(run.code).toBe(0);
    const body = workspace.server.requests[0]!.body as { messages: Array<{ content: Array<{ text: string }> }> };
    expect(body.messages[0]!.content[0]!.text).toBe("Say hello.");
    const bare = await runAgentwire(["--output-format=json", "Say hi."], { workspace });
    expect(bare.code).toBe(0);
    const second = workspace.server.requests[1]!.body as { messages: Array<{ content: Array<{ text: string }> }> };
    expect(second.messages[0]!.content[0]!.text).toBe("Say hi.");
  });

  it('piped input is appended to a prompt argument (git diff | agentwire -p "review")', async () => {
    workspace = await createWorkspace("multi-turn");
    const run = await runAgentwire(["-p", "summarize", "--output-format", "json"], {
      workspace,
      stdin: "context line 1\ncontext line 2\n",
    });
    expect(run.code).toBe(0);
    const body = workspace.server.requests[0]!.body as { messages: Array<{ content: Array<{ text: string }> }> };
    expect(body.messages[0]!.content[0]!.text).toBe("summarize\n\ncontext line 1\ncontext line 2\n");
  });

  it("a prompt argument with an empty stdin, or a pipe nobody writes to, runs without waiting for input", async () => {
    workspace = await createWorkspace("multi-turn");
    const empty = await runAgentwire(["-p", "summarize", "--output-format", "json"], { workspace, stdin: "" });
    expect(empty.code).toBe(0);
    expect(
      (workspace.server.requests[0]!.body as { messages: Array<{ content: Array<{ text: string }> }> }).messages[0]!.content[0]!.text,
    ).toBe("summarize");
    // stdin left open and silent: given up after a short wait with a note on stderr, never a hang.
    const child = spawnAgentwire(["-p", "summarize", "--output-format", "stream-json"], { workspace });
    const started = Date.now();
    const exited = waitForExit(child);
    // The session starts while agentwire waits to see whether input comes.
    await waitForEvent(child, (event) => event.type === "system" && event.subtype === "init");
    expect(Date.now() - started).toBeLessThan(2_500);
    const open = await exited;
    expect(open.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(open.stderr).toMatch(/no input arrived on stdin within 3 s/);
    expect(
      (workspace.server.requests[1]!.body as { messages: Array<{ content: Array<{ text: string }> }> }).messages[0]!.content[0]!.text,
    ).toBe("summarize");
  });

  it.each([
    [["-p", "--", "what is this"], "what is this"],
    [["-p", "-what is this"], "-what is this"],
    [["-p", "- list the files"], "- list the files"],
    [["--", "--not-a-flag"], "--not-a-flag"],
  ])("`--` and prompts that start with a dash: %j", async (args, prompt) => {
    workspace = await createWorkspace("multi-turn");
    const run = await runAgentwire(["--output-format", "json", ...args], { workspace });
    expect(run.code, run.stderr).toBe(0);
    expect(
      (workspace.server.requests[0]!.body as { messages: Array<{ content: Array<{ text: string }> }> }).messages[0]!.content[0]!.text,
    ).toBe(prompt);
  });

  it("`agentwire help` is the help, not a prompt; `help start` shows start's own defaults", async () => {
    workspace = await createWorkspace("text");
    const help = await runAgentwire(["help"], { workspace });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--output-format");
    const startHelp = await runAgentwire(["help", "start"], { workspace });
    expect(startHelp.stdout).toMatch(/--output-format[\s\S]*?\[default: "stream-json"\]/);
    expect(startHelp.stdout).toMatch(/--input-format[\s\S]*?\[default: "stream-json"\]/);
    expect(startHelp.stdout).not.toContain('[default: "text"]');
    expect(workspace.server.requests).toHaveLength(0);
  });

  it("a mistyped flag gets a suggestion", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "hi", "--modle", "opus"], { workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("Error: Unknown option: --modle. Did you mean --model? Run agentwire --help for the supported options.\n");
  });

  it("flags accepted for Claude Code hosts but not acted on are named in one readable sentence: a warning, on stderr in text mode", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "hi", "--effort", "high", "--fallback-model", "haiku"], { workspace });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      "agentwire: warning: --fallback-model and --effort are accepted for Claude Code compatibility but have no effect yet.\n",
    );
  });

  it("list flags take one value per occurrence; a repeated single flag keeps its last value", async () => {
    workspace = await createWorkspace("text");
    const { mkdir } = await import("node:fs/promises");
    await mkdir(`${workspace.cwd}/extra`);
    const run = await runAgentwire(
      ["-p", "--output-format", "json", "--add-dir", `${workspace.cwd}/extra`, "--model", "opus", "--model", "haiku", "Say", "hello."],
      { workspace },
    );
    expect(run.code).toBe(0);
    const body = workspace.server.requests[0]!.body as { model: string; messages: Array<{ content: Array<{ text: string }> }> };
    expect(body.model).toBe("claude-haiku-4-5");
    expect(body.messages[0]!.content[0]!.text).toBe("Say hello.");
  });

  it("mock-server --help prints usage", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["mock-server", "--help"], { workspace });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("--scenario");
  });

  it("an unknown flag in text mode: stderr only, nothing on stdout", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "hi", "--nope"], { workspace });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/nope/);
  });

  it.each([
    [["--input-format", "stream-json", "--output-format", "text"], /requires --output-format=stream-json/],
    [["-p", "hi", "--include-partial-messages"], /--include-partial-messages requires/],
    [["-p", "hi", "--resume", "abc", "--continue"], /cannot be used together/],
    [["-p", "hi", "--session-id", "not-a-uuid"], /session-id/],
    [["-p", "hi", "--output-format", "yaml"], /Invalid values|Choices/],
    [["-p", "hi", "--max-turns", "0"], /max-turns/],
    [["-p", "hi", "--resume", "../../../../tmp/x"], /must be a session id/],
  ])("invalid combination %j is refused", async (args, message) => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(args, { workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(message);
    expect(workspace.server.requests).toHaveLength(0);
  });

  it("no prompt at all (stdin closed, nothing in argv) is an error, not a hang", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "--output-format", "stream-json", "--verbose"], { workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Input must be provided/);
    expectWellFormedRun(run, 1);
  });

  it("accepts --flag=value, as the Agent SDK passes it, and Claude Code host flags it does not implement", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(
      [
        "--output-format=stream-json",
        "--verbose",
        "--input-format=stream-json",
        "--model=haiku",
        "--max-turns=3",
        "--setting-sources=",
        "--fallback-model=haiku",
        "--permission-mode=default",
        "--mcp-config",
        '{"mcpServers":{}}',
      ],
      { workspace, stdin: `${JSON.stringify({ type: "user", message: { role: "user", content: "hi" } })}\n` },
    );
    expectWellFormedRun(run, 1);
    expect(run.events[0]).toMatchObject({ subtype: "init", model: "claude-haiku-4-5", permissionMode: "default" });
    // --setting-sources is acted on (no project settings here), so only --fallback-model is noted:
    // in a system/warning line, not on stderr, which hosts show as an error.
    const warnings = run.events.filter((event) => event.type === "system" && event.subtype === "warning");
    expect(warnings).toEqual([
      expect.objectContaining({
        code: "flags_ignored",
        message: "--fallback-model is accepted for Claude Code compatibility but has no effect yet.",
      }),
    ]);
    expect(run.stderr).toBe("");
    expect((workspace.server.requests[0]!.body as { model: string }).model).toBe("claude-haiku-4-5");
  });

  it("--dangerously-skip-permissions is accepted (also as root) and reported as bypassPermissions", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "hi", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"], {
      workspace,
    });
    expectWellFormedRun(run, 1);
    expect(run.events[0]).toMatchObject({ permissionMode: "bypassPermissions" });
  });

  it("--system-prompt and --append-system-prompt-file reach the request", async () => {
    workspace = await createWorkspace("text");
    const { writeFile } = await import("node:fs/promises");
    await writeFile(`${workspace.cwd}/extra.md`, "Always answer in French.");
    const run = await runAgentwire(
      [
        "-p",
        "hi",
        "--output-format",
        "json",
        "--system-prompt",
        "You are terse.",
        "--append-system-prompt-file",
        `${workspace.cwd}/extra.md`,
      ],
      { workspace },
    );
    expect(run.code).toBe(0);
    expect((workspace.server.requests[0]!.body as { system: string }).system).toBe("You are terse.\n\nAlways answer in French.");
  });

  it("--debug logs each request, response, tool call, permission decision and session write to stderr", async () => {
    workspace = await createWorkspace("read");
    const { writeFile } = await import("node:fs/promises");
    await writeFile(`${workspace.cwd}/hello.txt`, "Hello, world!\n");
    const run = await runAgentwire(["-p", "Read hello.txt", "--output-format", "stream-json", "--debug"], { workspace });
    expect(run.code).toBe(0);
    // Not a terminal: one JSON object per line.
    const lines = run.stderr
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const messages = lines.map((line) => line.msg);
    expect(messages).toEqual(
      expect.arrayContaining(["model request", "model response", "tool start", "tool end", "permission decision", "session write"]),
    );
    expect(lines.find((line) => line.msg === "model request")).toMatchObject({
      provider: "anthropic",
      url: workspace.server.url,
      model: "claude-opus-5-5",
      attempt: 1,
      bytes: expect.any(Number),
    });
    expect(lines.find((line) => line.msg === "model response")).toMatchObject({ ms: expect.any(Number), stopReason: "tool_use" });
    expect(lines.find((line) => line.msg === "permission decision")).toMatchObject({ tool: "Read", allow: true });
    expect(lines.find((line) => line.msg === "tool end")).toMatchObject({ tool: "Read", isError: false, ms: expect.any(Number) });
    expect(messages.filter((message) => message === "model request")).toHaveLength(2);
  });

  it("stderr has one format at a time: readable lines by default, JSON records with --debug into a pipe", async () => {
    workspace = await createWorkspace("text");
    const secretRun = {
      turns: [{ tool_calls: [{ name: "Bash", input: { command: "echo ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" } }] }, { text: "done" }],
    };
    const freshHome = (name: string): Record<string, string> => ({ AGENTWIRE_HOME: `${workspace!.root}/${name}` });
    await workspace.useScenario(secretRun);
    const plain = await runAgentwire(["-p", "go", "--permission-mode", "bypassPermissions"], { workspace, env: freshHome("plain") });
    expect(plain.code).toBe(0);
    const plainLines = plain.stderr.trimEnd().split("\n");
    expect(plainLines).toEqual([
      expect.stringMatching(/^agentwire: warning: Installed the default skills/),
      expect.stringMatching(/^agentwire: warning: Redacted 1 secret\(s\) \(github_token\)/),
    ]);

    await workspace.useScenario(secretRun);
    const debug = await runAgentwire(["-p", "go", "--permission-mode", "bypassPermissions", "--debug"], {
      workspace,
      env: freshHome("debug"),
    });
    expect(debug.code).toBe(0);
    const records = debug.stderr
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(records.filter((record) => record.level === 40).map((record) => record.msg)).toEqual([
      expect.stringMatching(/^Installed the default skills/),
      expect.stringMatching(/^Redacted 1 secret/),
    ]);

    // A failed run's error too is a record then, not an "Error:" line among them.
    await workspace.useScenario({
      turns: [{ error: { status: 401, type: "authentication_error", message: "invalid x-api-key" }, repeat: true }],
    });
    const failed = await runAgentwire(["-p", "go", "--debug"], { workspace });
    expect(failed.code).toBe(1);
    const failedRecords = failed.stderr
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(failedRecords.at(-1)).toMatchObject({ level: 50, msg: expect.stringMatching(/invalid x-api-key|authentication/i) });
  });

  it("debug lines are readable, not JSON, when stderr is a terminal", async () => {
    workspace = await createWorkspace("text");
    const { execFile } = await import("node:child_process");
    // util-linux `script` runs the command on a pseudo-terminal; stdout of agentwire goes to a file.
    const out = `${workspace.cwd}/out.jsonl`;
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(`${ROOT}/bin/agentwire`)} -p hi --output-format stream-json --debug > ${JSON.stringify(out)}`;
    const transcript = await new Promise<string>((resolve, reject) =>
      execFile("script", ["-qec", command, "/dev/null"], { env: { ...agentwireEnv(workspace!), NO_COLOR: "1" } }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      ),
    );
    expect(transcript).toMatch(/^agentwire: debug: model request provider=anthropic/m);
    expect(transcript).not.toMatch(/^\{"level"/m);
  });

  it("a missing --cwd directory is refused", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "hi", "--cwd", "/nonexistent/agentwire"], { workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Working directory does not exist/);
  });

  it("a --cwd that is a file is called a file, not a missing directory", async () => {
    workspace = await createWorkspace("text");
    const file = `${workspace.cwd}/notes.txt`;
    await (await import("node:fs/promises")).writeFile(file, "x\n");
    const run = await runAgentwire(["-p", "hi", "--cwd", file], { workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`Error: Working directory is a file, not a directory: ${file}\n`);
  });

  it("a mistyped tool name in --tools gets a suggestion", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "hi", "--tools", "Bash,Reed"], { workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Error: Unknown tool name in --tools: Reed\. Did you mean Read\? Available tools: Agent, Bash, /);
  });

  it("agentwire web suggests the closest flag as the main command does", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["web", "--prot", "80"], { workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^Error: Unknown option: --prot\. Did you mean --port\? Run agentwire web --help for the supported options\.\n/,
    );
  });

  it("SIGTERM mid-stream ends the turn with a result, then exits 143 leaving nothing behind", async () => {
    workspace = await createWorkspace("interrupt");
    const child = spawnAgentwire(
      ["-p", "Write a long essay.", "--output-format", "stream-json", "--verbose", "--include-partial-messages"],
      { workspace },
    );
    child.stdin.end();
    const exited = waitForExit(child);
    await waitForEvent(child, (event) => event.type === "stream_event" && event.event.type === "content_block_delta");
    child.kill("SIGTERM");
    const run = await exited;
    expect(run.code).toBe(143);
    expect(results(run.events)).toHaveLength(1);
    expect(results(run.events)[0]).toMatchObject({ subtype: "error_during_execution", terminal_reason: "aborted_streaming" });
    expect(run.events.at(-1)!.type).toBe("result");
  });

  it("SIGINT mid-stream in print mode: result, exit 130", async () => {
    workspace = await createWorkspace("interrupt");
    const child = spawnAgentwire(
      ["-p", "Write a long essay.", "--output-format", "stream-json", "--verbose", "--include-partial-messages"],
      { workspace },
    );
    child.stdin.end();
    const exited = waitForExit(child);
    await waitForEvent(child, (event) => event.type === "stream_event" && event.event.type === "content_block_delta");
    child.kill("SIGINT");
    const run = await exited;
    expect(run.code).toBe(130);
    expect(results(run.events)[0]).toMatchObject({ is_error: true, terminal_reason: "aborted_streaming" });
  });

  it("--continue picks up the newest session in the cwd", async () => {
    workspace = await createWorkspace("multi-turn");
    const first = await runAgentwire(["-p", "First?", "--output-format", "json"], { workspace });
    const second = await runAgentwire(["-p", "Second?", "--output-format", "json", "--continue"], { workspace });
    expect(second.code).toBe(0);
    expect(results(second.events)[0]!.session_id).toBe(results(first.events)[0]!.session_id);
    expect((workspace.server.requests[1]!.body as { messages: unknown[] }).messages).toHaveLength(3);
  });

  it("--continue with no earlier session fails with session_not_found", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "hi", "--output-format", "json", "--continue"], { workspace });
    expect(run.code).toBe(1);
    expect(results(run.events)[0]).toMatchObject({ terminal_reason: "session_not_found" });
  });

  it("--session-id sets the id of a new session; reusing it is refused", async () => {
    workspace = await createWorkspace("multi-turn");
    const id = "11111111-2222-4333-8444-555555555555";
    const first = await runAgentwire(["-p", "First?", "--output-format", "json", "--session-id", id], { workspace });
    expect(results(first.events)[0]!.session_id).toBe(id);
    const again = await runAgentwire(["-p", "Again?", "--output-format", "json", "--session-id", id], { workspace });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already in use/);
  });
});
