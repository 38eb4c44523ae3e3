import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/conversation/messages.js";
import { loadSession, SessionNotFoundError, SessionUnreadableError } from "../../src/sessions/load-session.js";
import { agentwireHome, projectKey, SESSION_FILE_VERSION, sessionFile } from "../../src/sessions/session-file.js";
import { newestSessionId, sessionExists, SessionStore } from "../../src/sessions/store.js";

const CWD = "/work/some.project";
const FIRST_ID = "00000000-0000-4000-8000-000000000001";
const SECOND_ID = "00000000-0000-4000-8000-000000000002";

let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "agentwire-store-"));
});

afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const userText = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const assistantText = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] });

const MODEL_USAGE = {
  "claude-test": {
    inputTokens: 100,
    outputTokens: 20,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
    webSearchRequests: 0,
    costUSD: 0.0042,
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
  },
};

function fileLines(file: string): unknown[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((text) => text !== "")
    .map((text) => JSON.parse(text));
}

describe("projectKey", () => {
  it.each([
    ["/tmp/x.y_z w/work", "-tmp-x-y-z-w-work"],
    ["/Users/Ada/Code/agentwire", "-Users-Ada-Code-agentwire"],
    ["/srv/ünïcode", "-srv--n-code"],
  ])("maps %s to %s", (cwd, key) => {
    expect(projectKey(cwd)).toBe(key);
  });

  it("puts sessions under <home>/projects/<key>/<id>.jsonl", () => {
    expect(sessionFile("/h", "/tmp/x.y", "abc")).toBe("/h/projects/-tmp-x-y/abc.jsonl");
  });
});

describe("agentwireHome", () => {
  it("prefers AGENTWIRE_HOME", () => {
    expect(agentwireHome({ AGENTWIRE_HOME: "/custom" })).toBe("/custom");
  });
});

describe("SessionStore", () => {
  it("round-trips messages and the cumulative cost", () => {
    const store = SessionStore.create(home, CWD, FIRST_ID, "9.9.9");
    const messages: Message[] = [
      userText("hello"),
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "/a" } }] },
      { role: "user", content: [{ type: "tool_result", toolUseId: "toolu_1", content: "body", isError: false }] },
      assistantText("done"),
    ];
    messages.forEach((message) => store.appendMessage(message));
    store.appendTurnEnd(0.0042, MODEL_USAGE);

    const loaded = loadSession(home, CWD, FIRST_ID);

    expect(loaded).toEqual({
      sessionId: FIRST_ID,
      history: messages,
      toolUseResults: {},
      modelUsage: MODEL_USAGE,
      totalCostUsd: 0.0042,
      diagnostics: [],
    });
    expect(store.file).toBe(sessionFile(home, CWD, FIRST_ID));
    const [header, ...entries] = fileLines(store.file);
    expect(header).toMatchObject({
      type: "session",
      version: SESSION_FILE_VERSION,
      session_id: FIRST_ID,
      cwd: CWD,
      agentwire_version: "9.9.9",
    });
    expect(entries.map((entry) => (entry as { type: string }).type)).toEqual(["message", "message", "message", "message", "turn_end"]);
  });

  it("appends to an existing session without a second header", () => {
    const first = SessionStore.create(home, CWD, FIRST_ID, "1.0.0");
    first.appendMessage(userText("one"));
    first.appendMessage(assistantText("two"));
    first.appendTurnEnd(0.01, MODEL_USAGE);

    const resumed = SessionStore.create(home, CWD, FIRST_ID, "1.0.0");
    resumed.appendMessage(userText("three"));
    resumed.appendTurnEnd(0.02, MODEL_USAGE);

    const lines = fileLines(sessionFile(home, CWD, FIRST_ID)) as Array<{ type: string }>;
    expect(lines.filter((entry) => entry.type === "session")).toHaveLength(1);
    const loaded = loadSession(home, CWD, FIRST_ID);
    expect(loaded.history).toEqual([userText("one"), assistantText("two"), userText("three")]);
    expect(loaded.totalCostUsd).toBe(0.02);
  });

  it("creates nothing until the first message", () => {
    SessionStore.create(home, CWD, FIRST_ID, "1.0.0");

    expect(sessionExists(home, CWD, FIRST_ID)).toBe(false);
  });

  it("writes the file readable by its owner only", () => {
    const store = SessionStore.create(home, CWD, FIRST_ID, "1.0.0");
    store.appendMessage(userText("secret"));

    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(store.file)).mode & 0o777).toBe(0o700);
  });
});

