import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent, ResultEvent } from "../../protocol/events.js";
import {
  createWorkspace,
  expectWellFormedRun,
  results,
  runAgentwire,
  toolOutcomes,
  type RunResult,
  type Workspace,
} from "../helpers/agentwire.js";
import { startControlHost } from "../helpers/control-host.js";

/**
 * A hook answering `{"continue": false, "stopReason": …}` stops the run, as in Claude Code: after
 * the hooks of that event ran, on any event, for settings commands and the host's callbacks
 * alike. The turn ends with a success result (`hook_stopped`, or `stop_hook_prevented` for a Stop
 * hook), calls not started yet are answered as not run, the stopReason reaches the user (a
 * `hook_stopped` warning) and never the model, and the session goes on with the next turn.
 */
const STREAM = ["--output-format", "stream-json", "--verbose"];
const STOP = `{"continue":false,"stopReason":"the build is frozen"}`;
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

const settingsWith = (event: string, answer: string, matcher?: string): string[] => [
  "--settings",
  JSON.stringify({ hooks: { [event]: [{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command: `echo '${answer}'` }] }] } }),
];
const run = (args: string[]): Promise<RunResult> => runAgentwire(["-p", "go", ...STREAM, ...args], { workspace: workspace! });
const warningsOf = (events: OutputEvent[]) =>
  events.flatMap((event) => (event.type === "system" && event.subtype === "warning" ? [event as { code: string; message: string }] : []));
const allRequests = () => JSON.stringify(workspace!.server.requests.map((request) => request.body));
/** Two calls in one response, run one after the other (Bash is not read-only). */
const twoBashCalls = {
  turns: [
    {
      tool_calls: [
        { name: "Bash", input: { command: "touch one.txt" } },
        { name: "Bash", input: { command: "touch two.txt" } },
      ],
    },
    { text: "done" },
  ],
};

function expectStopped(result: RunResult, terminalReason: ResultEvent["terminal_reason"], text = ""): void {
  expectWellFormedRun(result, 1);
  expect(results(result.events)[0]).toMatchObject({ subtype: "success", is_error: false, terminal_reason: terminalReason, result: text });
  expect(warningsOf(result.events)).toEqual([
    {
      type: "system",
      subtype: "warning",
      code: "hook_stopped",
      message: expect.stringContaining("the build is frozen"),
      session_id: expect.any(String),
      uuid: expect.any(String),
    },
  ]);
  expect(allRequests()).not.toContain("the build is frozen");
  expect(result.stderr).toBe("");
}

