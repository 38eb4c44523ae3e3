import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent, SystemInitEvent } from "../../protocol/events.js";
import {
  createWorkspace,
  onStdoutEvents,
  expectWellFormedRun,
  results,
  runAgentwire,
  spawnAgentwire,
  toolOutcomes,
  waitForExit,
  type RunResult,
  type Workspace,
} from "../helpers/agentwire.js";
import { pidsRunning, until } from "../helpers/processes.js";

/**
 * Settings files as Claude Code reads them, through the binary: each source, the merge, and
 * shell-command hooks with Claude Code's protocol (stdin JSON, exit codes, JSON answers,
 * matchers, timeouts) for every event agentwire raises.
 */
const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

type Settings = Record<string, unknown>;
const command = (text: string, extra: Record<string, unknown> = {}) => ({ type: "command", command: text, ...extra });
const hooksFor = (event: string, text: string, matcher?: string, extra: Record<string, unknown> = {}) => ({
  [event]: [{ ...(matcher ? { matcher } : {}), hooks: [command(text, extra)] }],
});
const writeJson = (file: string, value: unknown) => {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
};
const userSettings = (settings: Settings | string) => writeJson(join(workspace!.home, ".claude", "settings.json"), settings);
const warningsOf = (events: OutputEvent[]) =>
  events.flatMap((event) => (event.type === "system" && event.subtype === "warning" ? [event as { code: string; message: string }] : []));
const initOf = (events: OutputEvent[]) =>
  events.find((event): event is SystemInitEvent => event.type === "system" && event.subtype === "init")!;
const requestText = (index: number) => JSON.stringify((workspace!.server.requests[index]!.body as { messages: unknown }).messages);
/** The folder where recording hooks write what they read on stdin, one JSON line per run. */
const logDirectory = () => join(workspace!.root, "log");
const recorder = (name: string, say = "") =>
  `mkdir -p ${logDirectory()}; { cat; echo; } >> ${logDirectory()}/${name}.jsonl${say ? `; echo '${say}'` : ""}`;
const recorded = (name: string): Array<Record<string, unknown>> => {
  const file = join(logDirectory(), `${name}.jsonl`);
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    : [];
};
const run = (args: string[], env?: Record<string, string>): Promise<RunResult> =>
  runAgentwire(["-p", "go", ...STREAM, ...args], { workspace: workspace!, ...(env ? { env } : {}) });
const bashThenDone = (bash = "touch ran.txt") => ({
  turns: [{ tool_calls: [{ name: "Bash", input: { command: bash } }] }, { text: "done" }],
});

