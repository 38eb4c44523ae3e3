import { readFile, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AssistantEvent, UserEvent } from "../../protocol/events.js";
import { createWorkspace, expectWellFormedRun, results, runAgentwire, sequence, type Workspace } from "../helpers/agentwire.js";

const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace;

afterEach(async () => {
  await workspace?.cleanup();
});

async function setUp(scenario: string): Promise<Workspace> {
  workspace = await createWorkspace(scenario);
  await writeFile(join(workspace.cwd, "hello.txt"), "Hello, world!\nThis is line two.\nThird line here.\n");
  await writeFile(join(workspace.cwd, "notes.md"), "# Notes\n");
  return workspace;
}

function toolResult(event: UserEvent) {
  const block = event.message.content[0];
  if (block.type !== "tool_result") throw new Error("not a tool_result line");
  return block;
}

describe("print mode (-p) against the replay server", () => {
  it("plain text: init, one assistant line, success result", async () => {
    await setUp("text");
    const run = await runAgentwire(["-p", "Say hello.", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(sequence(run.events)).toEqual(["system/init", "assistant:text", "result/success"]);
    const [init] = run.events;
    expect(init).toMatchObject({
      type: "system",
      subtype: "init",
      cwd: workspace.cwd,
      model: "claude-opus-5-5",
      provider: "anthropic",
      protocol_version: "1.2",
      claude_code_version: "2.1.330",
    });
    const [result] = results(run.events);
    expect(result).toMatchObject({
      is_error: false,
      num_turns: 1,
      result: "Hello! I am the mock model. 2 + 2 = 4.",
      stop_reason: "end_turn",
      terminal_reason: "completed",
    });
    expect(result!.usage.input_tokens).toBeGreaterThan(0);
    expect(result!.total_cost_usd).toBeGreaterThan(0);
    // The request carries the prompt and tool definitions in the Anthropic wire format: the core
    // built-ins whole, the deferred ones behind ToolSearch, named in a reminder after the prompt.
    const body = workspace.server.requests[0]!.body as {
      messages: Array<{ role: string; content: unknown }>;
      tools: Array<{ name: string }>;
      stream: boolean;
    };
    expect(body.stream).toBe(true);
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Say hello." },
          {
            type: "text",
            text: expect.stringMatching(
              /^<system-reminder>\nThe tools below are deferred[\s\S]*\nWebFetch\nWebSearch\n<\/system-reminder>$/,
            ),
          },
        ],
      },
    ]);
    expect(body.tools.map((tool) => tool.name)).toEqual([
      "Agent",
      "Bash",
      "Edit",
      "Glob",
      "Grep",
      "LS",
      "MultiEdit",
      "Read",
      "TodoWrite",
      "ToolSearch",
      "Write",
      "DeferredToolPlaceholder",
    ]);
  });

  it("one Read: text and tool_use share a message id; the result reaches the model", async () => {
    await setUp("read");
    const run = await runAgentwire(["-p", "What is in hello.txt?", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(sequence(run.events)).toEqual([
      "system/init",
      "assistant:text",
      "assistant:tool_use",
      "user:tool_result",
      "assistant:text",
      "result/success",
    ]);
    const [text, toolUse] = run.events.filter((event): event is AssistantEvent => event.type === "assistant");
    expect(text!.message.id).toBe(toolUse!.message.id);
    const user = run.events.find((event): event is UserEvent => event.type === "user")!;
    expect(toolResult(user).content).toBe("1\tHello, world!\n2\tThis is line two.\n3\tThird line here.\n4\t");
    expect(user.tool_use_result).toMatchObject({
      type: "text",
      file: { filePath: join(workspace.cwd, "hello.txt"), numLines: 4, startLine: 1, totalLines: 4 },
    });
    expect(results(run.events)[0]).toMatchObject({ num_turns: 2, stop_reason: "end_turn" });
    const second = workspace.server.requests[1]!.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    expect(second.messages.at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_mock_0001",
          content: "1\tHello, world!\n2\tThis is line two.\n3\tThird line here.\n4\t",
        },
      ],
    });
  });

  it("two parallel tool calls: two tool_use lines, two results, one follow-up request with both", async () => {
    await setUp("parallel-tools");
    const run = await runAgentwire(["-p", "Read both files.", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(sequence(run.events)).toEqual([
      "system/init",
      "assistant:tool_use",
      "assistant:tool_use",
      "user:tool_result",
      "user:tool_result",
      "assistant:text",
      "result/success",
    ]);
    expect(results(run.events)[0]!.num_turns).toBe(3);
    const second = workspace.server.requests[1]!.body as { messages: Array<{ role: string; content: Array<{ type: string }> }> };
    expect(second.messages.at(-1)!.content.map((block) => block.type)).toEqual(["tool_result", "tool_result"]);
  });

  it("tool error: a missing file is an error result the model sees, and the run succeeds", async () => {
    await setUp("tool-error");
    const run = await runAgentwire(["-p", "Read missing.txt", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    const user = run.events.find((event): event is UserEvent => event.type === "user")!;
    expect(toolResult(user)).toMatchObject({
      is_error: true,
      content: `File does not exist. Note: your current working directory is ${workspace.cwd}.`,
    });
    expect(user.tool_error_code).toBe("file_not_found");
    expect(user.tool_use_result).toBe(`Error: File does not exist. Note: your current working directory is ${workspace.cwd}.`);
    expect(results(run.events)[0]).toMatchObject({ subtype: "success", is_error: false });
  });

  it("Bash: runs in the cwd and returns stdout", async () => {
    await setUp("bash");
    const run = await runAgentwire(["-p", "List files", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    const user = run.events.find((event): event is UserEvent => event.type === "user")!;
    expect(toolResult(user).content).toBe("hello\nhello.txt\nnotes.md");
    expect(user.tool_use_result).toMatchObject({
      stdout: expect.stringMatching(/^hello\nhello\.txt\nnotes\.md\n?$/),
      stderr: "",
      interrupted: false,
    });
  });

  it("Write: creates the file and its parent directory", async () => {
    await setUp("write");
    const run = await runAgentwire(["-p", "Write a file", ...STREAM, "--permission-mode", "acceptEdits"], { workspace });
    expectWellFormedRun(run, 1);
    expect(await readFile(join(workspace.cwd, "out", "new.txt"), "utf8")).toBe("written by agentwire\n");
    const user = run.events.find((event): event is UserEvent => event.type === "user")!;
    expect(toolResult(user).content).toContain(`File created successfully at: ${join(workspace.cwd, "out", "new.txt")}`);
  });

  it("thinking: thinking progress, a thinking line with its signature, then text", async () => {
    await setUp("thinking");
    const run = await runAgentwire(["-p", "What is 17*3?", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    const labels = sequence(run.events).filter((label) => label !== "system/thinking_tokens");
    expect(labels).toEqual(["system/init", "assistant:thinking", "assistant:text", "result/success"]);
    expect(sequence(run.events)).toContain("system/thinking_tokens");
    const thinking = run.events.find((event): event is AssistantEvent => event.type === "assistant")!;
    expect(thinking.message.content[0]).toMatchObject({ type: "thinking", thinking: "The user asks for 17*3. 17*3 = 51." });
    expect((thinking.message.content[0] as { signature: string }).signature).not.toBe("");
  });

  it("partial messages: raw stream events around each assistant line, in Claude Code's order", async () => {
    await setUp("read");
    const run = await runAgentwire(["-p", "What is in hello.txt?", ...STREAM, "--include-partial-messages"], { workspace });
    expectWellFormedRun(run, 1);
    const labels = sequence(run.events);
    expect(labels[0]).toBe("system/init");
    expect(labels[1]).toBe("system/status");
    expect(labels[2]).toBe("stream:message_start");
    // The assistant line comes right before its block's content_block_stop.
    labels.forEach((label, index) => {
      if (label.startsWith("assistant:")) expect(labels[index + 1]).toBe("stream:content_block_stop");
    });
    const firstUser = labels.indexOf("user:tool_result");
    expect(labels.slice(firstUser - 2, firstUser)).toEqual(["stream:message_delta", "stream:message_stop"]);
    const text = run.events
      .flatMap((event) => (event.type === "stream_event" && event.event.type === "content_block_delta" ? [event.event] : []))
      .map((event) => (event.delta as { text?: string }).text ?? "")
      .join("");
    expect(text).toContain("I'll read the file.");
    const partialJson = run.events.flatMap((event) =>
      event.type === "stream_event" && (event.event.delta as { type?: string } | undefined)?.type === "input_json_delta"
        ? [(event.event.delta as { partial_json: string }).partial_json]
        : [],
    );
    expect(JSON.parse(partialJson.join(""))).toEqual({ file_path: "hello.txt" });
  });

  it("--max-turns 1: stops after the tool results without a second request", async () => {
    await setUp("max-turns");
    const run = await runAgentwire(["-p", "Read every file.", ...STREAM, "--max-turns", "1"], { workspace });
    expectWellFormedRun(run, 1);
    expect(run.code).toBe(1);
    expect(sequence(run.events)).toEqual([
      "system/init",
      "assistant:text",
      "assistant:tool_use",
      "user:tool_result",
      "result/error_max_turns",
    ]);
    expect(results(run.events)[0]).toMatchObject({
      is_error: true,
      terminal_reason: "max_turns",
      errors: ["Reached maximum number of turns (1)"],
      num_turns: 2,
    });
    expect(workspace.server.requests).toHaveLength(1);
  });

  it("stop_reason max_tokens: an automatic continuation with Claude Code's synthetic nudge, then the rest", async () => {
    await setUp("text");
    await workspace.useScenario({
      turns: [{ text: "The first half of a long", stop_reason: "max_tokens" }, { text: "and the second half." }],
    });
    const run = await runAgentwire(["-p", "Write a lot.", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(sequence(run.events)).toEqual(["system/init", "assistant:text", "user:text", "assistant:text", "result/success"]);
    expect(run.events[2]).toMatchObject({
      isSynthetic: true,
      message: { content: [{ type: "text", text: expect.stringMatching(/^Output token limit hit\. Resume directly/) }] },
    });
    expect(results(run.events)[0]).toMatchObject({ num_turns: 2, result: "and the second half.", stop_reason: "end_turn" });
    const second = workspace.server.requests[1]!.body as { messages: Array<{ role: string }> };
    expect(second.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
  });

  it("continuations after max_tokens are bounded: the fourth cut answer is the result", async () => {
    await setUp("text");
    await workspace.useScenario({ turns: [{ text: "cut", stop_reason: "max_tokens", repeat: true }] });
    const run = await runAgentwire(["-p", "Write forever.", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(workspace.server.requests).toHaveLength(4);
    expect(results(run.events)[0]).toMatchObject({ subtype: "success", stop_reason: "max_tokens", num_turns: 4 });
  });

  it("401: no retry, a synthetic error message, an error result and exit 1", async () => {
    await setUp("api-401");
    const started = Date.now();
    const run = await runAgentwire(["-p", "Say hello.", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(run.code).toBe(1);
    expect(sequence(run.events)).toEqual(["system/init", "assistant:text", "result/error_during_execution"]);
    expect(run.events[1]).toMatchObject({
      is_api_error_message: true,
      api_error_status: 401,
      error: "authentication_failed",
      message: { model: "<synthetic>" },
    });
    expect(results(run.events)[0]).toMatchObject({
      is_error: true,
      terminal_reason: "api_error",
      api_error_status: 401,
      error_code: "authentication_failed",
    });
    expect(results(run.events)[0]!.errors![0]).toMatch(/Authentication failed \(HTTP 401\)/);
    expect(workspace.server.requests).toHaveLength(1);
  });

  it("429 with retry-after: one api_retry honouring the delay, then success", async () => {
    await setUp("api-429");
    const run = await runAgentwire(["-p", "Say hello.", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(sequence(run.events)).toEqual(["system/init", "system/api_retry", "assistant:text", "result/success"]);
    expect(run.events[1]).toMatchObject({ attempt: 1, max_retries: 10, retry_delay_ms: 1000, error_status: 429, error: "rate_limit" });
    expect(workspace.server.requests).toHaveLength(2);
  });

  it("in text mode a retry is announced on stderr, stdout keeps only the answer", async () => {
    await setUp("api-429");
    const run = await runAgentwire(["-p", "Say hello."], { workspace });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Recovered after rate limit.\n");
    expect(run.stderr).toContain("agentwire: the model API failed (rate_limit, HTTP 429); retry 1 of 10 in 1.0 s");
  });

  it("500: retried with backoff, then success", async () => {
    await setUp("api-500");
    const run = await runAgentwire(["-p", "Say hello.", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(sequence(run.events)).toEqual(["system/init", "system/api_retry", "assistant:text", "result/success"]);
    expect(run.events[1]).toMatchObject({ error_status: 500, error: "server_error" });
  });

  it("disconnect mid-stream: the partial answer is discarded, the retry's answer is the result", async () => {
    await setUp("disconnect");
    const run = await runAgentwire(["-p", "Say something long.", ...STREAM, "--include-partial-messages"], { workspace });
    expectWellFormedRun(run, 1);
    const assistantTexts = run.events.flatMap((event) =>
      event.type === "assistant" && event.message.content[0].type === "text" ? [event.message.content[0].text] : [],
    );
    expect(assistantTexts).toEqual(["Complete answer after the reconnect."]);
    expect(run.events.find((event) => event.type === "system" && event.subtype === "api_retry")).toMatchObject({
      error_status: null,
      error: "unknown",
    });
    expect(results(run.events)[0]!.result).toBe("Complete answer after the reconnect.");
    // The abandoned attempt is not part of the conversation sent on later requests.
    expect(workspace.server.requests).toHaveLength(2);
  });

  it("disconnect after a complete tool_use block: the call never runs and is closed with an error result", async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, "hello.txt"), "Hello\n");
    const { encodeAnthropicStream } = await import("../../src/mock-server/anthropic-sse.js");
    const toolTurn = { tool_calls: [{ name: "Write", input: { file_path: "should-not-exist.txt", content: "x" } }] };
    const frames = encodeAnthropicStream(toolTurn, {
      messageId: "m",
      toolUseIds: ["t"],
      requestedModel: "x",
      estimatedInputTokens: 1,
      requestId: "r",
    });
    // Everything up to and including content_block_stop, but no message_delta / message_stop.
    const cut = frames.findIndex((frame) => frame.startsWith("event: message_delta"));
    await workspace.useScenario({ turns: [{ ...toolTurn, disconnect_after_chunks: cut }, { text: "Recovered." }] });
    const run = await runAgentwire(["-p", "Write it.", ...STREAM, "--include-partial-messages", "--dangerously-skip-permissions"], {
      workspace,
    });
    expectWellFormedRun(run, 1);
    const toolUse = run.events.find(
      (event): event is AssistantEvent => event.type === "assistant" && event.message.content[0].type === "tool_use",
    )!;
    const closing = run.events.find(
      (event): event is UserEvent =>
        event.type === "user" && toolResult(event).tool_use_id === (toolUse.message.content[0] as { id: string }).id,
    )!;
    expect(toolResult(closing).is_error).toBe(true);
    expect(closing.tool_error_code).toBe("aborted");
    const labels = sequence(run.events);
    expect(labels.indexOf("system/api_retry")).toBeGreaterThan(labels.indexOf("user:tool_result"));
    await expect(readFile(join(workspace.cwd, "should-not-exist.txt"), "utf8")).rejects.toThrow();
    expect(results(run.events)[0]!.result).toBe("Recovered.");
    const second = workspace.server.requests[1]!.body as { messages: unknown[] };
    expect(second.messages).toHaveLength(1);
  });

  it("resume: same session id, the earlier conversation is replayed, cost accumulates", async () => {
    await setUp("read");
    const first = await runAgentwire(["-p", "What is in hello.txt?", ...STREAM], { workspace });
    expectWellFormedRun(first, 1);
    const sessionId = results(first.events)[0]!.session_id;
    await workspace.useScenario({ turns: [{ text: "We talked about hello.txt." }] });
    const second = await runAgentwire(["-p", "What did we talk about?", ...STREAM, "--resume", sessionId], { workspace });
    expectWellFormedRun(second, 1);
    expect(second.events[0]).toMatchObject({ type: "system", subtype: "init", session_id: sessionId });
    const body = workspace.server.requests[0]!.body as { messages: Array<{ role: string }> };
    expect(body.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    const firstCost = results(first.events)[0]!.total_cost_usd;
    expect(results(second.events)[0]!.total_cost_usd).toBeGreaterThan(firstCost);
  });

  it("resume of an unknown id fails fast with an error result", async () => {
    await setUp("text");
    const started = Date.now();
    const run = await runAgentwire(["-p", "hi", ...STREAM, "--resume", "00000000-0000-4000-8000-000000000000"], { workspace });
    expect(Date.now() - started).toBeLessThan(3_000);
    expectWellFormedRun(run, 1);
    expect(results(run.events)[0]).toMatchObject({ is_error: true, terminal_reason: "session_not_found" });
    expect(run.stderr).toMatch(/No conversation found with session ID/);
  });

  it("--output-format json: exactly one line, the result", async () => {
    await setUp("text");
    const run = await runAgentwire(["-p", "Say hello.", "--output-format", "json"], { workspace });
    expect(run.code).toBe(0);
    expect(run.events).toHaveLength(1);
    expect(run.events[0]).toMatchObject({ type: "result", subtype: "success", result: "Hello! I am the mock model. 2 + 2 = 4." });
  });

  it("--output-format text: the result text and a newline, nothing else", async () => {
    await setUp("text");
    const run = await runAgentwire(["-p", "Say hello.", "--output-format", "text"], { workspace });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello! I am the mock model. 2 + 2 = 4.\n");
  });

  it("prompt from stdin when none is given in argv", async () => {
    await setUp("text");
    const run = await runAgentwire(["-p", "--output-format", "json"], { workspace, stdin: "Say hello.\n" });
    expect(run.code).toBe(0);
    const body = workspace.server.requests[0]!.body as { messages: Array<{ content: Array<{ text: string }> }> };
    expect(body.messages[0]!.content[0]!.text).toBe("Say hello.\n");
  });

  it("session file: a header line, then the conversation, readable after the run", async () => {
    await setUp("read");
    const run = await runAgentwire(["-p", "What is in hello.txt?", ...STREAM], { workspace });
    const sessionId = results(run.events)[0]!.session_id;
    const key = workspace.cwd.replace(/[^a-zA-Z0-9]/g, "-");
    const file = join(workspace.home, ".agentwire", "projects", key, `${sessionId}.jsonl`);
    const lines = (await readFile(file, "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; version?: number });
    expect(lines[0]).toMatchObject({ type: "session", version: 2, session_id: sessionId, cwd: workspace.cwd });
    expect(lines.filter((line) => line.type === "message")).toHaveLength(4);
    expect(lines.at(-1)!.type).toBe("turn_end");
    await mkdir(join(workspace.cwd, "unused"), { recursive: true });
  });
});