describe("loadSession", () => {
  it("tolerates a truncated last line and says so", () => {
    const store = SessionStore.create(home, CWD, FIRST_ID, "1.0.0");
    store.appendMessage(userText("kept"));
    store.appendMessage(assistantText("also kept"));
    const truncated = '{"type":"message","message":{"role":"user","cont';
    appendFileSync(store.file, truncated);

    const loaded = loadSession(home, CWD, FIRST_ID);

    expect(loaded.history).toEqual([userText("kept"), assistantText("also kept")]);
    expect(loaded.diagnostics).toEqual([`ignored a truncated last line (${truncated.length} bytes)`]);
  });

  it("skips unreadable and invalid lines in the middle", () => {
    const store = SessionStore.create(home, CWD, FIRST_ID, "1.0.0");
    store.appendMessage(userText("one"));
    appendFileSync(store.file, "not json\n");
    appendFileSync(store.file, '{"type":"message","message":{"role":"robot","content":[]},"timestamp":"t"}\n');
    store.appendMessage(assistantText("two"));

    const loaded = loadSession(home, CWD, FIRST_ID);

    expect(loaded.history).toEqual([userText("one"), assistantText("two")]);
    const lines = readFileSync(store.file, "utf8").split("\n");
    const offsetOfLine = (index: number) => Buffer.byteLength(lines.slice(0, index).join("\n")) + 1;
    expect(loaded.diagnostics).toEqual([
      `skipped an unreadable line at byte ${offsetOfLine(2)}`,
      `skipped an invalid entry at byte ${offsetOfLine(3)}`,
    ]);
  });

  it("continues from the last compaction without reading what lies before it", () => {
    const store = SessionStore.create(home, CWD, FIRST_ID, "1.0.0");
    store.appendMessage(userText("old question"));
    // Lines before the compaction would give diagnostics if they were parsed.
    appendFileSync(store.file, "garbage that nobody reads\n");
    store.appendTurnEnd(1, MODEL_USAGE);
    store.appendCompaction("auto", 1000, 100, [userText("summary of the old question")]);
    store.appendMessage(assistantText("newer answer"));
    store.appendMessage(userText("newest question"));

    const loaded = loadSession(home, CWD, FIRST_ID);

    expect(loaded.history).toEqual([userText("summary of the old question"), assistantText("newer answer"), userText("newest question")]);
    // The cost comes from the last turn_end, even one written before the compaction.
    expect(loaded.totalCostUsd).toBe(1);
    expect(loaded.diagnostics).toEqual([]);
  });

  it("takes the last turn_end after the compaction, and an empty conversation after /clear", () => {
    const store = SessionStore.create(home, CWD, FIRST_ID, "1.0.0");
    store.appendMessage(userText("q"));
    store.appendTurnEnd(1, MODEL_USAGE);
    store.appendCompaction("clear", 0, 0, []);
    store.appendTurnEnd(2, MODEL_USAGE);

    const loaded = loadSession(home, CWD, FIRST_ID);

    expect(loaded.history).toEqual([]);
    expect(loaded.totalCostUsd).toBe(2);
  });

  it("throws SessionNotFoundError for an unknown id", () => {
    expect(() => loadSession(home, CWD, SECOND_ID)).toThrow(SessionNotFoundError);
    try {
      loadSession(home, CWD, SECOND_ID);
    } catch (error) {
      expect((error as SessionNotFoundError).code).toBe("session_not_found");
      expect((error as Error).message).toContain(SECOND_ID);
    }
  });

  it("answers tool calls that never got a result", () => {
    const store = SessionStore.create(home, CWD, FIRST_ID, "1.0.0");
    const toolCalls: Message = {
      role: "assistant",
      content: [
        { type: "text", text: "Running two things." },
        { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "sleep 100" } },
        { type: "tool_use", id: "toolu_2", name: "Read", input: { file_path: "/a" } },
      ],
    };
    store.appendMessage(userText("go"));
    store.appendMessage(toolCalls);
    // The process died here, before the results were committed.

    const loaded = loadSession(home, CWD, FIRST_ID);

    expect(loaded.history).toHaveLength(3);
    expect(loaded.history.slice(0, 2)).toEqual([userText("go"), toolCalls]);
    expect(loaded.history[2]).toEqual({
      role: "user",
      content: ["toolu_1", "toolu_2"].map((toolUseId) => ({
        type: "tool_result",
        toolUseId,
        content: "The session ended before this tool call finished; it may or may not have run.",
        isError: true,
      })),
    });
    expect(loaded.diagnostics).toEqual(["added results for 2 tool call(s) that never finished"]);
  });

  it("puts the repair results into the user message that follows the calls", () => {
    const store = SessionStore.create(home, CWD, FIRST_ID, "1.0.0");
    store.appendMessage(userText("go"));
    store.appendMessage({ role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: {} }] });
    store.appendMessage(userText("[Request interrupted by user]"));

    const loaded = loadSession(home, CWD, FIRST_ID);

    expect(loaded.history).toHaveLength(3);
    expect(loaded.history[2]!.content.map((block) => block.type)).toEqual(["tool_result", "text"]);
  });

  it("refuses a file of a newer version: continuing it would append lines of an older format", () => {
    const file = sessionFile(home, CWD, FIRST_ID);
    SessionStore.create(home, CWD, FIRST_ID, "1.0.0").appendMessage(userText("x"));
    const [, ...rest] = readFileSync(file, "utf8").split("\n");
    const header = {
      type: "session",
      version: SESSION_FILE_VERSION + 1,
      session_id: FIRST_ID,
      cwd: CWD,
      created_at: "t",
      agentwire_version: "99",
    };
    writeFileSync(file, [JSON.stringify(header), ...rest].join("\n"));

    const before = readFileSync(file, "utf8");
    expect(() => loadSession(home, CWD, FIRST_ID)).toThrow(SessionUnreadableError);
    expect(() => loadSession(home, CWD, FIRST_ID)).toThrow(
      `its format (version ${SESSION_FILE_VERSION + 1}) is newer than this agentwire reads (${SESSION_FILE_VERSION})`,
    );
    expect(readFileSync(file, "utf8")).toBe(before);
  });
});

describe("newestSessionId", () => {
  it("picks the most recently written session of the cwd", () => {
    const first = SessionStore.create(home, CWD, FIRST_ID, "1.0.0");
    const second = SessionStore.create(home, CWD, SECOND_ID, "1.0.0");
    first.appendMessage(userText("a"));
    second.appendMessage(userText("b"));
    const older = new Date("2024-01-01T00:00:00Z");
    const newer = new Date("2024-06-01T00:00:00Z");

    utimesSync(first.file, older, older);
    utimesSync(second.file, newer, newer);
    expect(newestSessionId(home, CWD)).toBe(SECOND_ID);

    utimesSync(first.file, newer, newer);
    utimesSync(second.file, older, older);
    expect(newestSessionId(home, CWD)).toBe(FIRST_ID);
  });

  it("ignores other projects and returns undefined when there is nothing", () => {
    expect(newestSessionId(home, CWD)).toBeUndefined();
    SessionStore.create(home, "/elsewhere", FIRST_ID, "1.0.0").appendMessage(userText("a"));

    expect(newestSessionId(home, CWD)).toBeUndefined();
  });
});