describe("settings sources", () => {
  /** A PreToolUse hook that refuses Bash, in the words of the env its file sets: proof that both the hook and the env of that source apply. */
  const refusing = (label: string): Settings => ({
    env: { FROM: label },
    hooks: hooksFor("PreToolUse", 'echo "$FROM refused it" >&2; exit 2', "Bash"),
  });

  it.each<[string, (settings: Settings) => string[]]>([
    ["--settings JSON", (settings) => ["--settings", JSON.stringify(settings)]],
    [
      "--settings FILE",
      (settings) => {
        writeJson(join(workspace!.root, "flag-settings.json"), settings);
        return ["--settings", join(workspace!.root, "flag-settings.json")];
      },
    ],
    [
      "~/.claude/settings.json",
      (settings) => {
        userSettings(settings);
        return [];
      },
    ],
    [
      "$AGENTWIRE_HOME/settings.json",
      (settings) => {
        writeJson(join(workspace!.home, ".agentwire", "settings.json"), settings);
        return [];
      },
    ],
    [
      ".claude/settings.json",
      (settings) => {
        writeJson(join(workspace!.cwd, ".claude", "settings.json"), settings);
        return ["--trust-project"];
      },
    ],
    [
      ".claude/settings.local.json",
      (settings) => {
        writeJson(join(workspace!.cwd, ".claude", "settings.local.json"), settings);
        return ["--trust-project"];
      },
    ],
  ])("%s: its hook and env apply; a PreToolUse hook that refuses stops the call even with permissions bypassed", async (label, place) => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(bashThenDone());
    const result = await run(["--dangerously-skip-permissions", ...place(refusing(label))]);
    expectWellFormedRun(result, 1);
    expect(toolOutcomes(result.events)).toEqual([
      expect.objectContaining({ content: `${label} refused it`, isError: true, code: "permission_denied" }),
    ]);
    expect(existsSync(join(workspace.cwd, "ran.txt"))).toBe(false);
    expect(result.stderr).toBe("");
  });

  it("merge: the model, mode, rules and env of the files apply under the flags; a deny rule anywhere wins", async () => {
    workspace = await createWorkspace("text");
    userSettings({
      model: "claude-sonnet-4-5",
      env: { GREETING: "hello from settings" },
      permissions: { defaultMode: "acceptEdits", allow: ["Bash(echo:*)"] },
    });
    writeJson(join(workspace.cwd, ".claude", "settings.local.json"), { permissions: { deny: ["Bash(echo:*)"] } });
    await workspace.useScenario({ turns: [{ tool_calls: [{ name: "Bash", input: { command: "echo $GREETING" } }] }, { text: "done" }] });
    const denied = await run([]);
    expect(initOf(denied.events)).toMatchObject({ model: "claude-sonnet-4-5", permissionMode: "acceptEdits" });
    expect((workspace.server.requests[0]!.body as { model: string }).model).toBe("claude-sonnet-4-5");
    expect(toolOutcomes(denied.events)[0]).toMatchObject({ isError: true, content: expect.stringContaining("denied by a rule") });

    writeJson(join(workspace.cwd, ".claude", "settings.local.json"), {});
    await workspace.useScenario({ turns: [{ tool_calls: [{ name: "Bash", input: { command: "echo $GREETING" } }] }, { text: "done" }] });
    const allowed = await run(["--model", "claude-opus-4-5", "--permission-mode", "plan"]);
    expect(initOf(allowed.events)).toMatchObject({ model: "claude-opus-4-5", permissionMode: "plan" });
    expect(toolOutcomes(allowed.events)[0]).toMatchObject({ isError: false, content: "hello from settings" });
  });

  it("env reaches the provider, over the environment agentwire was started with", async () => {
    workspace = await createWorkspace("text");
    userSettings({ env: { ANTHROPIC_BASE_URL: workspace.server.url } });
    const result = await run([], { ANTHROPIC_BASE_URL: "http://127.0.0.1:9" });
    expectWellFormedRun(result, 1);
    expect(results(result.events)[0]).toMatchObject({ is_error: false, result: "Hello! I am the mock model. 2 + 2 = 4." });
  });

  it("a broken file is one settings_invalid warning, nothing on stderr, and the run goes on; a --settings that cannot be read fails the run", async () => {
    workspace = await createWorkspace("text");
    userSettings("{ this is not json");
    const result = await run([]);
    expectWellFormedRun(result, 1);
    expect(warningsOf(result.events)).toEqual([
      expect.objectContaining({ code: "settings_invalid", message: expect.stringContaining(".claude/settings.json is not valid JSON") }),
    ]);
    expect(result.stderr).toBe("");
    const failed = await run(["--settings", join(workspace.root, "missing.json")]);
    expect(failed.code).toBe(1);
    expect(results(failed.events)[0]).toMatchObject({ is_error: true, terminal_reason: "invalid_arguments" });
  });

  it("--setting-sources user reads the user's files, not the project's, even when the project is trusted", async () => {
    workspace = await createWorkspace("text");
    userSettings({ hooks: hooksFor("UserPromptSubmit", recorder("user")) });
    writeJson(join(workspace.cwd, ".claude", "settings.json"), { hooks: hooksFor("UserPromptSubmit", recorder("project")) });
    await run(["--trust-project", "--setting-sources", "user"]);
    expect(recorded("user")).toHaveLength(1);
    expect(recorded("project")).toHaveLength(0);
    await run(["--trust-project"]);
    expect(recorded("project")).toHaveLength(1);
  });
});

