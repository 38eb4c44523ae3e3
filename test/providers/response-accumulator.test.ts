import { describe, expect, it } from "vitest";
import { ResponseAccumulator } from "../../src/providers/response-accumulator.js";
import { mergeUsage, type ProviderEvent } from "../../src/providers/types.js";

const start = (usage = { inputTokens: 100, outputTokens: 1, cacheReadInputTokens: 20, cacheCreationInputTokens: 5 }): ProviderEvent => ({
  type: "message_start",
  messageId: "msg_1",
  model: "m",
  usage,
  requestId: "req_1",
});

describe("mergeUsage: the one rule for a response's usage reports", () => {
  const current = { inputTokens: 100, outputTokens: 1, cacheReadInputTokens: 20, cacheCreationInputTokens: 5 };

  it("replaces the counts an update carries, keeping an explicit 0", () => {
    expect(mergeUsage(current, { outputTokens: 42, cacheReadInputTokens: 0 })).toEqual({
      inputTokens: 100,
      outputTokens: 42,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 5,
    });
  });

  it("keeps the counts an update omits (proxies send only output_tokens at the end)", () => {
    expect(mergeUsage(current, {})).toEqual(current);
    expect(mergeUsage(current, { inputTokens: 0, outputTokens: 0 })).toMatchObject({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadInputTokens: 20,
    });
  });

  it("never adds: totals are cumulative", () => {
    expect(mergeUsage(mergeUsage(current, { outputTokens: 10 }), { outputTokens: 12 }).outputTokens).toBe(12);
  });
});

describe("ResponseAccumulator", () => {
  it("assembles blocks from deltas while they are open and keeps completed blocks in stream order", () => {
    const response = new ResponseAccumulator();
    const events: ProviderEvent[] = [
      start(),
      { type: "thinking_start", index: 0 },
      { type: "thinking_delta", index: 0, thinking: "hmm" },
      { type: "signature_delta", index: 0, signature: "sig" },
      { type: "tool_call_start", index: 1, id: "call_1", name: "Read" },
      { type: "tool_call_delta", index: 1, partialJson: '{"file_path":' },
      { type: "tool_call_delta", index: 1, partialJson: '"a.txt"}' },
    ];
    for (const event of events) response.apply(event);
    expect(response.openBlock(0)).toMatchObject({ kind: "thinking", text: "hmm", signature: "sig" });
    expect(response.openBlock(1)).toMatchObject({ kind: "tool_call", id: "call_1", name: "Read", partialJson: '{"file_path":"a.txt"}' });
    expect(response.openIndices()).toEqual([0, 1]);
    response.apply({ type: "tool_call_end", index: 1, id: "call_1", name: "Read", input: { file_path: "a.txt" } });
    response.apply({ type: "thinking_end", index: 0, thinking: "hmm", signature: "sig" });
    expect(response.openIndices()).toEqual([]);
    expect(response.blocks()).toEqual([
      { type: "thinking", thinking: "hmm", signature: "sig" },
      { type: "tool_use", id: "call_1", name: "Read", input: { file_path: "a.txt" } },
    ]);
    expect(response).toMatchObject({ messageId: "msg_1", model: "m", requestId: "req_1" });
  });

  it("merges the end usage into the start usage with the one rule, and remembers the start", () => {
    const response = new ResponseAccumulator();
    response.apply(start());
    response.apply({ type: "message_end", stopReason: { normalized: "end_turn", raw: "end_turn" }, usage: { outputTokens: 0 } });
    // The explicit 0 is kept (the old `||` rule replaced it with the start's 1).
    expect(response.usage).toMatchObject({ inputTokens: 100, outputTokens: 0, cacheReadInputTokens: 20 });
    expect(response.startUsage.outputTokens).toBe(1);
    expect(response.stopReason).toEqual({ normalized: "end_turn", raw: "end_turn" });
  });

  it("keeps only streamed text as the partial block of an interrupted response", () => {
    const text = new ResponseAccumulator();
    for (const event of [
      start(),
      { type: "text_start", index: 0 },
      { type: "text_delta", index: 0, text: "I was" },
    ] satisfies ProviderEvent[])
      text.apply(event);
    expect(text.partialBlock()).toEqual({ type: "text", text: "I was" });
    const tool = new ResponseAccumulator();
    for (const event of [
      start(),
      { type: "tool_call_start", index: 0, id: "c", name: "Bash" },
      { type: "tool_call_delta", index: 0, partialJson: '{"comm' },
    ] satisfies ProviderEvent[])
      tool.apply(event);
    expect(tool.partialBlock()).toBeUndefined();
  });
});
