import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AssistantEvent, OutputEvent, UserEvent } from "../../protocol/events.js";
import {
  createWorkspace,
  expectWellFormedRun,
  PROVIDERS_UNDER_TEST,
  results,
  runAgentwire,
  sequence,
  spawnAgentwire,
  waitForEvent,
  waitForExit,
  type ProviderUnderTest,
  type Workspace,
} from "../helpers/agentwire.js";
import { DEFERRED_LISTING_START } from "../helpers/deferred-listing.js";

// The foundation scenarios, run once per wire format the replay server speaks. Every assertion
// is the same for every provider: the stdout stream must not depend on which model API is
// behind agentwire (model names and ids aside).

const STREAM = ["--output-format", "stream-json", "--verbose"];
const STREAM_IO = ["--input-format", "stream-json", ...STREAM];

interface Case {
  name: ProviderUnderTest;
  /** Local servers bill nothing: their cost is an exact 0. */
  priced: boolean;
  /** Why the wire format cannot carry thinking, when it cannot. */
  noThinking?: string;
}

const CASES: Case[] = [
  { name: "anthropic", priced: true },
  { name: "openai-chat", priced: true },
  { name: "openai-responses", priced: true },
  { name: "ollama", priced: false },
  { name: "gemini", priced: true },
];

/** One conversation turn of a request body, whatever the wire format. */
interface WireTurn {
  role: "user" | "assistant";
  texts: string[];
  toolUseIds: string[];
  toolResultIds: string[];
}

/** The deferred-tools listing, with the separator a wire format that joins a message's texts puts before it. */
const DEFERRED_LISTING = new RegExp(`(\n\n)?${DEFERRED_LISTING_START}[\\s\\S]*?</system-reminder>`);

/** The conversation a request carried, normalized across wire formats (system prompt and deferred-tools listing left out). */
function conversation(provider: ProviderUnderTest, body: unknown): WireTurn[] {
  const turns: WireTurn[] = [];
  const add = (role: WireTurn["role"], entry: Partial<Omit<WireTurn, "role">>) => {
    let last = turns.at(-1);
    if (last?.role !== role) turns.push((last = { role, texts: [], toolUseIds: [], toolResultIds: [] }));
    last.texts.push(...(entry.texts ?? []).map((text) => text.replace(DEFERRED_LISTING, "")).filter((text) => text !== ""));
    last.toolUseIds.push(...(entry.toolUseIds ?? []));
    last.toolResultIds.push(...(entry.toolResultIds ?? []));
  };
  const textsOf = (content: unknown): string[] =>
    typeof content === "string"
      ? [content]
      : Array.isArray(content)
        ? content.flatMap((part: { text?: string }) => (typeof part.text === "string" ? [part.text] : []))
        : [];

  if (provider === "anthropic") {
    for (const message of (body as { messages: Array<{ role: WireTurn["role"]; content: Array<Record<string, unknown>> }> }).messages) {
      for (const block of message.content) {
        if (block.type === "text") add(message.role, { texts: [block.text as string] });
        if (block.type === "tool_use") add(message.role, { toolUseIds: [block.id as string] });
        if (block.type === "tool_result") add(message.role, { toolResultIds: [block.tool_use_id as string] });
      }
    }
  } else if (provider === "gemini") {
    for (const content of (body as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> }).contents) {
      const role = content.role === "model" ? "assistant" : "user";
      for (const part of content.parts) {
        if (typeof part.text === "string" && !part.thought) add(role, { texts: [part.text] });
        if (part.functionCall) add(role, { toolUseIds: [(part.functionCall as { id: string }).id] });
        if (part.functionResponse) add(role, { toolResultIds: [(part.functionResponse as { id: string }).id] });
      }
    }
  } else if (provider === "openai-responses") {
    for (const item of (body as { input: Array<Record<string, unknown>> }).input) {
      if (item.type === "function_call") add("assistant", { toolUseIds: [item.call_id as string] });
      else if (item.type === "function_call_output") add("user", { toolResultIds: [item.call_id as string] });
      else if (item.role === "user" || item.role === "assistant") add(item.role, { texts: textsOf(item.content) });
    }
  } else {
    for (const message of (body as { messages: Array<Record<string, unknown>> }).messages) {
      if (message.role === "tool") add("user", { toolResultIds: [message.tool_call_id as string] });
      else if (message.role === "user") add("user", { texts: textsOf(message.content) });
      else if (message.role === "assistant") {
        add("assistant", {
          texts: textsOf(message.content),
          toolUseIds: ((message.tool_calls ?? []) as Array<{ id: string }>).map((call) => call.id),
        });
      }
    }
  }
  return turns;
}

