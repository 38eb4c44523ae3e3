import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AssistantEvent } from "../../protocol/events.js";
import {
  createWorkspace,
  expectWellFormedRun,
  results,
  runAgentwire,
  sequence,
  spawnAgentwire,
  waitForEvent,
  waitForExit,
  type Workspace,
} from "../helpers/agentwire.js";

const STREAM_IO = ["--input-format", "stream-json", "--output-format", "stream-json", "--verbose"];
let workspace: Workspace;

afterEach(async () => {
  await workspace?.cleanup();
});

const userLine = (content: unknown): string =>
  `${JSON.stringify({ type: "user", message: { role: "user", content }, parent_tool_use_id: null, session_id: "" })}\n`;

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Starts a long answer, interrupts it mid-stream with `interrupt`, then sends a second message
 * and closes stdin once that one has finished. Returns the whole run.
 */
async function interruptThenContinue(interrupt: (child: ReturnType<typeof spawnAgentwire>) => void) {
  workspace = await createWorkspace("interrupt");
  const child = spawnAgentwire([...STREAM_IO, "--include-partial-messages"], { workspace });
  const exited = waitForExit(child);
  child.stdin.write(userLine("Write a long essay."));
  await waitForEvent(child, (event) => event.type === "stream_event" && event.event.type === "content_block_delta");
  interrupt(child);
  await waitForEvent(child, (event) => event.type === "result");
  child.stdin.write(userLine("Now just say done."));
  await waitForEvent(child, (event) => event.type === "result" && event.subtype === "success");
  child.stdin.end();
  return exited;
}

