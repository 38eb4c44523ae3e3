import { describe, expect, it } from "vitest";
import { OutputEventSchema, type OutputEvent } from "../../../protocol/events.js";
import type { AgentEvent } from "../../../src/agent/events.js";
import { runTurn } from "../../../src/agent/loop.js";
import { exponentialBackoff } from "../../../src/agent/retry-policy.js";
import { ResponseAccumulator } from "../../../src/providers/response-accumulator.js";
import type { ProviderErrorKind, ProviderEvent } from "../../../src/providers/types.js";
import { createTranslationState, toStreamJson, type TranslationContext } from "../../../src/session/wire/stream-json.js";
import { FakeProvider, hangingTurn, messageStart, toolCallBlock } from "../../helpers/fake-provider.js";

// ---------------------------------------------------------------------------------------------
// Deterministic translation: counter uuids and a clock that only moves when told.

const SESSION_ID = "11111111-2222-3333-4444-555555555555";
const START = Date.UTC(2025, 0, 2, 3, 4, 5);

interface Translation {
  lines: OutputEvent[];
  /** Translates one event, checks every produced line against the protocol, returns the lines. */
  translate(event: AgentEvent): OutputEvent[];
  advanceClock(ms: number): void;
}

function createTranslation(includePartialMessages: boolean): Translation {
  let uuidCounter = 0;
  let clock = START;
  const context: TranslationContext = {
    sessionId: SESSION_ID,
    includePartialMessages,
    newUuid: () => `uuid-${++uuidCounter}`,
    now: () => clock,
  };
  const state = createTranslationState();
  const lines: OutputEvent[] = [];
  // The loop's response record, as model-call keeps it: one per request, fed every streamed event.
  let response = new ResponseAccumulator();
  return {
    lines,
    translate(scripted) {
      let event = scripted;
      if (event.type === "model_request_start") response = new ResponseAccumulator();
      if (event.type === "model_stream") {
        response.apply(event.event);
        event = { ...event, response };
      }
      if ((event.type === "model_response_aborted" || event.type === "model_response_abandoned") && event.response === LIVE)
        event = { ...event, response };
      const produced = toStreamJson(event, state, context);
      for (const line of produced) {
        const parsed = OutputEventSchema.safeParse(line);
        if (!parsed.success) throw new Error(`invalid line ${JSON.stringify(line)}: ${parsed.error.message}`);
      }
      lines.push(...produced);
      return produced;
    },
    advanceClock(ms) {
      clock += ms;
    },
  };
}

function translateAll(events: AgentEvent[], includePartialMessages: boolean): OutputEvent[] {
  const translation = createTranslation(includePartialMessages);
  for (const event of events) translation.translate(event);
  return translation.lines;
}

/** Stands for the response being streamed; the translation helper puts the live record in its place. */
const LIVE = new ResponseAccumulator();
const stream = (event: ProviderEvent): AgentEvent => ({ type: "model_stream", event, response: LIVE });

/** `assistant`, `user`, `system/<subtype>` or `stream_event/<event type>[/<delta type>]`. */
function shape(line: OutputEvent): string {
  switch (line.type) {
    case "system":
      return `system/${line.subtype}`;
    case "stream_event": {
      const delta = (line.event as { delta?: { type?: string } }).delta?.type;
      return `stream_event/${line.event.type}${delta ? `/${delta}` : ""}`;
    }
    default:
      return line.type;
  }
}

const USAGE = { inputTokens: 12, outputTokens: 1, cacheReadInputTokens: 3, cacheCreationInputTokens: 4 };
const WIRE_START_USAGE = {
  input_tokens: 12,
  cache_creation_input_tokens: 4,
  cache_read_input_tokens: 3,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  output_tokens: 1,
  service_tier: "standard",
};

/** One response: "Hello" at index 0, then a Read call at index 1. */
const TEXT_AND_TOOL_RESPONSE: AgentEvent[] = [
  { type: "model_request_start", attempt: 1 },
  stream({ type: "message_start", messageId: "msg_A", model: "claude-test", usage: USAGE, requestId: "req_1" }),
  stream({ type: "text_start", index: 0 }),
  stream({ type: "text_delta", index: 0, text: "Hel" }),
  stream({ type: "text_delta", index: 0, text: "lo" }),
  stream({ type: "text_end", index: 0, text: "Hello" }),
  stream({ type: "tool_call_start", index: 1, id: "toolu_1", name: "Read" }),
  stream({ type: "tool_call_delta", index: 1, partialJson: '{"file_path":' }),
  stream({ type: "tool_call_delta", index: 1, partialJson: '"/a"}' }),
  stream({ type: "tool_call_end", index: 1, id: "toolu_1", name: "Read", input: { file_path: "/a" } }),
  stream({
    type: "message_end",
    stopReason: { normalized: "tool_use", raw: "tool_use" },
    usage: { inputTokens: 12, outputTokens: 40, cacheReadInputTokens: 3, cacheCreationInputTokens: 4 },
  }),
];

