import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import {
  INTERRUPT_MARKER,
  TOOL_INTERRUPT_MARKER,
  runTurn,
  type LoopDependencies,
  type PermissionDecision,
  type TurnSettings,
} from "../../src/agent/loop.js";
import type { Message, ToolUseBlock, UserMessage } from "../../src/conversation/messages.js";
import { exponentialBackoff, type RetryPolicy } from "../../src/agent/retry-policy.js";
import type { ProviderEvent, Usage } from "../../src/providers/types.js";
import type { ToolResult } from "../../src/conversation/tool-result.js";
import {
  FakeProvider,
  errorTurn,
  hangingTurn,
  messageStart,
  textBlock,
  textTurn,
  toolCallBlock,
  toolTurn,
  type ScriptedTurn,
} from "../helpers/fake-provider.js";

// ---------------------------------------------------------------------------------------------
// Harness

const settings: TurnSettings = {
  model: "fake-model",
  system: "You are a test.",
  maxTurns: undefined,
  maxOutputTokens: 1000,
  thinkingBudgetTokens: undefined,
  sessionId: "session-1",
  toolOffer: () => ({ tools: [{ name: "Read", description: "Reads.", inputSchema: { type: "object" } }], deferred: [] }),
};

const READ_ONLY_TOOLS = new Set(["Read", "Glob"]);

interface Harness {
  provider: FakeProvider;
  dependencies: LoopDependencies;
  events: AgentEvent[];
  sleeps: number[];
  toolCalls: ToolUseBlock[];
  usages: Array<{ usage: Usage; model: string }>;
}

interface HarnessOptions {
  runTool?: (call: ToolUseBlock, signal: AbortSignal) => Promise<ToolResult>;
  authorizeToolCall?: (call: ToolUseBlock) => Promise<PermissionDecision>;
  rejectMalformedCall?: (call: ToolUseBlock) => ToolResult | undefined;
  retryPolicy?: RetryPolicy;
}

function createHarness(turns: ScriptedTurn[], options: HarnessOptions = {}): Harness {
  const provider = new FakeProvider(turns);
  const events: AgentEvent[] = [];
  const sleeps: number[] = [];
  const toolCalls: ToolUseBlock[] = [];
  const usages: Array<{ usage: Usage; model: string }> = [];
  let clock = 1_000;
  const runTool = options.runTool ?? (async (call: ToolUseBlock) => ({ content: `ran ${call.id}`, isError: false }));
  const dependencies: LoopDependencies = {
    provider,
    retryPolicy: options.retryPolicy ?? exponentialBackoff(2, () => 0),
    emit: (event) => events.push(event),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    onUsage: (usage, model) => usages.push({ usage, model }),
    onApiTime: () => {},
    now: () => (clock += 10),
    runTool: (call, signal) => {
      toolCalls.push(call);
      return runTool(call, signal);
    },
    rejectMalformedCall: options.rejectMalformedCall ?? (() => undefined),
    authorizeToolCall: options.authorizeToolCall ?? (async () => ({ allow: true })),
    isReadOnlyTool: (name) => READ_ONLY_TOOLS.has(name),
  };
  return { provider, dependencies, events, sleeps, toolCalls, usages };
}

function prompt(text: string): UserMessage {
  return { role: "user", content: [{ type: "text", text }] };
}

function eventsOfType<T extends AgentEvent["type"]>(events: AgentEvent[], type: T): Array<Extract<AgentEvent, { type: T }>> {
  return events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
}

function committedMessages(events: AgentEvent[]): Message[] {
  return eventsOfType(events, "message_committed").map((event) => event.message);
}

function countBlocks(history: Message[], type: "tool_use" | "tool_result"): string[] {
  return history.flatMap((message) =>
    message.content.flatMap((block) => {
      if (type === "tool_use" && block.type === "tool_use") return [block.id];
      if (type === "tool_result" && block.type === "tool_result") return [block.toolUseId];
      return [];
    }),
  );
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** Rejects with `message` when `promise` has not settled within `ms` (instead of a silent hang). */
function within<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(message())), ms))]);
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