describe("a project's settings need trust", () => {
  it("untrusted: its hooks do not run, its allow rules and env do not apply, its deny rules do, and one warning names what was left out; trusted: they run, until the file or its script changes", async () => {
    workspace = await createWorkspace("text");
    const script = join(workspace.cwd, ".claude", "hooks", "record.sh");
    writeJson(script, `#!/bin/sh\n${recorder("project")}\n`);
    const settings = {
      env: { SECRET_PLACE: "elsewhere" },
      permissions: { allow: ["Bash(touch:*)"], deny: ["Read"] },
      hooks: hooksFor("UserPromptSubmit", 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/record.sh'),
    };
    writeJson(join(workspace.cwd, ".claude", "settings.json"), settings);
    await workspace.useScenario(bashThenDone());
    const untrusted = await run([]);
    expectWellFormedRun(untrusted, 1);
    expect(recorded("project"), "the hook did not run").toHaveLength(0);
    expect(existsSync(join(workspace.cwd, "ran.txt")), "the allow rule did not apply").toBe(false);
    expect(initOf(untrusted.events).tools).not.toContain("Read");
    const warnings = warningsOf(untrusted.events).filter((warning) => warning.code === "project_not_trusted");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain(
      '.claude/settings.json (its hooks for "UserPromptSubmit"; its allow rules "Bash(touch:*)"; its env "SECRET_PLACE")',
    );
    expect(warnings[0]!.message).toContain(`agentwire trust ${workspace.cwd}`);

    const offer = await runAgentwire(["trust", "--yes", workspace.cwd], { workspace });
    expect(offer.code, offer.stderr).toBe(0);
    expect(offer.stdout).toContain('hook UserPromptSubmit: runs sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/record.sh');
    expect(offer.stdout).toContain("allow Bash(touch:*)");
    expect(offer.stdout).toContain("env SECRET_PLACE=elsewhere");
    await workspace.useScenario(bashThenDone());
    const trusted = await run([]);
    expect(recorded("project"), "the trusted hook ran").toHaveLength(1);
    expect(existsSync(join(workspace.cwd, "ran.txt")), "the trusted allow rule applied").toBe(true);
    expect(warningsOf(trusted.events)).toEqual([]);

    writeJson(script, `#!/bin/sh\n${recorder("project")}\necho changed\n`);
    await run([]);
    expect(recorded("project"), "a changed script needs trust again").toHaveLength(1);
    expect((await runAgentwire(["trust", "--list"], { workspace })).stdout).toContain(
      ".claude/settings.json  changed since: needs trust again",
    );
  });
});

describe("hooks: every event", () => {
  const allEvents = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd", "PreCompact"] as const;
  const recordingSettings = (): Settings => ({
    hooks: Object.fromEntries(
      allEvents.map((event) => [
        event,
        [
          {
            hooks: [
              command(
                recorder(
                  event,
                  event === "SessionStart" || event === "UserPromptSubmit" || event === "PreCompact"
                    ? `Context from ${event}.`
                    : `Output of ${event}.`,
                ),
              ),
            ],
          },
        ],
      ]),
    ),
  });

  it("SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop and SessionEnd get Claude Code's input; SessionStart and UserPromptSubmit output reaches the model; resume and /compact say so", async () => {
    workspace = await createWorkspace("text");
    userSettings(recordingSettings());
    await workspace.useScenario(bashThenDone("echo hi"));
    const first = await run(["--dangerously-skip-permissions"]);
    expectWellFormedRun(first, 1);
    const sessionId = results(first.events)[0]!.session_id;
    const base = {
      session_id: sessionId,
      transcript_path: expect.stringContaining(`${sessionId}.jsonl`),
      cwd: workspace.cwd,
      permission_mode: "bypassPermissions",
    };
    expect(recorded("SessionStart")).toEqual([{ ...base, hook_event_name: "SessionStart", source: "startup", model: "claude-opus-5-5" }]);
    expect(recorded("UserPromptSubmit")).toEqual([{ ...base, hook_event_name: "UserPromptSubmit", prompt: "go", source: "sdk" }]);
    expect(recorded("PreToolUse")).toEqual([
      { ...base, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "echo hi" }, tool_use_id: expect.any(String) },
    ]);
    expect(recorded("PostToolUse")).toEqual([
      {
        ...base,
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command: "echo hi" },
        tool_response: expect.objectContaining({ stdout: "hi" }),
        tool_use_id: expect.any(String),
      },
    ]);
    expect(recorded("Stop")).toEqual([{ ...base, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "done" }]);
    expect(recorded("SessionEnd")).toEqual([{ ...base, hook_event_name: "SessionEnd", reason: "other" }]);
    expect(requestText(0)).toContain("Context from SessionStart.");
    expect(requestText(0)).toContain("Context from UserPromptSubmit.");
    expect(requestText(0)).not.toContain("Output of");
    expect(toolOutcomes(first.events)[0]!.content).toBe("hi");

    await workspace.useScenario({ turns: [{ text: "1. The user said go.\n2. Next: nothing." }] });
    const compacted = await runAgentwire(["-p", "/compact keep it short", ...STREAM, "--resume", sessionId], { workspace });
    expectWellFormedRun(compacted, 1);
    expect(recorded("SessionStart").map((input) => input.source)).toEqual(["startup", "resume", "compact"]);
    expect(recorded("PreCompact").at(-1)).toMatchObject({
      hook_event_name: "PreCompact",
      trigger: "manual",
      custom_instructions: "keep it short",
    });
    // PreCompact's output joins the summary's instructions.
    expect(JSON.stringify(workspace.server.requests[0]!.body)).toContain("Context from PreCompact.");
  });

  it("Notification: a permission question to the host is announced to the hooks", async () => {
    workspace = await createWorkspace("text");
    userSettings({ hooks: hooksFor("Notification", recorder("Notification"), "permission_prompt") });
    await workspace.useScenario(bashThenDone());
    const child = spawnAgentwire(["--input-format", "stream-json", ...STREAM, "--permission-prompt-tool", "stdio"], { workspace });
    onStdoutEvents<{ type: string; request_id?: string; request?: { subtype: string } }>(child, (event) => {
      if (event.type === "control_request" && event.request?.subtype === "can_use_tool") {
        child.stdin.end(
          `${JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: event.request_id, response: { behavior: "allow" } } })}\n`,
        );
      }
    });
    child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: "go" } })}\n`);
    const result = await waitForExit(child);
    expectWellFormedRun(result, 1);
    expect(recorded("Notification")).toEqual([
      expect.objectContaining({
        hook_event_name: "Notification",
        notification_type: "permission_prompt",
        message: "agentwire needs your permission to use Bash",
      }),
    ]);
    expect(existsSync(join(workspace.cwd, "ran.txt"))).toBe(true);
  });
});

describe("hooks: Claude Code's protocol", () => {
  it.each<[string, Settings, string[], { ran: boolean; content?: unknown; warning?: string }]>([
    [
      "exit 1 is a warning; the call runs",
      hooksFor("PreToolUse", "echo broken >&2; exit 1"),
      ["--dangerously-skip-permissions"],
      { ran: true, warning: "failed with exit code 1: broken" },
    ],
    [
      "JSON allow runs a call nobody could have approved",
      hooksFor("PreToolUse", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`),
      [],
      { ran: true },
    ],
    [
      "JSON deny refuses it with the reason",
      hooksFor(
        "PreToolUse",
        `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not on Fridays"}}'`,
      ),
      ["--dangerously-skip-permissions"],
      { ran: false, content: "not on Fridays" },
    ],
    [
      "JSON ask asks, and with nobody to ask the call is denied",
      hooksFor(
        "PreToolUse",
        `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check first"}}'`,
      ),
      ["--dangerously-skip-permissions"],
      { ran: false, content: expect.stringContaining("check first") },
    ],
    [
      "a matcher for other tools leaves Bash alone",
      hooksFor("PreToolUse", "exit 2", "Write|Edit"),
      ["--dangerously-skip-permissions"],
      { ran: true },
    ],
    [
      "PostToolUse exit 2 feeds stderr to the model with the result",
      hooksFor("PostToolUse", "echo 'lint: 2 problems' >&2; exit 2", "Bash"),
      ["--dangerously-skip-permissions"],
      { ran: true, content: "lint: 2 problems" },
    ],
    [
      "PostToolUse additionalContext reaches the model with the result",
      hooksFor("PostToolUse", `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"formatted ran.txt"}}'`),
      ["--dangerously-skip-permissions"],
      { ran: true, content: "formatted ran.txt" },
    ],
    [
      "systemMessage is a warning for the user",
      hooksFor("PostToolUse", `echo '{"systemMessage":"remember to commit"}'`),
      ["--dangerously-skip-permissions"],
      { ran: true, warning: "remember to commit" },
    ],
  ])("%s", async (_name, hooks, flags, expected) => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(bashThenDone("touch ran.txt && echo made"));
    const result = await run(["--settings", JSON.stringify({ hooks }), ...flags]);
    expectWellFormedRun(result, 1);
    expect(existsSync(join(workspace.cwd, "ran.txt"))).toBe(expected.ran);
    if (expected.content !== undefined) {
      const content = toolOutcomes(result.events)[0]!.content;
      expect(content).toEqual(typeof expected.content === "string" ? expect.stringContaining(expected.content) : expected.content);
    }
    const warnings = warningsOf(result.events).map((warning) => `${warning.code}: ${warning.message}`);
    expect(warnings).toEqual(expected.warning ? [expect.stringContaining(expected.warning)] : []);
  });

  it("UserPromptSubmit exit 2 blocks the prompt: no model request, an error result with the reason", async () => {
    workspace = await createWorkspace("text");
    const result = await run([
      "--settings",
      JSON.stringify({ hooks: hooksFor("UserPromptSubmit", "echo 'no prompts after 6pm' >&2; exit 2") }),
    ]);
    expect(result.code).toBe(1);
    expect(results(result.events)[0]).toMatchObject({
      is_error: true,
      terminal_reason: "hook_blocked",
      errors: [expect.stringContaining("no prompts after 6pm")],
    });
    expect(workspace.server.requests).toHaveLength(0);
  });

  it("Stop exit 2 keeps the turn going with stderr for the model; the next Stop says stop_hook_active", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "first answer" }, { text: "second answer" }] });
    const stop = `${recorder("Stop")}; grep -q '"stop_hook_active":true' ${logDirectory()}/Stop.jsonl && exit 0; echo 'run the tests first' >&2; exit 2`;
    const result = await run(["--settings", JSON.stringify({ hooks: hooksFor("Stop", stop) })]);
    expectWellFormedRun(result, 1);
    expect(results(result.events)[0]).toMatchObject({ result: "second answer", num_turns: 2 });
    expect(requestText(1)).toContain("run the tests first");
    expect(recorded("Stop").map((input) => input.stop_hook_active)).toEqual([false, true]);
  });

  it("a hook over its timeout is stopped with what it started, the session is told, and the call goes on", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(bashThenDone());
    const result = await run([
      "--dangerously-skip-permissions",
      "--settings",
      JSON.stringify({ hooks: hooksFor("PreToolUse", "sleep 317 & sleep 317; exit 2", undefined, { timeout: 1 }) }),
    ]);
    expectWellFormedRun(result, 1);
    expect(warningsOf(result.events)).toEqual([
      expect.objectContaining({ code: "hook_failed", message: expect.stringContaining("did not finish within 1 s") }),
    ]);
    expect(existsSync(join(workspace.cwd, "ran.txt"))).toBe(true);
    expect(await until(() => pidsRunning("sleep 317").length === 0, 3_000), "no process of the hook is left").toBe(true);
  });

  it("an interrupt stops a running hook with what it started; so does agentwire's end, even by SIGKILL", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ tool_calls: [{ name: "Bash", input: { command: "true" } }], repeat: true }] });
    const settings = { hooks: hooksFor("PreToolUse", "sleep 318 & sleep 318") };
    const child = spawnAgentwire(
      ["--input-format", "stream-json", ...STREAM, "--dangerously-skip-permissions", "--settings", JSON.stringify(settings)],
      { workspace },
    );
    const exited = waitForExit(child);
    const say = (text: string) => child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: text } })}\n`);
    say("go");
    expect(await until(() => pidsRunning("sleep 318").length === 2, 10_000), "the hook runs").toBe(true);
    child.stdin.write(`${JSON.stringify({ type: "control_request", request_id: "stop-1", request: { subtype: "interrupt" } })}\n`);
    expect(await until(() => pidsRunning("sleep 318").length === 0, 3_000), "the interrupt stopped the hook and its child").toBe(true);
    say("again");
    expect(await until(() => pidsRunning("sleep 318").length === 2, 10_000), "the next turn's hook runs").toBe(true);
    child.kill("SIGKILL");
    await exited;
    expect(await until(() => pidsRunning("sleep 318").length === 0, 4_000), "nothing of the hook outlives agentwire").toBe(true);
  });

  it("a hook's environment has no provider key, and CLAUDE_PROJECT_DIR", async () => {
    workspace = await createWorkspace("text");
    const envFile = join(workspace.root, "hook-env.txt");
    await run(["--settings", JSON.stringify({ hooks: hooksFor("UserPromptSubmit", `env > ${envFile}`) })], {
      OPENAI_API_KEY: "sk-never-seen",
    });
    const env = readFileSync(envFile, "utf8");
    expect(env).toContain(`CLAUDE_PROJECT_DIR=${workspace.cwd}\n`);
    expect(env).not.toContain("ANTHROPIC_API_KEY");
    expect(env).not.toContain("sk-never-seen");
    expect(env).not.toContain("test-key");
  });
});
