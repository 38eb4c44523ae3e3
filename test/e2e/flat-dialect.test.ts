import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it } from "vitest";
import { FlatEventSchema, type FlatEvent } from "../../protocol/flat-events.js";
import {
  createWorkspace,
  ROOT,
  runAgentwire,
  spawnAgentwire,
  waitForExit,
  type RunResult,
  type Workspace,
  userLine,
} from "../helpers/agentwire.js";

const FLAT = ["--output-format", "stream-json", "--verbose", "--event-dialect", "flat"];
const validateJsonSchema = (() => {
  const schema = JSON.parse(readFileSync(join(ROOT, "protocol", "flat-schema.json"), "utf8")) as { $defs: Record<string, unknown> };
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema(schema, "flat");
  return ajv.compile({ $ref: "flat#/$defs/FlatEvent" });
})();

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

/** Every stdout line, validated against the zod schema and the published JSON Schema. */
function flatEvents(run: RunResult): FlatEvent[] {
  expect(run.stdout.endsWith("\n")).toBe(true);
  return run.stdout
    .slice(0, -1)
    .split("\n")
    .map((line) => {
      const value = JSON.parse(line) as unknown;
      const parsed = FlatEventSchema.safeParse(value);
      expect(parsed.success, `${line}\n${parsed.error?.message ?? ""}`).toBe(true);
      expect(validateJsonSchema(value), `${line}\n${JSON.stringify(validateJsonSchema.errors)}`).toBe(true);
      return parsed.data!;
    });
}

/** "system/init", "assistant~" (a delta), "assistant" (whole text), "tool_use", "tool_result", "result/success", "system/error". */
function shape(events: FlatEvent[]): string[] {
  const labels = events.map((event) => {
    if (event.type === "system") return `system/${event.subtype}`;
    if (event.type === "result") return `result/${event.subtype}`;
    if (event.type === "assistant") return event.streaming ? "assistant~" : "assistant";
    return event.type;
  });
  // Runs of deltas collapse to one label: how many there are depends on the chunking.
  return labels.filter((label, index) => !(label === "assistant~" && labels[index - 1] === "assistant~"));
}

const streamedText = (events: FlatEvent[]): string =>
  events
    .map((event) => (event.type === "assistant" ? event.message.content : "|"))
    .join("")
    .replace(/\|+/g, "|");

