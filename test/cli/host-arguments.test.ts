import { describe, expect, it } from "vitest";
import { parseArguments, type ParsedCommand } from "../../src/cli/arguments.js";

const ENV = { ANTHROPIC_API_KEY: "a", HOME: "/nonexistent-home" };
const SESSION = "5b4ed7d2-9d6e-4c1f-8a43-1b2c3d4e5f60";
/** What both Agent SDKs always pass first. */
const SDK_BASE = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"];

async function run(argv: string[]): Promise<Extract<ParsedCommand, { kind: "run" }>> {
  const parsed = await parseArguments(argv, "/tmp", ENV);
  if (parsed.kind !== "run") throw new Error(`${argv.join(" ")}: ${parsed.kind === "error" ? parsed.message : parsed.kind}`);
  return parsed;
}

describe("-p / --print as Claude Code reads it: a flag, repeatable; the prompt is the argument", () => {
  it.each([
    // Yume's title generator.
    [["-p", "name this chat", "--print", "--output-format", "json", "--model", "claude-3-5-haiku-20241022"], "name this chat"],
    [["--print", "name this chat", "-p"], "name this chat"],
    [["-p", "true"], "true"],
    [["-p", "--verbose", "hi"], "hi"],
    // agentwire's own, kept: a prompt that starts with a dash after -p, and --print=prompt.
    [["-p", "-what is this"], "-what is this"],
    [["--print=a prompt"], "a prompt"],
    // Several words (unquoted) make one prompt; Claude Code would take the first.
    [["-p", "Say", "hello."], "Say hello."],
  ])("%j → %j", async (argv, prompt) => {
    const command = await run(argv);
    expect(command.prompt).toBe(prompt);
    expect(command.printFlag).toBe(true);
  });

  it("without a prompt argument the prompt comes from stdin (Yume's chat runs)", async () => {
    const command = await run([
      "--print",
      "--output-format",
      "stream-json",
      "--verbose",
      "--dangerously-skip-permissions",
      "--disallowed-tools",
      "AskUserQuestion,EnterPlanMode,ExitPlanMode",
      "--append-system-prompt",
      "be brief",
      "--model",
      "claude-opus-4-5-20251101",
      "--resume",
      SESSION,
    ]);
    expect(command.prompt).toBeUndefined();
    expect(command.config).toMatchObject({
      permissionMode: "bypassPermissions",
      disallowedTools: ["AskUserQuestion,EnterPlanMode,ExitPlanMode"],
      model: "claude-opus-4-5-20251101",
      resume: SESSION,
    });
  });
});

describe("list flags take the words after them, as Claude Code's `<values...>` options", () => {
  it.each([
    [["-p", "hi", "--allowedTools", "Read", "Bash(git:*)"], { allowedTools: ["Read", "Bash(git:*)"] }, "hi"],
    [["--allowedTools", "Read", "-p", "hi"], { allowedTools: ["Read"] }, "hi"],
    [["-p", "--allowedTools=Read", "hi"], { allowedTools: ["Read"] }, "hi"],
    [["-p", "hi", "--disallowedTools", "Bash", "Write", "-c"], { disallowedTools: ["Bash", "Write"], continue: true }, "hi"],
    [["-p", "hi", "--tools", "Read", "Bash"], { tools: ["Read", "Bash"] }, "hi"],
    [["-p", "hi", "--tools", ""], { tools: [] }, "hi"],
    [["-p", "hi", "--add-dir", "/srv/a", "/srv/b"], { addDirs: ["/srv/a", "/srv/b"] }, "hi"],
  ])("%j", async (argv, config, prompt) => {
    const command = await run(argv);
    expect(command.config).toMatchObject(config);
    expect(command.prompt).toBe(prompt);
  });

  it("a prompt after a list flag's values is one of them, as in Claude Code: the run then has no prompt", async () => {
    const command = await run(["-p", "--allowedTools", "Read", "hello"]);
    expect(command.config.allowedTools).toEqual(["Read", "hello"]);
    expect(command.prompt).toBeUndefined();
  });
});

/**
 * Every flag the two Agent SDKs pass (Python 0.2.143: _internal/transport/subprocess_cli.py;
 * TypeScript 0.3.330), in both spellings they use: `--flag value` and `--flag=value`.
 */