// ---------------------------------------------------------------------------------------------

describe("runTurn: completing turns", () => {
  it("answers a text-only turn with one request", async () => {
    const { provider, dependencies, events } = createHarness([textTurn("Hello there")]);
    const history: Message[] = [];
    const userPrompt = prompt("hi");

    const outcome = await runTurn(history, userPrompt, settings, dependencies, new AbortController().signal);

    expect(outcome).toEqual({ terminalReason: "completed", stopReason: "end_turn", numTurns: 1, resultText: "Hello there" });
    expect(history).toEqual([userPrompt, { role: "assistant", provider: "fake", content: [{ type: "text", text: "Hello there" }] }]);
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]).toMatchObject({
      model: "fake-model",
      system: "You are a test.",
      messages: [userPrompt],
      tools: settings.toolOffer([]).tools,
      maxOutputTokens: 1000,
      sessionId: "session-1",
    });
    expect(provider.requests[0]).not.toHaveProperty("thinkingBudgetTokens");
    expect(eventsOfType(events, "model_request_start")).toEqual([{ type: "model_request_start", attempt: 1 }]);
  });

  it("feeds a tool result back and asks the model again", async () => {
    const { provider, dependencies, toolCalls } = createHarness([
      toolTurn([{ id: "toolu_1", name: "Read", input: { file_path: "/a.txt" } }], "Let me look."),
      textTurn("The file says hello."),
    ]);
    const history: Message[] = [];

    const outcome = await runTurn(history, prompt("read a.txt"), settings, dependencies, new AbortController().signal);

    expect(outcome).toEqual({ terminalReason: "completed", stopReason: "end_turn", numTurns: 2, resultText: "The file says hello." });
    expect(toolCalls).toEqual([{ type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "/a.txt" } }]);
    expect(provider.requests).toHaveLength(2);
    const secondRequest = provider.requests[1]!.messages;
    expect(secondRequest).toHaveLength(3);
    expect(secondRequest[1]).toEqual({
      role: "assistant",
      provider: "fake",
      content: [
        { type: "text", text: "Let me look." },
        { type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "/a.txt" } },
      ],
    });
    expect(secondRequest[2]).toEqual({
      role: "user",
      content: [{ type: "tool_result", toolUseId: "toolu_1", content: "ran toolu_1", isError: false }],
    });
    // The first request was recorded before the loop extended the history.
    expect(provider.requests[0]!.messages).toHaveLength(1);
    expect(history).toHaveLength(4);
  });

  it("emits every committed message as message_committed, in history order", async () => {
    const { dependencies, events } = createHarness([toolTurn([{ id: "toolu_1", name: "Write", input: {} }]), textTurn("done")]);
    const history: Message[] = [{ role: "user", content: [{ type: "text", text: "earlier turn" }] }];

    await runTurn(history, prompt("go"), settings, dependencies, new AbortController().signal);

    const committed = committedMessages(events);
    // Everything after the pre-existing message, same objects, same order.
    expect(committed).toHaveLength(4);
    committed.forEach((message, position) => expect(message).toBe(history[position + 1]));
    expect(committed.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("stops at max_turns before making a second request", async () => {
    const { provider, dependencies, toolCalls } = createHarness([toolTurn([{ id: "toolu_1", name: "Read", input: {} }])]);
    const history: Message[] = [];

    const outcome = await runTurn(history, prompt("go"), { ...settings, maxTurns: 1 }, dependencies, new AbortController().signal);

    expect(outcome.terminalReason).toBe("max_turns");
    expect(outcome.stopReason).toBe("tool_use");
    expect(outcome.numTurns).toBe(2);
    expect(provider.requests).toHaveLength(1);
    // The requested call still ran and got its result, so history stays valid for a resume.
    expect(toolCalls.map((call) => call.id)).toEqual(["toolu_1"]);
    expect(countBlocks(history, "tool_result")).toEqual(["toolu_1"]);
  });
});

describe("runTurn: tool execution", () => {
  it("runs consecutive read-only calls concurrently but reports them in the model's order", async () => {
    const ids = ["toolu_a", "toolu_b", "toolu_c"];
    const gates = new Map(ids.map((id) => [id, deferred<ToolResult>()]));
    const allStarted = deferred<void>();
    const started: string[] = [];
    const finished: string[] = [];
    const { dependencies, events } = createHarness(
      [toolTurn(ids.map((id) => ({ id, name: "Read", input: { file_path: `/${id}` } }))), textTurn("ok")],
      {
        runTool: async (call) => {
          started.push(call.id);
          if (started.length === ids.length) allStarted.resolve();
          const result = await gates.get(call.id)!.promise;
          finished.push(call.id);
          return result;
        },
      },
    );
    const history: Message[] = [];

    const turn = runTurn(history, prompt("read three"), settings, dependencies, new AbortController().signal);
    await within(allStarted.promise, 2_000, () => `only ${started.join(", ")} started before the first one finished`);
    // Finish in reverse order.
    for (const id of [...ids].reverse()) {
      gates.get(id)!.resolve({ content: `body of ${id}`, isError: false });
      await tick();
    }
    const outcome = await turn;

    expect(outcome.terminalReason).toBe("completed");
    expect(finished).toEqual(["toolu_c", "toolu_b", "toolu_a"]);
    expect(eventsOfType(events, "tool_result").map((event) => event.toolUseId)).toEqual(ids);
    expect(history[2]).toEqual({
      role: "user",
      content: ids.map((id) => ({ type: "tool_result", toolUseId: id, content: `body of ${id}`, isError: false })),
    });
  });

  it("runs a non-read-only call alone, after its read-only neighbours finish", async () => {
    const log: string[] = [];
    let running = 0;
    const { dependencies, events } = createHarness(
      [
        toolTurn([
          { id: "read_1", name: "Read", input: {} },
          { id: "read_2", name: "Glob", input: {} },
          { id: "write_3", name: "Write", input: {} },
          { id: "read_4", name: "Read", input: {} },
        ]),
        textTurn("ok"),
      ],
      {
        runTool: async (call) => {
          log.push(`start ${call.id} (running: ${running})`);
          running++;
          for (let index = 0; index < 3; index++) await tick();
          running--;
          log.push(`end ${call.id}`);
          return { content: call.id, isError: false };
        },
      },
    );

    await runTurn([], prompt("mixed"), settings, dependencies, new AbortController().signal);

    expect(log).toEqual([
      "start read_1 (running: 0)",
      "start read_2 (running: 1)",
      "end read_1",
      "end read_2",
      "start write_3 (running: 0)",
      "end write_3",
      "start read_4 (running: 0)",
      "end read_4",
    ]);
    expect(eventsOfType(events, "tool_result").map((event) => event.toolUseId)).toEqual(["read_1", "read_2", "write_3", "read_4"]);
  });

  it("answers a denied call with a permission_denied result and never runs it", async () => {
    const { provider, dependencies, events, toolCalls } = createHarness(
      [
        toolTurn([
          { id: "toolu_ok", name: "Read", input: {} },
          { id: "toolu_no", name: "Write", input: { file_path: "/etc/passwd" } },
        ]),
        textTurn("understood"),
      ],
      {
        authorizeToolCall: async (call) =>
          call.name === "Write" ? { allow: false, message: "Permission to use Write has been denied." } : { allow: true },
      },
    );

    const outcome = await runTurn([], prompt("write"), settings, dependencies, new AbortController().signal);

    expect(outcome.terminalReason).toBe("completed");
    expect(toolCalls.map((call) => call.id)).toEqual(["toolu_ok"]);
    expect(eventsOfType(events, "tool_result").map((event) => [event.toolUseId, event.result])).toEqual([
      ["toolu_ok", { content: "ran toolu_ok", isError: false }],
      [
        "toolu_no",
        {
          content: "Permission to use Write has been denied.",
          isError: true,
          code: "permission_denied",
          details: "Error: Permission to use Write has been denied.",
        },
      ],
    ]);
    expect(provider.requests[1]!.messages.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "tool_result", toolUseId: "toolu_ok", content: "ran toolu_ok", isError: false },
        { type: "tool_result", toolUseId: "toolu_no", content: "Permission to use Write has been denied.", isError: true },
      ],
    });
  });
});

