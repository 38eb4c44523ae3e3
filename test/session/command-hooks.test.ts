import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HookOutputSchema, type HookEventName, type HookOutput } from "../../protocol/control.js";
import type { HookProcessResult } from "../../src/hooks/hook-process.js";
import type { CommandHook } from "../../src/settings/effective-settings.js";
import { combineHooks } from "../../src/session/combined-hooks.js";
import { CommandHooks, hookOutputOf } from "../../src/session/command-hooks.js";
import { compileHookMatcher } from "../../src/session/hook-matcher.js";
import type { SessionHooks } from "../../src/session/hook-runners.js";
import { isAlive, until } from "../helpers/processes.js";

const parseOutput = (json: unknown): HookOutput | undefined => {
  const parsed = HookOutputSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
};
const HOOK = { command: "check.sh", source: "~/.claude/settings.json", timeoutSeconds: 5 };
const exited = (exitCode: number, stdout = "", stderr = ""): HookProcessResult => ({ outcome: "exited", exitCode, stdout, stderr });
const outcome = (event: HookEventName, result: HookProcessResult) => hookOutputOf(event, HOOK, result, parseOutput);

describe("what a command hook's run means", () => {
  it.each<[HookEventName, HookOutput | undefined]>([
    [
      "PreToolUse",
      { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm here" } },
    ],
    ["PostToolUse", { decision: "block", reason: "no rm here" }],
    ["UserPromptSubmit", { decision: "block", reason: "no rm here" }],
    ["Stop", { decision: "block", reason: "no rm here" }],
    ["SubagentStop", { decision: "block", reason: "no rm here" }],
    ["PreCompact", { decision: "block", reason: "no rm here" }],
    ["SessionStart", undefined],
    ["SessionEnd", undefined],
    ["Notification", undefined],
    ["PostCompact", undefined],
  ])("exit 2 on %s: stderr is the reason where the event can be blocked, else a problem", (event, expected) => {
    const answer = outcome(event, exited(2, "ignored stdout", "no rm here\n"));
    expect(answer.output).toEqual(expected);
    if (expected === undefined)
      expect(answer.problem).toBe(`The ${event} hook \`check.sh\` (~/.claude/settings.json) exited with code 2: no rm here.`);
    else expect(answer.problem).toBeUndefined();
  });

  it("exit 0: JSON on stdout is the answer; plain text is context only where Claude Code reads it", () => {
    const json = JSON.stringify({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "sure?" },
      systemMessage: "heads up",
    });
    expect(outcome("PreToolUse", exited(0, `${json}\n`))).toEqual({ output: JSON.parse(json) });
    for (const event of ["UserPromptSubmit", "SessionStart", "PreCompact"] as const) {
      expect(outcome(event, exited(0, "remember the tests\n"))).toEqual({
        output: { hookSpecificOutput: { hookEventName: event, additionalContext: "remember the tests" } },
      });
    }
    expect(outcome("PostToolUse", exited(0, "formatted 3 files\n"))).toEqual({});
    expect(outcome("Stop", exited(0, ""))).toEqual({});
    expect(outcome("PreToolUse", exited(0, '{"decision": "maybe"}'))).toEqual({
      problem: "The PreToolUse hook `check.sh` (~/.claude/settings.json) wrote JSON that is not a hook answer; it was ignored.",
    });
    // Text that only looks like JSON is text.
    expect(outcome("SessionStart", exited(0, "{branch} main"))).toEqual({
      output: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "{branch} main" } },
    });
  });

  it("other exits, timeouts and hooks that cannot start are problems that block nothing; an interrupted hook means nothing", () => {
    expect(outcome("PreToolUse", exited(1, '{"decision":"block"}', "oops"))).toEqual({
      problem: "The PreToolUse hook `check.sh` (~/.claude/settings.json) failed with exit code 1: oops; the session goes on.",
    });
    expect(outcome("Stop", { outcome: "timed_out", stdout: "", stderr: "" })).toEqual({
      problem:
        "The Stop hook `check.sh` (~/.claude/settings.json) did not finish within 5 s; it was stopped with every process it started.",
    });
    expect(outcome("Stop", { outcome: "not_started", error: "spawn ENOENT" })).toEqual({
      problem: "The Stop hook `check.sh` (~/.claude/settings.json) could not start: spawn ENOENT.",
    });
    expect(outcome("PreToolUse", { outcome: "aborted", stdout: "", stderr: "" })).toEqual({});
  });
});

describe("hook matchers", () => {
  it.each<[string | null | undefined, string | undefined, boolean]>([
    [undefined, "Bash", true],
    [null, "Bash", true],
    ["", "Bash", true],
    ["*", "Write", true],
    ["Bash", "Bash", true],
    ["Bash", "BashOutput", false],
    ["Edit|Write", "Write", true],
    ["Edit, MultiEdit", "MultiEdit", true],
    ["Edit|Write", "Read", false],
    ["mcp__github__.*", "mcp__github__create_issue", true],
    ["mcp__github__.*", "mcp__gitlab__x", false],
    ["Notebook.*", "NotebookEdit", true],
    ["startup|resume", "compact", false],
    ["Bash", undefined, true],
    ["(unclosed", "(unclosed", true],
    ["(unclosed", "x", false],
  ])("%j matches %j: %s", (pattern, value, matches) => {
    expect(compileHookMatcher(pattern)(value)).toBe(matches);
  });
});

