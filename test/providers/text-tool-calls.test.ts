import { describe, expect, it } from "vitest";
import { parseJsonToolCalls, parseTaggedToolCalls, TextToolCallScanner } from "../../src/providers/text-tool-calls.js";

const tools = new Set(["Read", "Write"]);

/** Streams `text` in pieces of `size` characters; returns what was shown and what finish() gave. */
function scan(text: string, size = 3) {
  const scanner = new TextToolCallScanner(tools);
  let shown = "";
  for (let start = 0; start < text.length; start += size) shown += scanner.push(text.slice(start, start + size));
  return { shown, ...scanner.finish() };
}

describe("tool calls printed as text", () => {
  it("a whole message that is one JSON call becomes the call, and nothing is shown", () => {
    expect(scan('  {"name": "Read", "arguments": {"file_path": "a.txt"}}')).toEqual({
      shown: "",
      text: "",
      calls: [{ name: "Read", input: { file_path: "a.txt" } }],
    });
  });

  it("Llama's `parameters`, string-encoded arguments and arrays of calls are accepted", () => {
    expect(parseJsonToolCalls('{"name":"Read","parameters":{"file_path":"a"}}', tools)).toEqual([
      { name: "Read", input: { file_path: "a" } },
    ]);
    expect(parseJsonToolCalls('{"name":"Read","arguments":"{\\"file_path\\":\\"a\\"}"}', tools)).toEqual([
      { name: "Read", input: { file_path: "a" } },
    ]);
    expect(parseJsonToolCalls('[{"name":"Read","arguments":{}},{"name":"Write","arguments":{"content":"x"}}]', tools)).toHaveLength(2);
  });

  it("JSON that is not exactly a call to a known tool stays text", () => {
    expect(scan('{"name": "Delete", "arguments": {}}')).toMatchObject({ text: '{"name": "Delete", "arguments": {}}', calls: [] });
    expect(scan('{"answer": 42}')).toMatchObject({ text: '{"answer": 42}', calls: [] });
    expect(parseJsonToolCalls('{"name":"Read","arguments":[1]}', tools)).toBeUndefined();
    expect(parseJsonToolCalls("[]", tools)).toBeUndefined();
  });

  it("a JSON call cut off by the length limit stays text and never runs", () => {
    expect(scan('{"name": "Write", "arguments": {"file_path": "a", "content": "unfini')).toMatchObject({
      calls: [],
      text: '{"name": "Write", "arguments": {"file_path": "a", "content": "unfini',
    });
  });

  it("prose streams live; complete <tool_call> tags become calls", () => {
    const message =
      'I will read it.\n<tool_call>\n{"name": "Read", "arguments": {"file_path": "a.txt"}}\n</tool_call>\n<tool_call>{"name":"Write","arguments":{"content":"x"}}</tool_call>';
    const result = scan(message);
    expect(result.shown).toBe("I will read it.\n");
    expect(result.calls).toEqual([
      { name: "Read", input: { file_path: "a.txt" } },
      { name: "Write", input: { content: "x" } },
    ]);
    expect(result.text).toBe("");
  });

  it("a tag cut off mid-call, or naming an unknown tool, leaves everything as text", () => {
    const cut = 'Reading.<tool_call>{"name": "Read", "arguments": {"file_path": "a.txt"}}';
    expect(scan(cut)).toEqual({ shown: "Reading.", text: '<tool_call>{"name": "Read", "arguments": {"file_path": "a.txt"}}', calls: [] });
    expect(parseTaggedToolCalls('<tool_call>{"name":"Nope","arguments":{}}</tool_call>', tools)).toBeUndefined();
    expect(parseTaggedToolCalls('<tool_call>{"name":"Read","arguments":{}}</tool_call><tool_call>{"name":"Read"', tools)).toBeUndefined();
  });

  it("plain text streams through whole; a '<' that is not a tag is released once it cannot be one", () => {
    const result = scan("a < b and <tool_ is not a tag", 4);
    expect(result.shown + result.text).toBe("a < b and <tool_ is not a tag");
    expect(result.calls).toEqual([]);
  });
});