describe("stream-json input", () => {
  it("two user messages written at once, then EOF: both run in order in one session, then exit 0", async () => {
    workspace = await createWorkspace("multi-turn");
    const run = await runAgentwire(STREAM_IO, { workspace, stdin: userLine("First?") + userLine([{ type: "text", text: "Second?" }]) });
    expectWellFormedRun(run, 2);
    expect(sequence(run.events)).toEqual([
      "system/init",
      "assistant:text",
      "result/success",
      "system/init",
      "assistant:text",
      "result/success",
    ]);
    expect(results(run.events).map((result) => result.result)).toEqual(["First answer.", "Second answer."]);
    const second = workspace.server.requests[1]!.body as { messages: Array<{ role: string }> };
    expect(second.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
  });

  it("the simple frame {type:user, content} works too", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(STREAM_IO, { workspace, stdin: `${JSON.stringify({ type: "user", content: "Say hello." })}\n` });
    expectWellFormedRun(run, 1);
  });

  it("invalid lines get structured input_error events and the session keeps serving", async () => {
    workspace = await createWorkspace("text");
    const stdin = `${[
      "not json",
      '{"type":"bogus"}',
      '{"type":"user","message":{"role":"user"}}',
      "",
      "   ",
      userLine("Say hello.").trimEnd(),
    ].join("\r\n")}\n`;
    const run = await runAgentwire(STREAM_IO, { workspace, stdin });
    expectWellFormedRun(run, 1);
    const errors = run.events.filter((event) => event.type === "system" && event.subtype === "input_error");
    expect(errors).toHaveLength(3);
    expect(errors.map((event) => (event as { error: { code: string } }).error.code)).toEqual([
      "invalid_json",
      "invalid_command",
      "invalid_command",
    ]);
    expect(errors.map((event) => (event as { line: number }).line)).toEqual([1, 2, 3]);
    expect((errors[2] as { error: { message: string } }).error.message).toMatch(/message\.content/);
    expect(results(run.events)[0]!.is_error).toBe(false);
  });

  it("stdin that ends before any turn, after invalid lines: an invalid_input result and exit 1", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(STREAM_IO, {
      workspace,
      stdin: `${['{"type":"keep_alive"}', "not json", '{"type":"user"}'].join("\n")}\n`,
    });
    expect(run.code).toBe(1);
    expect(sequence(run.events)).toEqual(["system/input_error", "system/input_error", "result/error_during_execution"]);
    expect(results(run.events)[0]).toMatchObject({ is_error: true, num_turns: 0, terminal_reason: "invalid_input" });
    expect(results(run.events)[0]!.errors![0]).toMatch(
      /^stdin ended before any turn ran, and 2 lines were not usable; the first: Line 2 is not valid JSON/,
    );
    expect(workspace.server.requests).toHaveLength(0);
  });

  it("empty stdin, or only keep_alive: nothing was asked, so no result and exit 0", async () => {
    workspace = await createWorkspace("text");
    for (const stdin of ["", '{"type":"keep_alive"}\n']) {
      const run = await runAgentwire(STREAM_IO, { workspace, stdin });
      expect(run.code).toBe(0);
      expect(run.events).toEqual([]);
    }
  });

  it("a line of several MB is accepted", async () => {
    workspace = await createWorkspace("text");
    const big = "x".repeat(5 * 1024 * 1024);
    const run = await runAgentwire(STREAM_IO, { workspace, stdin: userLine(big) });
    expectWellFormedRun(run, 1);
    const body = workspace.server.requests[0]!.body as { messages: Array<{ content: Array<{ text: string }> }> };
    expect(body.messages[0]!.content[0]!.text).toHaveLength(big.length);
  });

  it("control_request interrupt mid-stream: control_response, aborted partial, marker, error result; next message works", async () => {
    const run = await interruptThenContinue((child) =>
      child.stdin.write(`${JSON.stringify({ type: "control_request", request_id: "r1", request: { subtype: "interrupt" } })}\n`),
    );

    expectWellFormedRun(run, 2);
    const labels = sequence(run.events);
    const controlIndex = labels.indexOf("control_response/success");
    expect(run.events[controlIndex]).toEqual({
      type: "control_response",
      response: { subtype: "success", request_id: "r1", response: { still_queued: [] } },
    });
    const aborted = run.events.find((event): event is AssistantEvent => event.type === "assistant" && event.aborted === true)!;
    expect(labels.indexOf("assistant:text")).toBeGreaterThan(controlIndex);
    expect(aborted.message.content[0].type).toBe("text");
    const partialText = (aborted.message.content[0] as { text: string }).text;
    expect(partialText.length).toBeGreaterThan(0);
    expect(run.events).toContainEqual(
      expect.objectContaining({
        type: "user",
        message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user]" }] },
      }),
    );
    const [first, second] = results(run.events);
    expect(first).toMatchObject({ subtype: "error_during_execution", is_error: true, terminal_reason: "aborted_streaming" });
    expect(second).toMatchObject({ subtype: "success", result: "Done." });
    // The next request carries the partial answer and the interrupt marker.
    const body = workspace.server.requests[1]!.body as {
      messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }>;
    };
    expect(body.messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: partialText }] });
    expect(body.messages[2]!.content.map((block) => block.text)).toEqual(["[Request interrupted by user]", "Now just say done."]);
  });

  it('simple {"type":"interrupt"} frame without partial messages', async () => {
    workspace = await createWorkspace("interrupt");
    const child = spawnAgentwire(STREAM_IO, { workspace });
    const exited = waitForExit(child);
    child.stdin.write(userLine("Write a long essay."));
    await until(() => workspace.server.requests.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.stdin.write('{"type":"interrupt"}\n');
    await waitForEvent(child, (event) => event.type === "result");
    child.stdin.end();
    const run = await exited;
    expectWellFormedRun(run, 1);
    expect(run.code).toBe(1);
    expect(results(run.events)[0]).toMatchObject({ subtype: "error_during_execution", terminal_reason: "aborted_streaming" });
  });

  it("interrupt during a Bash tool kills the whole process group and answers the call", async () => {
    workspace = await createWorkspace("text");
    const pidFile = join(workspace.cwd, "bg.pid");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: `sleep 30 & echo $! > ${pidFile}; sleep 30` } }] }, { text: "ok" }],
    });
    const child = spawnAgentwire([...STREAM_IO, "--dangerously-skip-permissions"], { workspace });
    const exited = waitForExit(child);
    child.stdin.write(userLine("Run it."));
    await waitForEvent(child, (event) => event.type === "assistant" && event.message.content[0].type === "tool_use");
    await until(() => {
      try {
        return readFileSync(pidFile, "utf8").trim() !== "";
      } catch {
        return false;
      }
    });
    const backgroundPid = Number(readFileSync(pidFile, "utf8"));
    child.stdin.write(`${JSON.stringify({ type: "control_request", request_id: "r2", request: { subtype: "interrupt" } })}\n`);
    await waitForEvent(child, (event) => event.type === "result");
    child.stdin.end();
    const run = await exited;
    expectWellFormedRun(run, 1);
    expect(results(run.events)[0]).toMatchObject({ subtype: "error_during_execution", terminal_reason: "aborted_tools" });
    const toolResult = run.events.find((event) => event.type === "user" && event.message.content[0].type === "tool_result");
    expect(toolResult).toMatchObject({ message: { content: [{ is_error: true }] } });
    await until(() => {
      try {
        process.kill(backgroundPid, 0);
        return false;
      } catch {
        return true;
      }
    }, 5_000);
  });

  it("an unsupported control request gets an error response, never silence", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(STREAM_IO, {
      workspace,
      stdin: `${JSON.stringify({ type: "control_request", request_id: "x1", request: { subtype: "rewind_files" } })}\n`,
    });
    expect(run.code).toBe(0);
    expect(run.events).toEqual([
      {
        type: "control_response",
        response: { subtype: "error", request_id: "x1", error: "Unsupported control request subtype: rewind_files" },
      },
    ]);
  });

  it("agentwire start: a persistent stream-json session", async () => {
    workspace = await createWorkspace("multi-turn");
    await writeFile(join(workspace.cwd, "marker"), "");
    const run = await runAgentwire(["start", "--provider", "anthropic", "--model", "sonnet", "--cwd", workspace.cwd, "--verbose"], {
      workspace,
      stdin: userLine("First?") + userLine("Second?"),
    });
    expectWellFormedRun(run, 2);
    expect(run.events[0]).toMatchObject({ subtype: "init", model: "claude-sonnet-5-5" });
  });
});

describe("signals in a persistent stream-json session", () => {
  it("SIGINT interrupts the running turn and the session keeps serving; EOF then exits 0", async () => {
    const run = await interruptThenContinue((child) => child.kill("SIGINT"));
    expectWellFormedRun(run, 2);
    expect(results(run.events).map((result) => result.terminal_reason)).toEqual(["aborted_streaming", "completed"]);
  });
});
