import { afterEach, describe, expect, it, vi } from "vitest";
import { chooseLogFormat, createLogger } from "../../src/cli/log.js";

// The CLI's logger writes its records itself, synchronously (log-records.test.ts holds them to pino's format).
afterEach(() => vi.restoreAllMocks());

function captureStderr(): string[] {
  const written: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  return written;
}

describe("the CLI logger", () => {
  it("writes each JSON record at once, in pino's line shape, so none is lost when the process exits next", () => {
    const written = captureStderr();
    const log = createLogger("info", "json");
    log.debug({ ignored: true }, "below the level");
    expect(written).toEqual([]);
    log.info({ session: "s1", err: new Error("boom") }, "stdout was closed by its reader");
    log.warn("a plain message");
    const lines = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 30,
      name: "agentwire",
      msg: "stdout was closed by its reader",
      session: "s1",
      err: { type: "Error", message: "boom" },
    });
    expect(lines[0]!.time).toEqual(expect.any(Number));
    expect(lines[1]).toMatchObject({ level: 40, msg: "a plain message" });
  });

  it("in the text format, writes each record at once as one readable line, as the CLI's own notices", () => {
    const written = captureStderr();
    const log = createLogger("debug", "text");
    log.debug({ provider: "anthropic", attempt: 1, url: "http://127.0.0.1:1" }, "model request");
    log.warn("Redacted 1 secret(s)");
    const error = new Error("boom");
    log.error({ err: error }, "turn failed");
    const lines = written.join("").split("\n");
    expect(lines[0]).toBe("agentwire: debug: model request provider=anthropic attempt=1 url=http://127.0.0.1:1");
    expect(lines[1]).toBe("agentwire: warning: Redacted 1 secret(s)");
    expect(lines[2]).toBe("agentwire: error: turn failed");
    expect(lines[3]).toMatch(/^ {4}Error: boom$/);
    expect(written.join("")).not.toMatch(/^\{/m);
  });

  it("chooses JSON records for --debug into a pipe or when AGENTWIRE_LOG_FORMAT says so, readable lines otherwise", () => {
    expect(chooseLogFormat({}, false, false)).toBe("text");
    expect(chooseLogFormat({}, true, true)).toBe("text");
    expect(chooseLogFormat({}, true, false)).toBe("json");
    expect(chooseLogFormat({ AGENTWIRE_LOG_FORMAT: "json" }, false, true)).toBe("json");
    expect(chooseLogFormat({ AGENTWIRE_LOG_FORMAT: "text" }, true, false)).toBe("text");
  });

  it("answers isLevelEnabled without loading anything, and says so when the level is unknown", () => {
    const written = captureStderr();
    const log = createLogger("loud", "text");
    expect(written.join("")).toMatch(/unknown log level "loud".*using "warn"/);
    expect(log.isLevelEnabled("info")).toBe(false);
    expect(log.isLevelEnabled("warn")).toBe(true);
    expect(createLogger("silent", "json").isLevelEnabled("error")).toBe(false);
    expect(createLogger("debug", "text").isLevelEnabled("debug")).toBe(true);
  });
});