const SDK_FLAGS: Array<[flag: string, value: string | undefined, outcome: Record<string, unknown> | "accepted"]> = [
  ["--system-prompt", "You are terse.", "accepted"],
  ["--system-prompt", "", "accepted"],
  ["--append-system-prompt", "Also this.", "accepted"],
  ["--tools", "Read,Bash", { tools: ["Read", "Bash"] }],
  ["--tools", "default", { tools: ["default"] }],
  ["--allowedTools", "Read,Skill(pdf)", { allowedTools: ["Read,Skill(pdf)"] }],
  ["--disallowedTools", "Bash", { disallowedTools: ["Bash"] }],
  ["--max-turns", "3", { maxTurns: 3 }],
  ["--max-budget-usd", "1.5", { maxBudgetUsd: 1.5 }],
  ["--model", "claude-opus-4-5-20251101", { model: "claude-opus-4-5-20251101" }],
  ["--permission-prompt-tool", "stdio", { permissionPromptTool: "stdio" }],
  ["--permission-mode", "acceptEdits", { permissionMode: "acceptEdits" }],
  ["--resume", SESSION, { resume: SESSION }],
  ["--session-id", SESSION, { sessionId: SESSION }],
  ["--session-id", "", { sessionId: undefined }],
  ["--setting-sources", "user,project", { settingSources: ["user", "project"] }],
  ["--setting-sources", "", { settingSources: [] }],
  ["--add-dir", "/srv/data", { addDirs: ["/srv/data"] }],
  ["--mcp-config", '{"mcpServers":{}}', { mcpServers: {} }],
  ["--max-thinking-tokens", "2048", { maxThinkingTokens: 2048 }],
  ["--json-schema", '{"type":"object"}', { outputSchema: { type: "object" } }],
  ["--continue", undefined, { continue: true }],
  ["--include-partial-messages", undefined, { includePartialMessages: true }],
  ["--strict-mcp-config", undefined, "accepted"],
  ["--no-session-persistence", undefined, { persistSession: false }],
  ["--debug", undefined, { debug: true }],
  // Accepted without effect (named in a flags_ignored warning).
  ["--fallback-model", "claude-haiku-4-5", "accepted"],
  ["--betas", "context-1m-2025-08-07", "accepted"],
  ["--task-budget", "10000", "accepted"],
  ["--thinking", "adaptive", "accepted"],
  ["--thinking-display", "summarized", "accepted"],
  ["--effort", "high", "accepted"],
  ["--agent", "reviewer", "accepted"],
  ["--settings", '{"permissions":{}}', "accepted"],
  ["--resume-session-at", SESSION, "accepted"],
  ["--resume-drops-turn", "true", "accepted"],
  ["--permission-prompts", "host", "accepted"],
  ["--project-config-root", "/srv", "accepted"],
  ["--plugin-dir", "/srv/plugin", "accepted"],
  ["--plugin-dir-no-mcp", "/srv/plugin", "accepted"],
  ["--channels", "main", "accepted"],
  ["--debug-file", "/tmp/sdk.log", "accepted"],
  ["--initialize-fields", "settings,disallowedTools", "accepted"],
  ["--managed-settings", "{}", "accepted"],
  ["--workload", "batch", "accepted"],
  ["--include-hook-events", undefined, "accepted"],
  ["--session-mirror", undefined, "accepted"],
  ["--allow-dangerously-skip-permissions", undefined, "accepted"],
  ["--await-initialize", undefined, "accepted"],
  ["--managed-settings-in-initialize", undefined, "accepted"],
];

describe("every flag the Agent SDKs pass, as --flag value and as --flag=value", () => {
  const cases: Array<[argv: string[], outcome: Record<string, unknown> | "accepted"]> = SDK_FLAGS.flatMap(([flag, value, outcome]) =>
    value === undefined
      ? [[[flag], outcome]]
      : [
          [[flag, value], outcome],
          [[`${flag}=${value}`], outcome],
        ],
  );
  // A value that is empty, or that starts like a flag, is only ever sent in the = form.
  it.each(cases.filter(([argv]) => !(argv.length === 2 && argv[1] === "")))("%j", async (argv, outcome) => {
    const command = await run([...SDK_BASE, ...argv]);
    if (outcome !== "accepted") expect(command.config).toMatchObject(outcome);
  });

  it("--fork-session with --resume; --debug=FILTER (Claude Code's category filter) turns debug logging on", async () => {
    expect((await run([...SDK_BASE, `--resume=${SESSION}`, "--fork-session"])).config).toMatchObject({
      resume: SESSION,
      forkSession: true,
    });
    expect((await run([...SDK_BASE, "--debug=hooks,mcp"])).config.debug).toBe(true);
  });

  it('--system-prompt "" (the Python SDK\'s when its user set none) reaches the session as an empty prompt', async () => {
    expect((await run([...SDK_BASE, "--system-prompt", ""])).promptFiles).toEqual({ systemPrompt: "" });
  });

  it("the Python SDK's whole default command line", async () => {
    const command = await run(["--output-format", "stream-json", "--verbose", "--system-prompt", "", "--input-format", "stream-json"]);
    expect(command).toMatchObject({ isStart: false, ignoredFlags: [], promptFiles: { systemPrompt: "" } });
    expect(command.prompt).toBeUndefined();
  });
});