describe("runTurn: interrupts", () => {
  it("keeps the partial text and adds the interrupt marker when aborted mid-stream", async () => {
    const controller = new AbortController();
    const { provider, dependencies, events } = createHarness([hangingTurn({ text: "I was saying", onWaiting: () => controller.abort() })]);
    const history: Message[] = [];
    const userPrompt = prompt("talk");

    const outcome = await runTurn(history, userPrompt, settings, dependencies, controller.signal);

    expect(outcome).toEqual({ terminalReason: "aborted_streaming", stopReason: null, numTurns: 2, resultText: "" });
    expect(history).toEqual([
      userPrompt,
      { role: "assistant", provider: "fake", content: [{ type: "text", text: "I was saying" }] },
      { role: "user", content: [{ type: "text", text: INTERRUPT_MARKER }] },
    ]);
    expect(eventsOfType(events, "model_response_aborted")).toEqual([
      {
        type: "model_response_aborted",
        partialBlock: { type: "text", text: "I was saying" },
        response: expect.objectContaining({ messageId: expect.any(String) }),
      },
    ]);
    expect(eventsOfType(events, "user_notice")).toEqual([{ type: "user_notice", text: INTERRUPT_MARKER }]);
    expect(eventsOfType(events, "api_retry")).toEqual([]);
    expect(provider.requests).toHaveLength(1);
  });

  it("gives every completed tool_use of an aborted response exactly one result, without running it", async () => {
    const controller = new AbortController();
    const before: ProviderEvent[] = [
      messageStart(),
      ...toolCallBlock(0, { id: "toolu_1", name: "Read", input: { file_path: "/one" } }),
      ...toolCallBlock(1, { id: "toolu_2", name: "Write", input: { file_path: "/two" } }),
      // A third call is half-streamed when the user interrupts: it must not survive.
      { type: "tool_call_start", index: 2, id: "toolu_3", name: "Read" },
      { type: "tool_call_delta", index: 2, partialJson: '{"file_pa' },
    ];
    const { dependencies, events, toolCalls } = createHarness([hangingTurn({ before, onWaiting: () => controller.abort() })]);
    const history: Message[] = [];

    const outcome = await runTurn(history, prompt("go"), settings, dependencies, controller.signal);

    expect(outcome.terminalReason).toBe("aborted_streaming");
    expect(outcome.numTurns).toBe(4);
    expect(toolCalls).toEqual([]);
    expect(history[1]).toEqual({
      role: "assistant",
      provider: "fake",
      content: [
        { type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "/one" } },
        { type: "tool_use", id: "toolu_2", name: "Write", input: { file_path: "/two" } },
      ],
    });
    expect(history[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", toolUseId: "toolu_1", content: TOOL_INTERRUPT_MARKER, isError: true },
        { type: "tool_result", toolUseId: "toolu_2", content: TOOL_INTERRUPT_MARKER, isError: true },
        { type: "text", text: INTERRUPT_MARKER },
      ],
    });
    expect(history).toHaveLength(3);
    expect(countBlocks(history, "tool_result")).toEqual(countBlocks(history, "tool_use"));
    const results = eventsOfType(events, "tool_result");
    expect(results.map((event) => event.toolUseId)).toEqual(["toolu_1", "toolu_2"]);
    expect(results.every((event) => event.result.code === "aborted" && event.result.isError)).toBe(true);
  });

  it("answers the calls a mid-batch interrupt cut off without running them", async () => {
    const controller = new AbortController();
    const { provider, dependencies, events, toolCalls } = createHarness(
      [
        toolTurn([
          { id: "read_1", name: "Read", input: {} },
          { id: "read_2", name: "Read", input: {} },
          { id: "write_3", name: "Write", input: {} },
          { id: "read_4", name: "Read", input: {} },
        ]),
      ],
      {
        // Both reads are in flight when the user interrupts; they stop and report it themselves.
        runTool: (call, signal) =>
          new Promise((resolve) => {
            if (call.id === "read_2") setImmediate(() => controller.abort());
            signal.addEventListener("abort", () => resolve({ content: `${call.id} stopped`, isError: true, code: "aborted" }), {
              once: true,
            });
          }),
      },
    );
    const history: Message[] = [];

    const outcome = await runTurn(history, prompt("go"), settings, dependencies, controller.signal);

    expect(outcome.terminalReason).toBe("aborted_tools");
    expect(outcome.numTurns).toBe(6);
    expect(provider.requests).toHaveLength(1);
    expect(toolCalls.map((call) => call.id)).toEqual(["read_1", "read_2"]);
    const ids = ["read_1", "read_2", "write_3", "read_4"];
    expect(eventsOfType(events, "tool_result").map((event) => event.toolUseId)).toEqual(ids);
    expect(countBlocks(history, "tool_use")).toEqual(ids);
    expect(countBlocks(history, "tool_result")).toEqual(ids);
    expect(history[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", toolUseId: "read_1", content: "read_1 stopped", isError: true },
        { type: "tool_result", toolUseId: "read_2", content: "read_2 stopped", isError: true },
        { type: "tool_result", toolUseId: "write_3", content: TOOL_INTERRUPT_MARKER, isError: true },
        { type: "tool_result", toolUseId: "read_4", content: TOOL_INTERRUPT_MARKER, isError: true },
      ],
    });
    expect(history[3]).toEqual({ role: "user", content: [{ type: "text", text: INTERRUPT_MARKER }] });
    expect(history).toHaveLength(4);
    expect(eventsOfType(events, "user_notice")).toHaveLength(1);
  });
});