function toolUseIdsOf(events: OutputEvent[]): string[] {
  return events.flatMap((event) =>
    event.type === "assistant" && event.message.content[0].type === "tool_use" ? [event.message.content[0].id] : [],
  );
}

function userLines(events: OutputEvent[]): UserEvent[] {
  return events.filter((event): event is UserEvent => event.type === "user");
}

function toolResultBlock(event: UserEvent) {
  const block = event.message.content[0];
  if (block.type !== "tool_result") throw new Error("not a tool_result line");
  return block;
}

const userLine = (content: unknown): string =>
  `${JSON.stringify({ type: "user", message: { role: "user", content }, parent_tool_use_id: null, session_id: "" })}\n`;

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

describe.each(CASES)("the same stream from every provider: $name", ({ name: provider, priced, noThinking }) => {
  const expected = PROVIDERS_UNDER_TEST[provider];

  it("text: init names the provider and model, one assistant line, success", async () => {
    await setUp("text");
    const run = await runAgentwire(["-p", "Say hello.", ...STREAM], { workspace, provider });
    expectWellFormedRun(run, 1);
    expect(sequence(run.events)).toEqual(["system/init", "assistant:text", "result/success"]);
    expect(run.events[0]).toMatchObject({ provider: expected.provider, model: expected.model });
    const [result] = results(run.events);
    expect(result).toMatchObject({
      is_error: false,
      num_turns: 1,
      result: "Hello! I am the mock model. 2 + 2 = 4.",
      stop_reason: "end_turn",
      terminal_reason: "completed",
    });
    expect(result!.usage.input_tokens).toBeGreaterThan(0);
    expect(result!.usage.output_tokens).toBe(10);
    expect(result!.modelUsage[expected.model]).toMatchObject({ outputTokens: 10 });
    if (priced) expect(result!.total_cost_usd).toBeGreaterThan(0);
    else expect(result!.total_cost_usd).toBe(0);
    expect(conversation(provider, workspace.server.requests[0]!.body)).toEqual([
      { role: "user", texts: ["Say hello."], toolUseIds: [], toolResultIds: [] },
    ]);
  });

  it("one Read round: the tool runs and its result reaches the model under the call's id", async () => {
    await setUp("read");
    const run = await runAgentwire(["-p", "What is in hello.txt?", ...STREAM], { workspace, provider });
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
    expect(toolUse!.message.content[0]).toMatchObject({ type: "tool_use", name: "Read", input: { file_path: "hello.txt" } });
    expect(toolResultBlock(userLines(run.events)[0]!).content).toBe("1\tHello, world!\n2\tThis is line two.\n3\tThird line here.\n4\t");
    expect(results(run.events)[0]).toMatchObject({
      num_turns: 2,
      stop_reason: "end_turn",
      result: "The file hello.txt has three lines and starts with 'Hello, world!'.",
    });
    const second = conversation(provider, workspace.server.requests[1]!.body);
    expect(second.map((turn) => turn.role)).toEqual(["user", "assistant", "user"]);
    expect(second[1]!.toolUseIds).toEqual(toolUseIdsOf(run.events));
    expect(second[2]!.toolResultIds).toEqual(toolUseIdsOf(run.events));
  });

  it("parallel tools: two calls, two results in order, one follow-up request with both", async () => {
    await setUp("parallel-tools");
    const run = await runAgentwire(["-p", "Read both files.", ...STREAM], { workspace, provider });
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
    const ids = toolUseIdsOf(run.events);
    expect(new Set(ids).size).toBe(2);
    expect(userLines(run.events).map((line) => toolResultBlock(line).tool_use_id)).toEqual(ids);
    expect(results(run.events)[0]!.num_turns).toBe(3);
    expect(conversation(provider, workspace.server.requests[1]!.body).at(-1)!.toolResultIds).toEqual(ids);
  });

  it("tool error: the model sees the error, the run still succeeds", async () => {
    await setUp("tool-error");
    const run = await runAgentwire(["-p", "Read missing.txt", ...STREAM], { workspace, provider });
    expectWellFormedRun(run, 1);
    const user = userLines(run.events)[0]!;
    expect(toolResultBlock(user)).toMatchObject({
      is_error: true,
      content: `File does not exist. Note: your current working directory is ${workspace.cwd}.`,
    });
    expect(user.tool_error_code).toBe("file_not_found");
    expect(results(run.events)[0]).toMatchObject({ subtype: "success", is_error: false, result: "That file does not exist." });
  });

  it.skipIf(noThinking !== undefined)(
    `thinking: progress, a thinking line, then the text${noThinking ? ` (skipped: ${noThinking})` : ""}`,
    async () => {
      await setUp("thinking");
      const run = await runAgentwire(["-p", "What is 17*3?", ...STREAM], { workspace, provider });
      expectWellFormedRun(run, 1);
      expect(sequence(run.events).filter((label) => label !== "system/thinking_tokens")).toEqual([
        "system/init",
        "assistant:thinking",
        "assistant:text",
        "result/success",
      ]);
      expect(sequence(run.events)).toContain("system/thinking_tokens");
      const thinking = run.events.find((event): event is AssistantEvent => event.type === "assistant")!;
      expect(thinking.message.content[0]).toMatchObject({
        type: "thinking",
        thinking: "The user asks for 17*3. 17*3 = 51.",
        signature: expect.any(String),
      });
      expect(results(run.events)[0]!.result).toBe("17 × 3 = 51.");
    },
  );

  it("multi-turn over stdin: two turns in one session, the second request carries the first", async () => {
    workspace = await createWorkspace("multi-turn");
    const run = await runAgentwire(STREAM_IO, {
      workspace,
      provider,
      stdin: userLine("First?") + userLine([{ type: "text", text: "Second?" }]),
    });
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
    expect(conversation(provider, workspace.server.requests[1]!.body)).toEqual([
      { role: "user", texts: ["First?"], toolUseIds: [], toolResultIds: [] },
      { role: "assistant", texts: ["First answer."], toolUseIds: [], toolResultIds: [] },
      { role: "user", texts: ["Second?"], toolUseIds: [], toolResultIds: [] },
    ]);
  });

  it("interrupt mid-stream: aborted partial, marker, error result; the next message sees both", async () => {
    workspace = await createWorkspace("interrupt");
    const child = spawnAgentwire([...STREAM_IO, "--include-partial-messages"], { workspace, provider });
    const exited = waitForExit(child);
    child.stdin.write(userLine("Write a long essay."));
    await waitForEvent(child, (event) => event.type === "stream_event" && event.event.type === "content_block_delta");
    child.stdin.write(`${JSON.stringify({ type: "control_request", request_id: "r1", request: { subtype: "interrupt" } })}\n`);
    await waitForEvent(child, (event) => event.type === "result");
    child.stdin.write(userLine("Now just say done."));
    await waitForEvent(child, (event) => event.type === "result" && event.subtype === "success");
    child.stdin.end();
    const run = await exited;
    expectWellFormedRun(run, 2);
    const aborted = run.events.find((event): event is AssistantEvent => event.type === "assistant" && event.aborted === true)!;
    const partialText = (aborted.message.content[0] as { text: string }).text;
    expect(partialText.length).toBeGreaterThan(0);
    expect(results(run.events).map((result) => result.terminal_reason)).toEqual(["aborted_streaming", "completed"]);
    const next = conversation(provider, workspace.server.requests[1]!.body);
    expect(next.map((turn) => turn.role)).toEqual(["user", "assistant", "user"]);
    expect(next[1]!.texts).toEqual([partialText]);
    expect(next[2]!.texts.join("\n")).toMatch(/\[Request interrupted by user\][\s\S]*Now just say done\./);
  });

  it("429 with retry-after: one api_retry honouring the delay, then success", async () => {
    await setUp("api-429");
    const run = await runAgentwire(["-p", "Say hello.", ...STREAM], { workspace, provider });
    expectWellFormedRun(run, 1);
    expect(sequence(run.events)).toEqual(["system/init", "system/api_retry", "assistant:text", "result/success"]);
    expect(run.events[1]).toMatchObject({ attempt: 1, retry_delay_ms: 1000, error_status: 429, error: "rate_limit" });
    expect(workspace.server.requests).toHaveLength(2);
  });

  it("500: retried with backoff, then success", async () => {
    await setUp("api-500");
    const run = await runAgentwire(["-p", "Say hello.", ...STREAM], { workspace, provider });
    expectWellFormedRun(run, 1);
    expect(sequence(run.events)).toEqual(["system/init", "system/api_retry", "assistant:text", "result/success"]);
    expect(run.events[1]).toMatchObject({ error_status: 500, error: "server_error" });
    expect(results(run.events)[0]!.result).toBe("Recovered after server error.");
  });

  it("disconnect mid-stream: the partial answer is discarded, the retry's answer is the result", async () => {
    await setUp("disconnect");
    const run = await runAgentwire(["-p", "Say something long.", ...STREAM, "--include-partial-messages"], { workspace, provider });
    expectWellFormedRun(run, 1);
    const texts = run.events.flatMap((event) =>
      event.type === "assistant" && event.message.content[0].type === "text" ? [event.message.content[0].text] : [],
    );
    expect(texts).toEqual(["Complete answer after the reconnect."]);
    expect(run.events.find((event) => event.type === "system" && event.subtype === "api_retry")).toMatchObject({ error_status: null });
    expect(workspace.server.requests).toHaveLength(2);
  });

  it("--max-turns 1: stops after the tool results without a second request", async () => {
    await setUp("max-turns");
    const run = await runAgentwire(["-p", "Read every file.", ...STREAM, "--max-turns", "1"], { workspace, provider });
    expectWellFormedRun(run, 1);
    expect(sequence(run.events)).toEqual([
      "system/init",
      "assistant:text",
      "assistant:tool_use",
      "user:tool_result",
      "result/error_max_turns",
    ]);
    expect(results(run.events)[0]).toMatchObject({ is_error: true, terminal_reason: "max_turns", num_turns: 2, stop_reason: "tool_use" });
    expect(workspace.server.requests).toHaveLength(1);
  });

  it("resume: same session id, the earlier conversation is sent again, cost accumulates", async () => {
    await setUp("read");
    const first = await runAgentwire(["-p", "What is in hello.txt?", ...STREAM], { workspace, provider });
    expectWellFormedRun(first, 1);
    const sessionId = results(first.events)[0]!.session_id;
    await workspace.useScenario({ turns: [{ text: "We talked about hello.txt." }] });
    const second = await runAgentwire(["-p", "What did we talk about?", ...STREAM, "--resume", sessionId], { workspace, provider });
    expectWellFormedRun(second, 1);
    expect(second.events[0]).toMatchObject({ type: "system", subtype: "init", session_id: sessionId });
    const replayed = conversation(provider, workspace.server.requests[0]!.body);
    expect(replayed.map((turn) => turn.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(replayed[1]!.toolUseIds).toEqual(toolUseIdsOf(first.events));
    const firstCost = results(first.events)[0]!.total_cost_usd;
    if (priced) expect(results(second.events)[0]!.total_cost_usd).toBeGreaterThan(firstCost);
    else expect(results(second.events)[0]!.total_cost_usd).toBe(0);
  });
});