describe("command hooks as processes", () => {
  let scratch: string;
  const problems: string[] = [];
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), "agentwire-hooks-"));
    problems.length = 0;
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));
  const hooksOf = (hooks: Array<Partial<CommandHook> & { command: string }>, settingsEnv: Record<string, string> = {}) =>
    new CommandHooks({
      hooks: hooks.map((hook) => ({
        event: "PreToolUse",
        matcher: undefined,
        timeoutSeconds: 10,
        source: "test",
        background: false,
        once: false,
        ...hook,
      })),
      cwd: scratch,
      settingsEnv,
      passEnv: [],
      onProblem: (message) => problems.push(message),
    });

  it("get the event's JSON on stdin, run in the project with CLAUDE_PROJECT_DIR, and see the settings' env without credentials", async () => {
    const hooks = hooksOf([{ command: `cat > input.json; env > env.txt; pwd > pwd.txt` }], {
      PLAIN_SETTING: "visible",
      SERVICE_API_KEY: "sk-secret-value",
    });
    const answer = await hooks.run(
      "PreToolUse",
      {
        session_id: "s1",
        transcript_path: "/t.jsonl",
        cwd: scratch,
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: { command: "ls" },
        tool_use_id: "toolu_1",
      },
      { matchValue: "Bash" },
    );
    expect(answer).toEqual({ outputs: [], undelivered: 0 });
    const input = readFileSync(join(scratch, "input.json"), "utf8");
    expect(Object.keys(JSON.parse(input))).toEqual([
      "session_id",
      "transcript_path",
      "cwd",
      "permission_mode",
      "hook_event_name",
      "tool_name",
      "tool_input",
      "tool_use_id",
    ]);
    expect(JSON.parse(input)).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
    const env = readFileSync(join(scratch, "env.txt"), "utf8");
    expect(env).toContain(`CLAUDE_PROJECT_DIR=${scratch}\n`);
    expect(env).toContain("PLAIN_SETTING=visible\n");
    expect(env).not.toContain("sk-secret-value");
    expect(readFileSync(join(scratch, "pwd.txt"), "utf8").trim()).toBe(scratch);
  });

  it("run at once, only those whose matcher matches, each distinct command once", async () => {
    const hooks = hooksOf([
      { matcher: "Bash", command: "sleep 1; echo a >> ran.txt" },
      { matcher: "Bash|Edit", command: "sleep 1; echo b >> ran.txt" },
      { matcher: "Edit|Write", command: "echo never >> ran.txt" },
      { matcher: "*", command: "sleep 1; echo a >> ran.txt" },
    ]);
    const startedAt = Date.now();
    await hooks.run("PreToolUse", {}, { matchValue: "Bash" });
    expect(Date.now() - startedAt, "in parallel, not one after another").toBeLessThan(1_900);
    expect(readFileSync(join(scratch, "ran.txt"), "utf8").split("\n").filter(Boolean).sort()).toEqual(["a", "b"]);
    expect(hooks.has("PreToolUse")).toBe(true);
    expect(hooks.has("Stop")).toBe(false);
  });

  it("an async hook runs on its own and decides nothing; a once hook runs once per session", async () => {
    const hooks = hooksOf([
      { command: `sleep 1; echo background >> ${join(scratch, "ran.txt")}; exit 2`, background: true },
      { command: `echo once >> ${join(scratch, "ran.txt")}`, once: true },
    ]);
    const startedAt = Date.now();
    expect(await hooks.run("PreToolUse", {})).toEqual({ outputs: [], undelivered: 0 });
    expect(Date.now() - startedAt, "nothing waited for the async hook").toBeLessThan(900);
    await hooks.run("PreToolUse", {});
    await until(() => readFileSync(join(scratch, "ran.txt"), "utf8").split("background").length === 3, 5_000);
    expect(readFileSync(join(scratch, "ran.txt"), "utf8").split("\n").filter(Boolean).sort()).toEqual(["background", "background", "once"]);
    expect(problems, "its exit 2 decided nothing").toEqual([]);
  });

  it("a hook over its timeout is stopped with every process it started, and the session is told", async () => {
    const pidFile = join(scratch, "child.pid");
    const hooks = hooksOf([{ command: `sleep 60 & echo $! > ${pidFile}; wait`, timeoutSeconds: 0.5 }]);
    const startedAt = Date.now();
    await hooks.run("PreToolUse", {});
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(problems).toEqual([expect.stringContaining("did not finish within 0.5 s; it was stopped with every process it started")]);
    const child = Number(readFileSync(pidFile, "utf8"));
    await until(() => !isAlive(child), 3_000);
    expect(isAlive(child), "the hook's background child is gone").toBe(false);
  });

  it("an abort stops a running hook at once, and it answers nothing", async () => {
    const controller = new AbortController();
    const hooks = hooksOf([{ command: 'sleep 30; echo \'{"decision":"block"}\'' }]);
    setTimeout(() => controller.abort(), 200);
    const startedAt = Date.now();
    expect(await hooks.run("PreToolUse", {}, { signal: controller.signal })).toEqual({ outputs: [], undelivered: 0 });
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    expect(problems).toEqual([]);
  });

  it("run beside a host's hooks as one: answers in order, systemMessage to the user, undelivered counted", async () => {
    const commands = hooksOf([
      {
        command: `echo '{"systemMessage":"from the file","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`,
      },
    ]);
    const host: SessionHooks = {
      has: (event) => event === "PreToolUse",
      run: async () => ({ outputs: [{ decision: "block", reason: "host says no" }], undelivered: 1 }),
    };
    const messages: string[] = [];
    const combined = combineHooks([commands, undefined, host], (message) => messages.push(message))!;
    expect(combined.has("PreToolUse")).toBe(true);
    expect(combined.has("Stop")).toBe(false);
    expect(await combined.run("PreToolUse", {})).toEqual({
      outputs: [
        { systemMessage: "from the file", hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } },
        { decision: "block", reason: "host says no" },
      ],
      undelivered: 1,
    });
    expect(messages).toEqual(["from the file"]);
    expect(combineHooks([undefined], () => undefined)).toBeUndefined();
  });
});
