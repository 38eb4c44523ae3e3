import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/cli/log.js";

// The CLI's logger loads pino only for the first record its level lets through; a process that
// exits before pino has loaded must still get those records on stderr.
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
  it("writes the records pino has not taken yet at exit, in pino's JSON line shape", () => {
    const before = new Set(process.listeners("exit"));
    const log = createLogger("info", false);
    log.debug({ ignored: true }, "below the level");
    expect(process.listeners("exit").filter((listener) => !before.has(listener)), "nothing logged, nothing loaded").toHaveLength(0);
    log.info({ session: "s1", err: new Error("boom") }, "stdout was closed by its reader");
    log.warn("a plain message");
    const flush = process.listeners("exit").find((listener) => !before.has(listener));
    expect(flush).toBeDefined();
    const written = captureStderr();
    flush!(0);
    process.removeListener("exit", flush!);
    const lines = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 30, name: "agentwire", msg: "stdout was closed by its reader", session: "s1", err: { type: "Error", message: "boom" } });
    expect(lines[0]!.time).toEqual(expect.any(Number));
    expect(lines[1]).toMatchObject({ level: 40, msg: "a plain message" });
  });

  it("on a terminal, writes them in pino-pretty's readable layout instead", () => {
    const before = new Set(process.listeners("exit"));
    const log = createLogger("debug", true);
    log.debug({ provider: "anthropic", attempt: 1 }, "model request");
    const flush = process.listeners("exit").find((listener) => !before.has(listener));
    const written = captureStderr();
    flush!(0);
    process.removeListener("exit", flush!);
    expect(written.join("")).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] DEBUG: model request\n {4}provider: anthropic\n {4}attempt: 1\n$/);
  });

  it("answers isLevelEnabled without loading anything, and says so when the level is unknown", () => {
    const written = captureStderr();
    const log = createLogger("loud", false);
    expect(written.join("")).toMatch(/unknown log level "loud".*using "warn"/);
    expect(log.isLevelEnabled("info")).toBe(false);
    expect(log.isLevelEnabled("warn")).toBe(true);
    expect(createLogger("silent", false).isLevelEnabled("error")).toBe(false);
    expect(createLogger("debug", true).isLevelEnabled("debug")).toBe(true);
  });
});
