import { afterEach, describe, expect, it } from "vitest";
import type { Logger } from "../../src/cli/log.js";
import { routeConsoleToLog } from "../../src/cli/route-console-to-log.js";

const saved = { console: { ...console }, warningListeners: process.listeners("warning") };

afterEach(() => {
  Object.assign(console, saved.console);
  process.removeAllListeners("warning");
  for (const listener of saved.warningListeners) process.on("warning", listener);
});

function recordingLogger(records: Array<{ level: string; object: unknown; message?: string }>): Logger {
  const record = (level: string) => (object: unknown, message?: string) =>
    records.push({ level, object, ...(message === undefined ? {} : { message }) });
  return { isLevelEnabled: () => true, debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") };
}

describe("routeConsoleToLog", () => {
  it("turns what a dependency prints through console into debug records, formatted as console would", () => {
    const records: Array<{ level: string; object: unknown; message?: string }> = [];
    routeConsoleToLog(recordingLogger(records));
    console.warn("The model '%s' is deprecated", "claude-sonnet-4-5-20250929");
    console.log({ a: 1 });
    console.error("failed", 42);
    expect(records).toEqual([
      { level: "debug", object: { console: "warn" }, message: "The model 'claude-sonnet-4-5-20250929' is deprecated" },
      { level: "debug", object: { console: "log" }, message: "{ a: 1 }" },
      { level: "debug", object: { console: "error" }, message: "failed 42" },
    ]);
  });

  it("turns Node's process warnings into debug records instead of its own stderr line", async () => {
    const records: Array<{ level: string; object: unknown; message?: string }> = [];
    routeConsoleToLog(recordingLogger(records));
    expect(process.listenerCount("warning")).toBe(1);
    process.emitWarning("this API goes away", "DeprecationWarning");
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(records).toEqual([{ level: "debug", object: { warning: "DeprecationWarning" }, message: "this API goes away" }]);
  });
});