// ---------------------------------------------------------------------------------------------

describe("toStreamJson without partial messages", () => {
  it("emits one assistant line per completed block, sharing the message id", () => {
    const lines = translateAll(TEXT_AND_TOOL_RESPONSE, false);

    expect(lines.map(shape)).toEqual(["assistant", "assistant"]);
    expect(lines).toEqual([
      {
        type: "assistant",
        message: {
          id: "msg_A",
          type: "message",
          role: "assistant",
          model: "claude-test",
          content: [{ type: "text", text: "Hello" }],
          stop_reason: null,
          stop_sequence: null,
          usage: WIRE_START_USAGE,
          context_management: null,
        },
        parent_tool_use_id: null,
        session_id: SESSION_ID,
        uuid: "uuid-1",
        timestamp: "2025-01-02T03:04:05.000Z",
        request_id: "req_1",
      },
      {
        type: "assistant",
        message: {
          id: "msg_A",
          type: "message",
          role: "assistant",
          model: "claude-test",
          content: [{ type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "/a" } }],
          stop_reason: null,
          stop_sequence: null,
          usage: WIRE_START_USAGE,
          context_management: null,
        },
        parent_tool_use_id: null,
        session_id: SESSION_ID,
        uuid: "uuid-2",
        timestamp: "2025-01-02T03:04:05.000Z",
        request_id: "req_1",
      },
    ]);
  });

  it("omits request_id when the provider gave none", () => {
    const lines = translateAll(
      [
        { type: "model_request_start", attempt: 1 },
        stream({ type: "message_start", messageId: "msg_B", model: "m", usage: USAGE }),
        stream({ type: "text_start", index: 0 }),
        stream({ type: "text_end", index: 0, text: "x" }),
      ],
      false,
    );

    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toHaveProperty("request_id");
  });

  it("sends a thinking block's signature, or an empty one", () => {
    const lines = translateAll(
      [
        { type: "model_request_start", attempt: 1 },
        stream({ type: "message_start", messageId: "msg_T", model: "m", usage: USAGE }),
        stream({ type: "thinking_start", index: 0 }),
        stream({ type: "thinking_end", index: 0, thinking: "hmm", signature: "sig==" }),
        stream({ type: "thinking_start", index: 1 }),
        stream({ type: "thinking_end", index: 1, thinking: "unsigned" }),
      ],
      false,
    );

    expect(lines.map((line) => (line.type === "assistant" ? line.message.content[0] : undefined))).toEqual([
      { type: "thinking", thinking: "hmm", signature: "sig==" },
      { type: "thinking", thinking: "unsigned", signature: "" },
    ]);
  });
});

