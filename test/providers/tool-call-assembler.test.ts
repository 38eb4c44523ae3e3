import { describe, expect, it } from "vitest";
import { parseToolArguments, ToolCallAssembler, type ToolCallFragment } from "../../src/providers/tool-call-assembler.js";
import type { ProviderEvent } from "../../src/providers/types.js";

function assembler(): ToolCallAssembler {
  let blocks = 0;
  let ids = 0;
  return new ToolCallAssembler({ nextBlockIndex: () => blocks++, newCallId: () => `call_${++ids}` });
}

/** Feeds fragments in order, then finishes; returns every event and the dropped calls. */
function run(fragments: ToolCallFragment[]) {
  const calls = assembler();
  const events: ProviderEvent[] = fragments.flatMap((fragment) => calls.append(fragment));
  const finished = calls.finish();
  return { events: [...events, ...finished.events], dropped: finished.dropped };
}

function ends(events: ProviderEvent[]) {
  return events.flatMap((event) =>
    event.type === "tool_call_end" ? [{ index: event.index, id: event.id, name: event.name, input: event.input }] : [],
  );
}

describe("ToolCallAssembler", () => {
  it("streams one call live: start with id and name, argument deltas, end with the parsed input", () => {
    const calls = assembler();
    expect(calls.append({ key: 0, id: "call_a", name: "Read", argumentsDelta: "" })).toEqual([
      { type: "tool_call_start", index: 0, id: "call_a", name: "Read" },
    ]);
    expect(calls.append({ key: 0, argumentsDelta: '{"file_pa' })).toEqual([
      { type: "tool_call_delta", index: 0, partialJson: '{"file_pa' },
    ]);
    expect(calls.append({ key: 0, argumentsDelta: 'th":"a.txt"}' })).toEqual([
      { type: "tool_call_delta", index: 0, partialJson: 'th":"a.txt"}' },
    ]);
    expect(calls.streaming).toBe(true);
    expect(calls.finish()).toEqual({
      events: [{ type: "tool_call_end", index: 0, id: "call_a", name: "Read", input: { file_path: "a.txt" } }],
      dropped: [],
    });
    expect(calls.completedCount).toBe(1);
  });

  it("sequential calls: the first ends as soon as the second appears, blocks never overlap", () => {
    const calls = assembler();
    calls.append({ key: 0, id: "a", name: "Read", argumentsDelta: '{"file_path":"1"}' });
    const events = calls.append({ key: 1, id: "b", name: "Read", argumentsDelta: '{"file_path":"2"}' });
    expect(events.map((event) => event.type)).toEqual(["tool_call_end", "tool_call_start", "tool_call_delta"]);
    expect(ends([...events, ...calls.finish().events]).map((call) => call.id)).toEqual(["a", "b"]);
  });

  it("interleaved indices: pieces of a later call wait until the earlier one is complete", () => {
    const { events, dropped } = run([
      { key: 0, id: "a", name: "Read", argumentsDelta: '{"file_' },
      { key: 1, id: "b", name: "Write", argumentsDelta: '{"content":' },
      { key: 0, argumentsDelta: 'path":"x"}' },
      { key: 1, argumentsDelta: '"hi"}' },
    ]);
    expect(dropped).toEqual([]);
    expect(ends(events)).toEqual([
      { index: 0, id: "a", name: "Read", input: { file_path: "x" } },
      { index: 1, id: "b", name: "Write", input: { content: "hi" } },
    ]);
    // Every block is closed before the next one starts.
    const order = events
      .filter((event) => event.type !== "tool_call_delta")
      .map((event) => `${event.type}:${(event as { index: number }).index}`);
    expect(order).toEqual(["tool_call_start:0", "tool_call_end:0", "tool_call_start:1", "tool_call_end:1"]);
    // The deltas of each block add up to its arguments.
    const deltas = (index: number) =>
      events.flatMap((event) => (event.type === "tool_call_delta" && event.index === index ? [event.partialJson] : [])).join("");
    expect(deltas(1)).toBe('{"content":"hi"}');
  });

  it("missing ids are generated; id and name repeated on every piece are taken once", () => {
    const { events } = run([
      { key: 0, name: "Read", argumentsDelta: '{"file_path":' },
      { key: 0, name: "Read", argumentsDelta: '"a"}' },
      { key: 1, id: "given", name: "Read", argumentsDelta: "{}" },
      { key: 1, id: "given", name: "Read", argumentsDelta: "" },
    ]);
    expect(ends(events)).toEqual([
      { index: 0, id: "call_1", name: "Read", input: { file_path: "a" } },
      { index: 1, id: "given", name: "Read", input: {} },
    ]);
  });

  it("unterminated arguments (a call cut off by the length limit) never become a tool_call_end", () => {
    const { events, dropped } = run([
      { key: 0, id: "a", name: "Read", argumentsDelta: '{"file_path":"a"}' },
      { key: 1, id: "b", name: "Write", argumentsDelta: '{"file_path":"b","content":"trunc' },
    ]);
    expect(ends(events).map((call) => call.id)).toEqual(["a"]);
    expect(events.some((event) => event.type === "tool_call_start" && event.id === "b")).toBe(true);
    expect(dropped).toEqual([{ key: 1, name: "Write", reason: "incomplete_arguments" }]);
  });

  it("a call that never got a name is dropped with a reason, not started", () => {
    const { events, dropped } = run([{ key: 0, id: "a", argumentsDelta: "{}" }]);
    expect(events).toEqual([]);
    expect(dropped).toEqual([{ key: 0, name: undefined, reason: "missing_name" }]);
  });

  it("the API closing a call ends it at once; later pieces for it are ignored", () => {
    const calls = assembler();
    calls.append({ key: "fc_1", id: "a", name: "Read", argumentsDelta: '{"file_path":"x"}' });
    expect(calls.close("fc_1").map((event) => event.type)).toEqual(["tool_call_end"]);
    expect(calls.streaming).toBe(false);
    expect(calls.append({ key: "fc_1", argumentsDelta: "}" })).toEqual([]);
    expect(calls.finish().events).toEqual([]);
  });

  it("empty arguments mean no arguments only when nothing more can come", () => {
    const calls = assembler();
    calls.append({ key: 0, id: "a", name: "LS", argumentsDelta: "" });
    // A second call appeared while the first has no text yet: it may still be coming (interleaved).
    expect(calls.append({ key: 1, id: "b", name: "LS", argumentsDelta: "" }).map((event) => event.type)).toEqual([]);
    expect(ends(calls.finish().events)).toEqual([
      { index: 0, id: "a", name: "LS", input: {} },
      { index: 1, id: "b", name: "LS", input: {} },
    ]);
  });
});

describe("parseToolArguments", () => {
  it("accepts objects and empty text, unwraps a double-encoded object, rejects the rest", () => {
    expect(parseToolArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolArguments("  ")).toEqual({});
    expect(parseToolArguments(JSON.stringify('{"a":1}'))).toEqual({ a: 1 });
    expect(parseToolArguments('{"a":')).toBeUndefined();
    expect(parseToolArguments("[1]")).toBeUndefined();
    expect(parseToolArguments("null")).toBeUndefined();
  });
});
