import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent } from "../../protocol/events.js";
import { applyPermissionUpdates } from "../../src/permissions/permission-updates.js";
import { parseRuleList } from "../../src/permissions/rule-syntax.js";
import { createSession } from "../../src/session/session.js";
import { SessionSetupError, type SessionOptions } from "../../src/session/session-options.js";
import { toUserMessage } from "../../src/session/user-input.js";
import { FakeProvider, textTurn, toolTurn } from "../helpers/fake-provider.js";
import { sequence } from "../helpers/agentwire.js";

/** The session core in this process, with a scripted provider: no CLI, no spawn, no stdin. */
let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function setUp(provider: FakeProvider, extra: Partial<SessionOptions> = {}) {
  root = await mkdtemp(join(tmpdir(), "agentwire-session-"));
  const events: OutputEvent[] = [];
  const session = createSession({
    cwd: root,
    provider: "anthropic",
    model: "claude-opus-5-5",
    env: {},
    home: join(root, ".home"),
    providerInstance: provider,
    onEvent: (event) => events.push(event),
    ...extra,
  });
  return { session, events, cwd: root };
}

describe("createSession", () => {
  it("runs a turn to one result, persists it, and resumes it from the store", async () => {
    const provider = new FakeProvider([textTurn("Hello."), textTurn("Again.")]);
    const { session, events, cwd } = await setUp(provider);
    events.push(await session.initEvent());
    const result = await session.runTurn(toUserMessage("hi"));
    expect(sequence(events)).toEqual(["system/init", "assistant:text", "result/success"]);
    expect(result).toMatchObject({ result: "Hello.", session_id: session.sessionId });
    const lines = (await readFile(session.transcriptPath!, "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string });
    expect(lines.map((line) => line.type)).toEqual(["session", "message", "message", "turn_end"]);
    await session.close();

    const resumed = createSession({
      cwd,
      provider: "anthropic",
      model: "claude-opus-5-5",
      env: {},
      home: join(cwd, ".home"),
      providerInstance: provider,
      onEvent: () => {},
      resume: session.sessionId,
    });
    await resumed.runTurn(toUserMessage("once more"));
    expect(provider.requests[1]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    await resumed.close();
  });

  it("asks the approver, and an 'always allow' answer applies to the rest of the session", async () => {
    const write = (name: string) => ({ id: `toolu_${name}`, name: "Write", input: { file_path: name, content: "x" } });
    const provider = new FakeProvider([toolTurn([write("a.txt")]), textTurn("one"), toolTurn([write("b.txt")]), textTurn("two")]);
    const asked: string[] = [];
    const { session, cwd } = await setUp(provider, {
      approve: async (request) => {
        asked.push(`${request.toolName} ${String(request.input.file_path)} (${request.reasonType})`);
        return {
          behavior: "allow",
          updatedPermissions: [{ type: "addRules", rules: [{ toolName: "Write" }], behavior: "allow", destination: "session" }],
        };
      },
    });
    await session.runTurn(toUserMessage("write a"));
    await session.runTurn(toUserMessage("write b"));
    expect(asked).toEqual(["Write a.txt (mode)"]);
    expect(existsSync(join(cwd, "a.txt")) && existsSync(join(cwd, "b.txt"))).toBe(true);
    await session.close();
  });

  it("set_permission_mode takes effect and is announced; close() removes its private output folder", async () => {
    const provider = new FakeProvider([toolTurn([{ id: "toolu_seq", name: "Bash", input: { command: "seq 1 40000" } }]), textTurn("done")]);
    const { session, events } = await setUp(provider);
    session.setPermissionMode("bypassPermissions");
    expect(events.at(-1)).toMatchObject({ type: "system", subtype: "status", permissionMode: "bypassPermissions" });
    await session.runTurn(toUserMessage("count"));
    // The long output went to a file in the session's own folder, which Read may page through.
    const toolResult = events.find((event) => event.type === "user");
    const text = JSON.stringify(toolResult);
    const outputFile = new RegExp(`(/\\S*?agentwire-${session.sessionId}-[0-9a-f]+/bash-\\d+\\.log)`).exec(text)?.[1];
    expect(outputFile, text.slice(0, 400)).toBeDefined();
    expect(existsSync(outputFile!)).toBe(true);
    await session.close();
    expect(existsSync(outputFile!)).toBe(false);
    expect(session.closed).toBe(true);
  });

  it("refuses settings that cannot work, with the reason", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "agentwire-session-"));
    root = cwd;
    const base = { provider: "anthropic" as const, model: "claude-opus-5-5", env: {}, home: join(cwd, ".home"), onEvent: () => {} };
    expect(() => createSession({ ...base, cwd: join(cwd, "missing") })).toThrow(SessionSetupError);
    expect(() => createSession({ ...base, cwd, tools: ["Nope"] })).toThrow(/Unknown tool name in --tools: Nope/);
    expect(() => createSession({ ...base, cwd, resume: "absent" })).toThrow(/No conversation found/);
    expect(() => createSession({ ...base, cwd, maxTurns: 0 })).toThrow(/maxTurns/);
  });
});

describe("applyPermissionUpdates", () => {
  const state = {
    mode: "default" as const,
    rules: { allow: parseRuleList(["Read"]), deny: [], ask: [] },
    roots: ["/work/repo", "/tmp/out"],
  };

  it("adds, replaces and removes rules, sets the mode and changes roots, without touching the input", () => {
    const next = applyPermissionUpdates(state, [
      { type: "addRules", rules: [{ toolName: "Bash", ruleContent: "npm test" }], behavior: "allow" },
      { type: "removeRules", rules: [{ toolName: "Read" }], behavior: "allow" },
      { type: "replaceRules", rules: [{ toolName: "Write" }], behavior: "deny" },
      { type: "setMode", mode: "acceptEdits" },
      { type: "addDirectories", directories: ["../shared", "/tmp/out"] },
      { type: "removeDirectories", directories: ["/work/repo", "/tmp/out"] },
    ]);
    expect(next).toEqual({
      mode: "acceptEdits",
      rules: { allow: [{ toolName: "Bash", content: "npm test" }], deny: [{ toolName: "Write", content: undefined }], ask: [] },
      // The working directory always stays first.
      roots: ["/work/repo", "/work/shared"],
    });
    expect(state.rules.allow).toHaveLength(1);
    expect(state.roots).toEqual(["/work/repo", "/tmp/out"]);
  });
});