describe("runTurn: API failures and retries", () => {
  it("retries a retryable failure after the policy's delay and drops the abandoned attempt", async () => {
    const abandoned: ProviderEvent[] = [
      messageStart("msg_abandoned"),
      ...textBlock(0, "half of a first try"),
      ...toolCallBlock(1, { id: "toolu_ghost", name: "Write", input: {} }),
    ];
    const { provider, dependencies, events, sleeps, toolCalls, usages } = createHarness([
      errorTurn({ kind: "overloaded", status: 529, retryable: true }, abandoned),
      textTurn("second try"),
    ]);
    const history: Message[] = [];
    const userPrompt = prompt("hi");

    const outcome = await runTurn(history, userPrompt, settings, dependencies, new AbortController().signal);

    expect(outcome.terminalReason).toBe("completed");
    expect(outcome.resultText).toBe("second try");
    expect(eventsOfType(events, "api_retry")).toEqual([
      { type: "api_retry", attempt: 1, maxRetries: 2, delayMs: 500, status: 529, errorKind: "overloaded" },
    ]);
    expect(sleeps).toEqual([500]);
    expect(eventsOfType(events, "model_request_start").map((event) => event.attempt)).toEqual([1, 2]);
    expect(history).toEqual([userPrompt, { role: "assistant", provider: "fake", content: [{ type: "text", text: "second try" }] }]);
    expect(committedMessages(events)).toEqual(history);
    expect(toolCalls).toEqual([]);
    expect(provider.requests[1]!.messages).toEqual(provider.requests[0]!.messages);
    // The abandoned attempt is billed too.
    expect(usages).toHaveLength(2);
  });

  it("waits as long as the server's retry-after asks", async () => {
    const { dependencies, events, sleeps } = createHarness([
      errorTurn({ kind: "rate_limit", status: 429, retryable: true, retryAfterMs: 7_250 }),
      textTurn("ok"),
    ]);

    await runTurn([], prompt("hi"), settings, dependencies, new AbortController().signal);

    expect(sleeps).toEqual([7_250]);
    expect(eventsOfType(events, "api_retry")[0]).toMatchObject({ delayMs: 7_250, status: 429, errorKind: "rate_limit" });
  });

  it("fails at once on a non-retryable error", async () => {
    const { provider, dependencies, events, sleeps } = createHarness([
      errorTurn({ kind: "auth", status: 401, retryable: false, message: "invalid x-api-key" }),
    ]);
    const history: Message[] = [];

    const outcome = await runTurn(history, prompt("hi"), settings, dependencies, new AbortController().signal);

    expect(outcome).toEqual({
      terminalReason: "api_error",
      stopReason: null,
      numTurns: 1,
      resultText: "",
      error: { kind: "auth", status: 401, message: "invalid x-api-key" },
    });
    expect(eventsOfType(events, "api_retry")).toEqual([]);
    expect(sleeps).toEqual([]);
    expect(provider.requests).toHaveLength(1);
    expect(history).toHaveLength(1);
  });

  it("gives up with api_error once the retries are used up", async () => {
    const serverError = errorTurn({ kind: "server", status: 500, retryable: true, message: "Internal server error" });
    const { provider, dependencies, events, sleeps } = createHarness([serverError, serverError, serverError]);

    const outcome = await runTurn([], prompt("hi"), settings, dependencies, new AbortController().signal);

    expect(outcome.terminalReason).toBe("api_error");
    expect(outcome.error).toEqual({ kind: "server", status: 500, message: "Internal server error" });
    expect(provider.requests).toHaveLength(3);
    expect(eventsOfType(events, "api_retry").map((event) => [event.attempt, event.delayMs])).toEqual([
      [1, 500],
      [2, 1_000],
    ]);
    expect(sleeps).toEqual([500, 1_000]);
  });

  it("treats a stream that ends without message_end as a disconnect and retries", async () => {
    const cutOff: ProviderEvent[] = [messageStart(), ...textBlock(0, "cut off")];
    const { provider, dependencies, events } = createHarness([cutOff, textTurn("whole answer")]);
    const history: Message[] = [];

    const outcome = await runTurn(history, prompt("hi"), settings, dependencies, new AbortController().signal);

    expect(eventsOfType(events, "api_retry")).toEqual([
      { type: "api_retry", attempt: 1, maxRetries: 2, delayMs: 500, status: null, errorKind: "disconnect" },
    ]);
    expect(outcome.terminalReason).toBe("completed");
    expect(history.at(-1)).toEqual({ role: "assistant", provider: "fake", content: [{ type: "text", text: "whole answer" }] });
    expect(provider.requests).toHaveLength(2);
  });

  it("stops retrying when interrupted during the backoff", async () => {
    const controller = new AbortController();
    const { provider, dependencies } = createHarness([errorTurn({ kind: "overloaded", status: 529, retryable: true })]);
    dependencies.sleep = async () => controller.abort();
    const history: Message[] = [];

    const outcome = await runTurn(history, prompt("hi"), settings, dependencies, controller.signal);

    expect(outcome.terminalReason).toBe("aborted_streaming");
    expect(provider.requests).toHaveLength(1);
    expect(history.at(-1)).toEqual({ role: "user", content: [{ type: "text", text: INTERRUPT_MARKER }] });
  });
});

describe("FakeProvider", () => {
  it("fails clearly when the script runs out", async () => {
    const { dependencies } = createHarness([toolTurn([{ id: "toolu_1", name: "Read", input: {} }])]);

    await expect(runTurn([], prompt("hi"), settings, dependencies, new AbortController().signal)).rejects.toThrow(
      /FakeProvider: no more scripted turns, got request .*toolu_1/,
    );
  });
});