describe("toStreamJson with partial messages", () => {
  it("emits Anthropic-shaped stream events in Claude Code's order", () => {
    const translation = createTranslation(true);
    const [requestStart, messageStart, ...rest] = TEXT_AND_TOOL_RESPONSE;
    translation.translate(requestStart!);
    translation.advanceClock(250);
    translation.translate(messageStart!);
    rest.forEach((event) => translation.translate(event));
    const { lines } = translation;

    expect(lines.map(shape)).toEqual([
      "system/status",
      "stream_event/message_start",
      "stream_event/content_block_start",
      "stream_event/content_block_delta/text_delta",
      "stream_event/content_block_delta/text_delta",
      "assistant",
      "stream_event/content_block_stop",
      "stream_event/content_block_start",
      "stream_event/content_block_delta/input_json_delta",
      "stream_event/content_block_delta/input_json_delta",
      "assistant",
      "stream_event/content_block_stop",
      "stream_event/message_delta",
      "stream_event/message_stop",
    ]);
    expect(lines[0]).toEqual({ type: "system", subtype: "status", status: "requesting", session_id: SESSION_ID, uuid: "uuid-1" });
    expect(lines[1]).toEqual({
      type: "stream_event",
      event: {
        type: "message_start",
        message: {
          id: "msg_A",
          type: "message",
          role: "assistant",
          model: "claude-test",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: WIRE_START_USAGE,
        },
      },
      session_id: SESSION_ID,
      parent_tool_use_id: null,
      uuid: "uuid-2",
      api_message_id: "msg_A",
      ttft_ms: 250,
    });
    const streamEvents = lines.flatMap((line) => (line.type === "stream_event" ? [line] : []));
    expect(new Set(streamEvents.map((line) => line.api_message_id))).toEqual(new Set(["msg_A"]));
    expect(streamEvents.slice(1).map((line) => line.event)).toEqual([
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "lo" } },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_1", name: "Read", input: {} } },
      { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"file_path":' } },
      { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '"/a"}' } },
      { type: "content_block_stop", index: 1 },
      {
        type: "message_delta",
        delta: { stop_reason: "tool_use", stop_sequence: null },
        usage: { input_tokens: 12, cache_creation_input_tokens: 4, cache_read_input_tokens: 3, output_tokens: 40 },
      },
      { type: "message_stop" },
    ]);
    // Every line has its own uuid.
    const uuids = lines.map((line) => ("uuid" in line ? line.uuid : undefined));
    expect(new Set(uuids).size).toBe(lines.length);
  });

  it("streams thinking and signature deltas", () => {
    const lines = translateAll(
      [
        { type: "model_request_start", attempt: 1 },
        stream({ type: "message_start", messageId: "msg_T", model: "m", usage: USAGE }),
        stream({ type: "thinking_start", index: 0 }),
        stream({ type: "thinking_delta", index: 0, thinking: "abcd" }),
        stream({ type: "signature_delta", index: 0, signature: "sig" }),
        stream({ type: "thinking_end", index: 0, thinking: "abcd", signature: "sig" }),
      ],
      true,
    );

    expect(lines.map(shape)).toEqual([
      "system/status",
      "stream_event/message_start",
      "stream_event/content_block_start",
      "stream_event/content_block_delta/thinking_delta",
      "system/thinking_tokens",
      "stream_event/content_block_delta/signature_delta",
      "assistant",
      "stream_event/content_block_stop",
    ]);
    expect(lines[2]).toMatchObject({ event: { content_block: { type: "thinking", thinking: "", signature: "" } } });
    expect(lines[5]).toMatchObject({ event: { delta: { type: "signature_delta", signature: "sig" } } });
  });
});

describe("toStreamJson: thinking progress", () => {
  const thinkingEvents = (...deltas: string[]): AgentEvent[] => [
    { type: "model_request_start", attempt: 1 },
    stream({ type: "message_start", messageId: "msg_T", model: "m", usage: USAGE }),
    stream({ type: "thinking_start", index: 0 }),
    ...deltas.map((thinking) => stream({ type: "thinking_delta", index: 0, thinking })),
  ];

  it.each([false, true])("reports cumulative estimates (~4 characters per token), partial=%s", (partial) => {
    const lines = translateAll(thinkingEvents("12345678", "123", "x".repeat(41)), partial);

    const progress = lines.flatMap((line) =>
      line.type === "system" && line.subtype === "thinking_tokens" ? [[line.estimated_tokens, line.estimated_tokens_delta]] : [],
    );
    expect(progress).toEqual([
      [2, 2],
      [3, 1],
      [14, 11],
    ]);
  });

  it("starts counting again for the next model request", () => {
    const lines = translateAll([...thinkingEvents("12345678"), ...thinkingEvents("1234")], false);

    expect(lines.map((line) => (line.type === "system" && line.subtype === "thinking_tokens" ? line.estimated_tokens : -1))).toEqual([
      2, 1,
    ]);
  });
});

describe("toStreamJson: api_retry", () => {
  const cases: Array<[ProviderErrorKind, number | null, string]> = [
    ["auth", 401, "authentication_failed"],
    ["rate_limit", 429, "rate_limit"],
    ["server", 500, "server_error"],
    ["overloaded", 529, "overloaded"],
    ["disconnect", null, "unknown"],
    ["invalid_request", 400, "unknown"],
    ["context_length", 400, "unknown"],
    ["aborted", null, "unknown"],
    ["unknown", 418, "unknown"],
  ];

  it.each(cases)("maps %s (status %s) to error %s", (errorKind, status, errorName) => {
    const lines = translateAll([{ type: "api_retry", attempt: 2, maxRetries: 10, delayMs: 1234.6, status, errorKind }], false);

    expect(lines).toEqual([
      {
        type: "system",
        subtype: "api_retry",
        attempt: 2,
        max_retries: 10,
        retry_delay_ms: 1235,
        error_status: status,
        error: errorName,
        session_id: SESSION_ID,
        uuid: "uuid-1",
      },
    ]);
  });
});