describe("--event-dialect flat", () => {
  it("text: deltas, then a result with usage", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "hi", ...FLAT], { workspace });
    expect(run.code).toBe(0);
    const events = flatEvents(run);
    expect(shape(events)).toEqual(["system/init", "assistant~", "result/success"]);
    expect(events[0]).toMatchObject({ dialect: "flat", model: "claude-opus-5-5", provider: "anthropic", cwd: workspace.cwd });
    expect(streamedText(events.slice(1, -1))).toBe("Hello! I am the mock model. 2 + 2 = 4.");
    expect(events.at(-1)).toMatchObject({
      type: "result",
      is_error: false,
      result: "Hello! I am the mock model. 2 + 2 = 4.",
      num_turns: 1,
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
    });
    expect(new Set(events.map((event) => (event as { session_id?: string }).session_id)).size).toBe(1);
  });

  it("tools: tool_use and tool_result at the top level, between the texts", async () => {
    workspace = await createWorkspace("read");
    await writeFile(join(workspace.cwd, "hello.txt"), "Hello, world!\nsecond\nthird\n");
    const run = await runAgentwire(["-p", "Read hello.txt", ...FLAT], { workspace });
    expect(run.code).toBe(0);
    const events = flatEvents(run);
    expect(shape(events)).toEqual(["system/init", "assistant~", "tool_use", "tool_result", "assistant~", "result/success"]);
    const use = events.find((event) => event.type === "tool_use")!;
    const result = events.find((event) => event.type === "tool_result")!;
    expect(use.message).toEqual({ name: "Read", input: { file_path: "hello.txt" }, id: expect.any(String) });
    expect(result.message).toEqual({ tool_use_id: use.message.id, content: expect.stringContaining("Hello, world!"), is_error: false });
    expect(streamedText(events)).toBe("|I'll read the file.|The file hello.txt has three lines and starts with 'Hello, world!'.|");
  });

  it("a tool error is a tool_result with is_error", async () => {
    workspace = await createWorkspace("tool-error");
    const run = await runAgentwire(["-p", "Read missing.txt", ...FLAT], { workspace });
    expect(run.code).toBe(0);
    const events = flatEvents(run);
    expect(shape(events)).toEqual(["system/init", "tool_use", "tool_result", "assistant~", "result/success"]);
    expect(events[2]).toMatchObject({
      type: "tool_result",
      message: { is_error: true, content: expect.stringContaining("does not exist") },
    });
  });

  it("401: system/error with error_code authentication_failed, an error result, exit 1", async () => {
    workspace = await createWorkspace("api-401");
    const run = await runAgentwire(["-p", "hi", ...FLAT], { workspace });
    expect(run.code).toBe(1);
    const events = flatEvents(run);
    expect(shape(events)).toEqual(["system/init", "system/error", "result/error_during_execution"]);
    expect(events[1]).toMatchObject({ error_code: "authentication_failed", message: expect.stringContaining("401") });
    expect(events[2]).toMatchObject({ is_error: true, terminal_reason: "api_error", error_code: "authentication_failed" });
  });

  it("max turns: error_max_turns, exit 1", async () => {
    workspace = await createWorkspace("max-turns");
    await writeFile(join(workspace.cwd, "hello.txt"), "Hello\n");
    const run = await runAgentwire(["-p", "Read forever", ...FLAT, "--max-turns", "2"], { workspace });
    expect(run.code).toBe(1);
    const events = flatEvents(run);
    expect(shape(events)).toEqual([
      "system/init",
      "assistant~",
      "tool_use",
      "tool_result",
      "assistant~",
      "tool_use",
      "tool_result",
      "result/error_max_turns",
    ]);
    expect(events.filter((event) => event.type === "result")).toHaveLength(1);
  });

  it("agentwire start --event-dialect flat: an interrupt mid-stream ends that turn with a result; the next turn runs", async () => {
    workspace = await createWorkspace("interrupt");
    const child = spawnAgentwire(["start", "--cwd", workspace.cwd, "--event-dialect", "flat"], { workspace });
    const exited = waitForExit(child);
    child.stdin.write(userLine("Write a long essay."));
    await new Promise<void>((resolve) => {
      const onData = (chunk: Buffer): void => {
        if (chunk.toString().includes('"streaming":true')) {
          child.stdout.off("data", onData);
          resolve();
        }
      };
      child.stdout.on("data", onData);
    });
    child.stdin.write(`${JSON.stringify({ type: "control_request", request_id: "stop", request: { subtype: "interrupt" } })}\n`);
    child.stdin.write(userLine("Short one?"));
    child.stdin.end();
    const run = await exited;
    expect(run.code).toBe(0);
    const events = flatEvents(run);
    const results = events.filter((event) => event.type === "result");
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ is_error: true, terminal_reason: "aborted_streaming" });
    expect(results[1]).toMatchObject({ is_error: false });
    expect(events).toContainEqual({
      type: "control_response",
      response: { subtype: "success", request_id: "stop", response: expect.any(Object) },
    });
  });

  it("a failure before any turn is a flat result too; flat needs stream-json", async () => {
    workspace = await createWorkspace("text");
    const failed = await runAgentwire(["-p", "hi", ...FLAT, "--max-turns", "zero"], { workspace });
    expect(failed.code).toBe(1);
    expect(flatEvents(failed).map((event) => event.type)).toEqual(["result"]);
    expect(flatEvents(failed)[0]).toMatchObject({ is_error: true, terminal_reason: "invalid_arguments" });
    const text = await runAgentwire(["-p", "hi", "--event-dialect", "flat"], { workspace });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain("--event-dialect flat requires --output-format=stream-json");
  });
});