describe("a settings hook answering continue: false", () => {
  it("PreToolUse: the call runs as decided (Claude Code does), the calls after it are answered as not run, and the turn ends; resumed, the session goes on", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(twoBashCalls);
    const stopped = await run(["--dangerously-skip-permissions", ...settingsWith("PreToolUse", STOP, "Bash")]);
    expectStopped(stopped, "hook_stopped");
    expect(workspace.server.requests).toHaveLength(1);
    expect(existsSync(join(workspace.cwd, "one.txt"))).toBe(true);
    expect(existsSync(join(workspace.cwd, "two.txt"))).toBe(false);
    expect(toolOutcomes(stopped.events)).toEqual([
      expect.objectContaining({ isError: false }),
      expect.objectContaining({ isError: true, code: "aborted", content: "Not run: a hook stopped the run before this call." }),
    ]);

    await workspace.useScenario({ turns: [{ text: "picked up again" }] });
    const resumed = await runAgentwire(["-p", "go on", ...STREAM, "--resume", results(stopped.events)[0]!.session_id], { workspace });
    expectWellFormedRun(resumed, 1);
    expect(results(resumed.events)[0]).toMatchObject({ subtype: "success", result: "picked up again" });
    expect(allRequests()).toContain("Not run: a hook stopped the run before this call.");
    expect(allRequests()).not.toContain("the build is frozen");
  });

  it("PreToolUse with a deny as well: the call does not run, it is a permission denial, and the turn ends", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(twoBashCalls);
    const answer = `{"continue":false,"stopReason":"the build is frozen","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no shell"}}`;
    const stopped = await run(["--dangerously-skip-permissions", ...settingsWith("PreToolUse", answer, "Bash")]);
    expectStopped(stopped, "hook_stopped");
    expect(existsSync(join(workspace.cwd, "one.txt"))).toBe(false);
    expect(toolOutcomes(stopped.events).map((outcome) => outcome.content)).toEqual([
      "no shell",
      "Not run: a hook stopped the run before this call.",
    ]);
    expect(results(stopped.events)[0]!.permission_denials).toEqual([
      expect.objectContaining({ tool_name: "Bash", tool_input: { command: "touch one.txt" } }),
    ]);
  });

  it("PostToolUse: the call ran and its result is kept; the next call and the next request do not happen", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(twoBashCalls);
    const stopped = await run(["--dangerously-skip-permissions", ...settingsWith("PostToolUse", STOP, "Bash")]);
    expectStopped(stopped, "hook_stopped");
    expect(workspace.server.requests).toHaveLength(1);
    expect(existsSync(join(workspace.cwd, "one.txt"))).toBe(true);
    expect(existsSync(join(workspace.cwd, "two.txt"))).toBe(false);
    expect(toolOutcomes(stopped.events).map((outcome) => outcome.isError)).toEqual([false, true]);
  });

  it("UserPromptSubmit: no model request, a success result, exit 0", async () => {
    workspace = await createWorkspace("text");
    const stopped = await run(settingsWith("UserPromptSubmit", STOP));
    expectStopped(stopped, "hook_stopped");
    expect(workspace.server.requests).toHaveLength(0);
    expect(stopped.code).toBe(0);
  });

  it("Stop: the turn ends with the model's answer even when the hook also blocks (continue: false takes precedence)", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "first answer" }, { text: "second answer" }] });
    const stopped = await run(
      settingsWith("Stop", `{"continue":false,"stopReason":"the build is frozen","decision":"block","reason":"keep going"}`),
    );
    expectStopped(stopped, "stop_hook_prevented", "first answer");
    expect(workspace.server.requests).toHaveLength(1);
  });

  it("SessionStart: the first turn ends before the model is asked; the next turn of the session runs", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "second turn answered" }] });
    const host = startControlHost(settingsWith("SessionStart", STOP), { workspace, answer: () => ({ error: "unexpected" }) });
    const user = (content: string) => ({
      type: "user",
      message: { role: "user", content },
      parent_tool_use_id: null,
      session_id: "default",
    });
    host.send(user("one"));
    await host.waitUntil((events) => results(events).length >= 1);
    host.send(user("two"));
    await host.waitUntil((events) => results(events).length >= 2);
    const session = await host.finish();
    expectWellFormedRun(session, 2);
    expect(results(session.events).map((result) => [result.terminal_reason, result.result])).toEqual([
      ["hook_stopped", ""],
      ["completed", "second turn answered"],
    ]);
    expect(workspace.server.requests).toHaveLength(1);
    expect(allRequests()).not.toContain("the build is frozen");
  });
});

describe("a host hook answering continue: false", () => {
  it("PostToolUse over hook_callback stops the turn the same way; the next turn of the session runs", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [...twoBashCalls.turns.slice(0, 1), { text: "second turn answered" }] });
    const host = startControlHost(["--dangerously-skip-permissions"], {
      workspace,
      answer: (request) =>
        request.subtype === "hook_callback" ? { continue: false, stopReason: "the build is frozen" } : { error: "unexpected" },
    });
    host.send({
      type: "control_request",
      request_id: "req_1",
      request: { subtype: "initialize", hooks: { PostToolUse: [{ matcher: "Bash", hookCallbackIds: ["hook_0"] }] } },
    });
    const user = (content: string) => ({
      type: "user",
      message: { role: "user", content },
      parent_tool_use_id: null,
      session_id: "default",
    });
    host.send(user("one"));
    await host.waitUntil((events) => results(events).length >= 1);
    host.send(user("two"));
    await host.waitUntil((events) => results(events).length >= 2);
    const session = await host.finish();
    expectWellFormedRun(session, 2);
    expect(results(session.events).map((result) => [result.subtype, result.terminal_reason, result.result])).toEqual([
      ["success", "hook_stopped", ""],
      ["success", "completed", "second turn answered"],
    ]);
    expect(host.requests.filter((request) => request.subtype === "hook_callback")).toHaveLength(1);
    expect(existsSync(join(workspace.cwd, "one.txt"))).toBe(true);
    expect(existsSync(join(workspace.cwd, "two.txt"))).toBe(false);
    expect(warningsOf(session.events).map((warning) => warning.code)).toEqual(["hook_stopped"]);
    // The second turn's request carries the first turn's results, but not the stopReason.
    expect(workspace.server.requests).toHaveLength(2);
    expect(allRequests()).toContain("Not run: a hook stopped the run before this call.");
    expect(allRequests()).not.toContain("the build is frozen");
  });
});