describe("toStreamJson: tool results", () => {
  const cases: Array<{ name: string; event: Extract<AgentEvent, { type: "tool_result" }>; expected: Record<string, unknown> }> = [
    {
      name: "a successful result with structured details",
      event: {
        type: "tool_result",
        toolUseId: "toolu_1",
        toolName: "Read",
        result: { content: "1\thello", isError: false, details: { type: "text", file: { filePath: "/a", numLines: 1 } } },
      },
      expected: {
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "1\thello" }] },
        tool_use_result: { type: "text", file: { filePath: "/a", numLines: 1 } },
      },
    },
    {
      name: "an expected failure with a code",
      event: {
        type: "tool_result",
        toolUseId: "toolu_2",
        toolName: "Read",
        result: { content: "File does not exist.", isError: true, code: "file_not_found", details: "Error: File does not exist." },
      },
      expected: {
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "toolu_2", content: "File does not exist.", is_error: true }],
        },
        tool_use_result: "Error: File does not exist.",
        tool_error_code: "file_not_found",
      },
    },
    {
      name: "mixed text and image content",
      event: {
        type: "tool_result",
        toolUseId: "toolu_3",
        toolName: "Read",
        result: {
          content: [
            { type: "text", text: "an image:" },
            { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" },
          ],
          isError: false,
        },
      },
      expected: {
        message: {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "toolu_3",
              content: [
                { type: "text", text: "an image:" },
                { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
              ],
            },
          ],
        },
      },
    },
  ];

  it.each(cases)("turns $name into a user line", ({ event, expected }) => {
    const lines = translateAll([event], false);

    expect(lines).toEqual([
      {
        type: "user",
        parent_tool_use_id: null,
        session_id: SESSION_ID,
        uuid: "uuid-1",
        timestamp: "2025-01-02T03:04:05.000Z",
        ...expected,
      },
    ]);
  });
});

describe("toStreamJson: interrupts", () => {
  const abortedMidText: AgentEvent[] = [
    { type: "model_request_start", attempt: 1 },
    stream({ type: "message_start", messageId: "msg_X", model: "m", usage: USAGE }),
    stream({ type: "text_start", index: 0 }),
    stream({ type: "text_delta", index: 0, text: "I was say" }),
    { type: "model_response_aborted", partialBlock: { type: "text", text: "I was say" }, response: LIVE },
  ];

  it("marks the partial block of an aborted response", () => {
    const lines = translateAll(abortedMidText, false);

    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      type: "assistant",
      aborted: true,
      message: { id: "msg_X", content: [{ type: "text", text: "I was say" }], stop_reason: null },
    });
  });

  it("closes the open block and the message in partial mode", () => {
    const lines = translateAll(abortedMidText, true);

    expect(lines.map(shape).slice(-4)).toEqual([
      "assistant",
      "stream_event/content_block_stop",
      "stream_event/message_delta",
      "stream_event/message_stop",
    ]);
    expect(lines.at(-4)).toMatchObject({ aborted: true });
    expect(lines.at(-3)).toMatchObject({ event: { type: "content_block_stop", index: 0 }, api_message_id: "msg_X" });
    expect(lines.at(-2)).toMatchObject({
      event: { type: "message_delta", delta: { stop_reason: null, stop_sequence: null }, usage: { output_tokens: 0 } },
    });
  });

  it("emits nothing for an abort before the response started", () => {
    const lines = translateAll(
      [
        { type: "model_request_start", attempt: 1 },
        { type: "model_response_aborted", partialBlock: undefined, response: LIVE },
      ],
      true,
    );

    expect(lines.map(shape)).toEqual(["system/status"]);
  });

  it("does not close blocks that already ended", () => {
    const lines = translateAll(
      [
        { type: "model_request_start", attempt: 1 },
        stream({ type: "message_start", messageId: "msg_Y", model: "m", usage: USAGE }),
        stream({ type: "text_start", index: 0 }),
        stream({ type: "text_end", index: 0, text: "done" }),
        stream({ type: "tool_call_start", index: 1, id: "toolu_1", name: "Bash" }),
        { type: "model_response_aborted", partialBlock: undefined, response: LIVE },
      ],
      true,
    );

    const stops = lines.flatMap((line) => (line.type === "stream_event" && line.event.type === "content_block_stop" ? [line.event] : []));
    expect(stops).toEqual([
      { type: "content_block_stop", index: 0 },
      { type: "content_block_stop", index: 1 },
    ]);
    // No assistant line for the half-streamed tool call.
    expect(lines.filter((line) => line.type === "assistant")).toHaveLength(1);
  });

  it("writes the interrupt marker as a user text line", () => {
    const lines = translateAll([{ type: "user_notice", text: "[Request interrupted by user]" }], false);

    expect(lines).toEqual([
      {
        type: "user",
        message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user]" }] },
        parent_tool_use_id: null,
        session_id: SESSION_ID,
        uuid: "uuid-1",
        timestamp: "2025-01-02T03:04:05.000Z",
      },
    ]);
  });

  it("writes nothing for a committed message", () => {
    expect(translateAll([{ type: "message_committed", message: { role: "user", content: [{ type: "text", text: "hi" }] } }], true)).toEqual(
      [],
    );
  });
});

