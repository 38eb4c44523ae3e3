import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { ChatStreamTranslator } from "../../src/providers/openai-chat-stream.js";
import type { ProviderEvent } from "../../src/providers/types.js";
import { shape, terminal } from "./provider-harness.js";

// Raw Chat Completions chunks the replay server does not produce (servers in the wild do),
// straight through the translator.

function chunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
  extra: Record<string, unknown> = {},
): ChatCompletionChunk {
  return {
    id: "c1",
    object: "chat.completion.chunk",
    created: 0,
    model: "local",
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    ...extra,
  } as ChatCompletionChunk;
}

function translate(chunks: ChatCompletionChunk[], parseTextToolCalls = true): ProviderEvent[] {
  let ids = 0;
  const translator = new ChatStreamTranslator({
    requestedModel: "asked",
    requestId: undefined,
    toolNames: new Set(["Read"]),
    parseTextToolCalls,
    newCallId: () => `call_${++ids}`,
  });
  return [...chunks.flatMap((each) => [...translator.translate(each)]), ...translator.finish()];
}

describe("Chat Completions chunks from servers in the wild", () => {
  it("a call cut off by the length limit is dropped; the response ends with max_tokens", () => {
    const events = translate([
      chunk({ tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "Read", arguments: '{"file_path":"x"}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: "b", type: "function", function: { name: "Read", arguments: '{"file_pa' } }] }),
      chunk({}, "length"),
    ]);
    expect(events.filter((event) => event.type === "tool_call_end").map((event) => (event as { id: string }).id)).toEqual(["a"]);
    expect(terminal(events)).toMatchObject({ type: "message_end", stopReason: { normalized: "max_tokens", raw: "length" } });
  });

  it("broken arguments without a length limit are a retryable error, never a call", () => {
    const events = translate([
      chunk({ tool_calls: [{ index: 0, id: "a", function: { name: "Read", arguments: "{oops" } }] }),
      chunk({}, "tool_calls"),
    ]);
    expect(events.some((event) => event.type === "tool_call_end")).toBe(false);
    expect(terminal(events)).toMatchObject({ type: "error", kind: "unknown", retryable: true });
  });

  it("calls without index, arguments as an object, 'stop' with calls: normalized to tool_use", () => {
    const events = translate([
      chunk({ tool_calls: [{ id: "a", function: { name: "Read", arguments: { file_path: "x" } } }] }),
      chunk({}, "stop"),
    ]);
    expect(events.find((event) => event.type === "tool_call_end")).toMatchObject({ id: "a", input: { file_path: "x" } });
    expect(terminal(events)).toMatchObject({ stopReason: { normalized: "tool_use", raw: "stop" } });
  });

  it("whitespace before the calls is no block; text after a streaming call comes after it", () => {
    const events = translate([
      chunk({ content: "\n\n" }),
      chunk({ tool_calls: [{ index: 0, id: "a", function: { name: "Read", arguments: '{"file_path":' } }] }),
      chunk({ content: "Done." }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }),
      chunk({}, "tool_calls"),
    ]);
    expect(shape(events)).toEqual([
      "message_start",
      "tool_call_start",
      "tool_call_delta",
      "tool_call_end",
      "text_start",
      "text_delta",
      "text_end",
      "message_end",
    ]);
    expect(events.find((event) => event.type === "text_end")).toMatchObject({ index: 1, text: "Done." });
  });

  it("Ollama's `reasoning` field is thinking; a missing id or model falls back", () => {
    const events = translate([chunk({ reasoning: "hmm" }, null, { id: "", model: "" }), chunk({ content: "ok" }), chunk({}, "stop")]);
    expect(events[0]).toMatchObject({ type: "message_start", model: "asked", messageId: expect.stringMatching(/^chatcmpl-/) });
    expect(shape(events)).toEqual([
      "message_start",
      "thinking_start",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_end",
      "message_end",
    ]);
  });

  it("a stream that ends without a finish reason is a retryable disconnect", () => {
    expect(terminal(translate([chunk({ content: "partial" })]))).toMatchObject({ type: "error", kind: "disconnect", retryable: true });
    expect(terminal(translate([]))).toMatchObject({ type: "error", kind: "disconnect" });
  });
});
