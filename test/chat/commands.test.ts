import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SystemInitEvent } from "../../protocol/events.js";
import type { Query } from "../../src/api/query.js";
import { parseCommand, runCommand as runParsed, type CommandHost } from "../../src/chat/commands.js";
import { createStyle } from "../../src/render/style.js";

const runCommand = (text: string, shown: string, host: CommandHost) => runParsed(parseCommand(text)!, text, shown, host);

/** A chat as its commands see it, recording what they did. */
function fakeHost(init?: Partial<SystemInitEvent>) {
  const home = mkdtempSync(join(tmpdir(), "agentwire-chat-commands-"));
  const done: { printed: string[]; sent: string[]; modes: string[]; models: string[]; resumed: string[]; exits: number[] } = {
    printed: [],
    sent: [],
    modes: [],
    models: [],
    resumed: [],
    exits: [],
  };
  const host: CommandHost = {
    style: createStyle(false),
    queryOptions: { cwd: home, env: { AGENTWIRE_HOME: home } },
    init: init as SystemInitEvent | undefined,
    query: { setModel: async (model: string) => void done.models.push(model) } as unknown as Query,
    totals: { turns: 2, inputTokens: 1200, outputTokens: 34, costUsd: 0.5 },
    allowedInChat: ["Write"],
    permissionMode: "default",
    setPermissionMode: async (mode) => {
      if (mode === "sideways") throw new Error("unknown mode");
      done.modes.push(mode);
    },
    print: (lines) => done.printed.push(...lines),
    send: (text) => done.sent.push(text),
    exit: async (code) => void done.exits.push(code),
    resume: async (sessionId) => void done.resumed.push(sessionId),
  };
  return { host, done, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

describe("the chat's commands", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());
  const make = (init?: Partial<SystemInitEvent>) => {
    const made = fakeHost(init);
    cleanup = made.cleanup;
    return made;
  };

  it("tells a command from a prompt", () => {
    expect(parseCommand("hello /there")).toBeUndefined();
    expect(parseCommand(" /compact  focus on tests \n")).toEqual({ name: "compact", argument: "focus on tests" });
  });

  it("switches the permission mode and shows the new one; refuses an unknown mode", async () => {
    const { host, done } = make();
    await runCommand("/permissions plan", "/permissions plan", host);
    expect(done.modes).toEqual(["plan"]);
    expect(done.printed).toEqual(["Permission mode: plan", "Always allowed in this chat: Write"]);
    done.printed.length = 0;
    await runCommand("/permissions sideways", "/permissions sideways", host);
    expect(done.printed).toEqual(["Unknown permission mode sideways: default, acceptEdits, plan, bypassPermissions."]);
  });

  it("shows totals, switches models, sends the session's own commands and refuses unknown ones", async () => {
    const { host, done } = make({ model: "m1", provider: "p", slash_commands: ["review"], skills: [] });
    await runCommand("/cost", "/cost", host);
    await runCommand("/model m2", "/model m2", host);
    await runCommand("/compact  focus on tests ", "/compact", host);
    await runCommand("/review now", "/review now", host);
    await runCommand("/nope", "/nope", host);
    await runCommand("/skills", "/skills", host);
    expect(done.models).toEqual(["m2"]);
    expect(done.sent).toEqual(["/compact  focus on tests", "/review now"]);
    expect(done.printed).toEqual([
      "This chat: 2 turns · 1,200 tokens in, 34 out · session cost $0.5000",
      "Model set to m2 from the next request.",
      "Unknown command /nope; /help lists them.",
      "No skills in this session (SKILL.md folders: .agentwire/skills, ~/.agentwire/skills).",
    ]);
  });

  it("lists no sessions in a new directory and finds none to resume", async () => {
    const { host, done } = make();
    await runCommand("/sessions", "/sessions", host);
    await runCommand("/resume 3", "/resume 3", host);
    expect(done.printed).toEqual(["No stored sessions in this directory.", "No session 3 here; /sessions lists them."]);
    expect(done.resumed).toEqual([]);
  });
});
