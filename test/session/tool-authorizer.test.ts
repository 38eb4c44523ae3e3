import { describe, expect, it } from "vitest";
import type { HookOutput } from "../../protocol/control.js";
import { createToolAuthorizer, type ToolAuthorizerOptions } from "../../src/session/tool-authorizer.js";
import { traitsOf } from "../helpers/tool-traits.js";

/** What carries "approved only by the read-only judgement" from the policy to the loop, and what does not. */
const call = (command: string) => ({ type: "tool_use" as const, id: "t1", name: "Bash", input: { command } });

function authorizer(overrides: Partial<ToolAuthorizerOptions> = {}) {
  return createToolAuthorizer({
    permissions: () => ({ mode: "default", rules: { allow: [], deny: [], ask: [] }, roots: ["/work/project"] }),
    traitsOf,
    askHost: undefined,
    hooks: undefined,
    hookBase: () => ({}),
    onHookStop: () => undefined,
    ...overrides,
  });
}

const hookAnswering = (output: HookOutput): ToolAuthorizerOptions["hooks"] => ({
  has: (event) => event === "PreToolUse",
  run: async () => ({ outputs: [output], undelivered: 0 }),
});

describe("createToolAuthorizer", () => {
  it("a read-only command the policy alone approved is marked judgedReadOnly", async () => {
    expect(await authorizer()(call("ls -la"), new AbortController().signal)).toEqual({ allow: true, judgedReadOnly: true });
  });

  it("a hook's allow, a host's answer and an allow rule approve it as they are: not marked as judged read-only", async () => {
    const signal = new AbortController().signal;
    const hook = hookAnswering({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } });
    expect(await authorizer({ hooks: hook })(call("ls -la"), signal)).toEqual({ allow: true, approvedExplicitly: true });
    const rules = { allow: [{ toolName: "Bash", content: "ls:*" }], deny: [], ask: [] };
    expect(await authorizer({ permissions: () => ({ mode: "default", rules, roots: ["/work/project"] }) })(call("ls -la"), signal)).toEqual(
      { allow: true },
    );
    const host = authorizer({ askHost: async () => ({ allow: true }) });
    expect(await host(call("touch x"), signal)).toEqual({ allow: true, approvedExplicitly: true });
  });

  it("a hook's allow skips the question but not an ask rule, as in Claude Code", async () => {
    const signal = new AbortController().signal;
    const hook = hookAnswering({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } });
    const rules = { allow: [], deny: [], ask: [{ toolName: "Bash", content: "touch:*" }] };
    const withAskRule = authorizer({ hooks: hook, permissions: () => ({ mode: "default", rules, roots: ["/work/project"] }) });
    expect(await withAskRule(call("touch x"), signal)).toMatchObject({
      allow: false,
      message: expect.stringContaining("an ask rule matches"),
    });
    expect(await authorizer({ hooks: hook })(call("touch x"), signal)).toEqual({ allow: true, approvedExplicitly: true });
  });

  it("a hook's continue: false does not decide the call, as in Claude Code: the call is decided as without it, and the stop is reported", async () => {
    const signal = new AbortController().signal;
    const stops: unknown[] = [];
    const onHookStop = (stop: unknown) => void stops.push(stop);
    const stopping = (extra: HookOutput) => hookAnswering({ continue: false, stopReason: "enough", ...extra });
    expect(await authorizer({ hooks: stopping({}), onHookStop })(call("ls -la"), signal)).toEqual({ allow: true, judgedReadOnly: true });
    expect(
      await authorizer({
        hooks: stopping({
          hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" },
        }),
        onHookStop,
      })(call("ls -la"), signal),
    ).toEqual({ allow: false, message: "no" });
    expect(stops).toEqual([
      { event: "PreToolUse", reason: "enough" },
      { event: "PreToolUse", reason: "enough" },
    ]);
    await authorizer({ hooks: hookAnswering({ continue: true }), onHookStop })(call("ls -la"), signal);
    expect(stops).toHaveLength(2);
  });

  it("passes the shell's current directory to the policy", async () => {
    const seen: string[] = [];
    await authorizer({
      commandDirectory: () => {
        seen.push("asked");
        return "/work/project/sub";
      },
    })(call("git status"), new AbortController().signal);
    expect(seen).toEqual(["asked"]);
  });
});