describe("toStreamJson over a real turn", () => {
  it("orders an interrupted response as protocol/README.md §5.7 promises", async () => {
    const controller = new AbortController();
    const provider = new FakeProvider([
      hangingTurn({
        before: [
          messageStart("msg_I"),
          ...toolCallBlock(0, { id: "toolu_1", name: "Bash", input: { command: "ls" } }),
          { type: "text_start", index: 1 },
          { type: "text_delta", index: 1, text: "and then" },
        ],
        onWaiting: () => controller.abort(),
      }),
    ]);
    const translation = createTranslation(true);

    await runTurn(
      [],
      { role: "user", content: [{ type: "text", text: "go" }] },
      {
        model: "m",
        system: "",
        maxTurns: undefined,
        maxOutputTokens: 100,
        thinkingBudgetTokens: undefined,
        sessionId: SESSION_ID,
        toolOffer: () => ({ tools: [], deferred: [] }),
      },
      {
        provider,
        retryPolicy: exponentialBackoff(0),
        emit: (event) => translation.translate(event),
        sleep: async () => {},
        onUsage: () => {},
        onApiTime: () => {},
        now: () => 0,
        runTool: async () => ({ content: "must not run", isError: false }),
        rejectMalformedCall: () => undefined,
        authorizeToolCall: async () => ({ allow: true }),
        isReadOnlyTool: () => false,
      },
      controller.signal,
    );

    const { lines } = translation;
    expect(lines.map(shape)).toEqual([
      "system/status",
      "stream_event/message_start",
      "stream_event/content_block_start",
      "stream_event/content_block_delta/input_json_delta",
      "assistant",
      "stream_event/content_block_stop",
      "stream_event/content_block_start",
      "stream_event/content_block_delta/text_delta",
      "assistant",
      "stream_event/content_block_stop",
      "stream_event/message_delta",
      "stream_event/message_stop",
      "user",
      "user",
    ]);
    expect(lines[8]).toMatchObject({ aborted: true, message: { content: [{ type: "text", text: "and then" }] } });
    expect(lines[12]).toMatchObject({
      message: { content: [{ type: "tool_result", tool_use_id: "toolu_1", is_error: true }] },
      tool_error_code: "aborted",
    });
    expect(lines[13]).toMatchObject({ message: { content: [{ type: "text", text: "[Request interrupted by user]" }] } });
    // Every tool_use on the wire has exactly one tool_result.
    const toolUses = lines.flatMap((line) =>
      line.type === "assistant" && line.message.content[0].type === "tool_use" ? [line.message.content[0].id] : [],
    );
    const toolResults = lines.flatMap((line) =>
      line.type === "user" && line.message.content[0].type === "tool_result" ? [line.message.content[0].tool_use_id] : [],
    );
    expect(toolResults).toEqual(toolUses);
  });
});

describe("toStreamJson: warnings and stop reasons from other vendors", () => {
  it("a provider's or the session's warning is one system/warning line", () => {
    const lines = translateAll(
      [
        stream({ type: "warning", code: "tools_unsupported", message: "text-only" }),
        { type: "warning", code: "unknown_model_price", message: "cost is 0" },
      ],
      false,
    );
    expect(lines).toEqual([
      { type: "system", subtype: "warning", code: "tools_unsupported", message: "text-only", session_id: SESSION_ID, uuid: "uuid-1" },
      { type: "system", subtype: "warning", code: "unknown_model_price", message: "cost is 0", session_id: SESSION_ID, uuid: "uuid-2" },
    ]);
  });

  it("message_delta carries the stop reason in Anthropic's vocabulary; an unmapped one stays raw", () => {
    const usage = { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
    const stopReasons = (["tool_use", "other"] as const).map((normalized) => {
      const lines = translateAll(
        [
          { type: "model_request_start", attempt: 1 },
          stream(messageStart()),
          stream({ type: "message_end", stopReason: { normalized, raw: "vendor_reason" }, usage }),
        ],
        true,
      );
      const delta = lines.find((line) => line.type === "stream_event" && line.event.type === "message_delta");
      return delta?.type === "stream_event" ? (delta.event.delta as { stop_reason: string }).stop_reason : undefined;
    });
    expect(stopReasons).toEqual(["tool_use", "vendor_reason"]);
  });
});
