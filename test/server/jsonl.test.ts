import { Readable, Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readLines, type LineEvent } from "../../protocol/lines.js";
import { createLineWriter } from "../../src/server/jsonl.js";

/** Feeds `chunks` (strings or raw bytes) to `readLines` and collects every event. */
async function collect(chunks: Array<string | Buffer>, maxLineBytes?: number): Promise<LineEvent[]> {
  const events: LineEvent[] = [];
  const input = Readable.from(chunks.map((chunk) => (typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk)));
  for await (const event of readLines(input, maxLineBytes)) events.push(event);
  return events;
}

const line = (text: string, number: number): LineEvent => ({ kind: "line", text, number });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("readLines", () => {
  it.each<{ name: string; chunks: string[]; expected: LineEvent[] }>([
    { name: "splits on LF", chunks: ['{"a":1}\n{"b":2}\n'], expected: [line('{"a":1}', 1), line('{"b":2}', 2)] },
    {
      name: "joins a line split across chunks",
      chunks: ['{"a":', "1}\n{", '"b":2}\n'],
      expected: [line('{"a":1}', 1), line('{"b":2}', 2)],
    },
    { name: "strips the CR of CRLF", chunks: ["one\r\ntwo\r\n"], expected: [line("one", 1), line("two", 2)] },
    { name: "strips a CR whose LF comes in the next chunk", chunks: ["one\r", "\ntwo\n"], expected: [line("one", 1), line("two", 2)] },
    { name: "keeps a CR inside a line", chunks: ["a\rb\n"], expected: [line("a\rb", 1)] },
    {
      name: "skips blank and whitespace-only lines but counts them",
      chunks: ["first\n\n   \n\t\r\n\r\nlast\n"],
      expected: [line("first", 1), line("last", 6)],
    },
    { name: "delivers a final line without LF", chunks: ["a\n", "b"], expected: [line("a", 1), line("b", 2)] },
    { name: "delivers nothing for empty input", chunks: [], expected: [] },
  ])("$name", async ({ chunks, expected }) => {
    expect(await collect(chunks)).toEqual(expected);
  });

  it("does not split on U+2028 / U+2029 inside JSON strings", async () => {
    const value = { text: "before\u2028middle\u2029after\u0085end" };
    const serialized = JSON.stringify(value);
    expect(serialized).toContain("\u2028");

    const events = await collect([`${serialized}\n`, `{"next":true}\n`]);

    expect(events).toEqual([line(serialized, 1), line('{"next":true}', 2)]);
    expect(JSON.parse((events[0] as { text: string }).text)).toEqual(value);
  });

  it("decodes a multi-byte character split across chunks", async () => {
    const bytes = Buffer.from('{"t":"é€😀"}\n', "utf8");
    const euro = bytes.indexOf(0xe2);
    const emoji = bytes.indexOf(0xf0);
    const chunks = [
      bytes.subarray(0, euro + 1),
      bytes.subarray(euro + 1, emoji + 2),
      bytes.subarray(emoji + 2, emoji + 3),
      bytes.subarray(emoji + 3),
    ];

    expect(await collect(chunks)).toEqual([line('{"t":"é€😀"}', 1)]);
  });

  it("reports an oversized line by number without buffering it, then carries on", async () => {
    const concatenatedLengths: number[] = [];
    const concat = Buffer.concat.bind(Buffer);
    vi.spyOn(Buffer, "concat").mockImplementation((list, totalLength) => {
      const result = concat(list, totalLength);
      concatenatedLengths.push(result.length);
      return result;
    });
    const huge = "x".repeat(100);

    const events = await collect(["ok\n", huge.slice(0, 30), huge.slice(30, 70), `${huge.slice(70)}\n`, "next\n"], 16);

    expect(events).toEqual([line("ok", 1), { kind: "too_long", number: 2, bytes: 100 }, line("next", 3)]);
    expect(Math.max(...concatenatedLengths)).toBeLessThanOrEqual(16);
  });

  it("accepts a line of exactly the limit and rejects one byte more", async () => {
    const events = await collect(["12345678\n123456789\n", "€€\n", "€€€\n"], 8);

    expect(events).toEqual([
      line("12345678", 1),
      { kind: "too_long", number: 2, bytes: 9 },
      line("€€", 3),
      { kind: "too_long", number: 4, bytes: 9 },
    ]);
  });

  it("reports an oversized final line without LF", async () => {
    expect(await collect(["ok\n", "y".repeat(20)], 8)).toEqual([line("ok", 1), { kind: "too_long", number: 2, bytes: 20 }]);
  });

  it("accepts string chunks", async () => {
    const input = new Readable({ read() {} });
    input.setEncoding("utf8");
    input.push("héllo\nwörld\n");
    input.push(null);
    const events: LineEvent[] = [];
    for await (const event of readLines(input)) events.push(event);

    expect(events).toEqual([line("héllo", 1), line("wörld", 2)]);
  });
});

describe("createLineWriter", () => {
  function sink(): { output: Writable; writes: string[] } {
    const writes: string[] = [];
    const output = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        writes.push(chunk.toString("utf8"));
        callback();
      },
    });
    return { output, writes };
  }

  it("writes one JSON line per value", () => {
    const { output, writes } = sink();
    const write = createLineWriter(output);

    write({ type: "system", subtype: "status", text: "multi\nline\u2028text" });
    write([1, 2]);

    expect(writes).toEqual(['{"type":"system","subtype":"status","text":"multi\\nline\u2028text"}\n', "[1,2]\n"]);
  });

  it("round-trips through readLines", async () => {
    const { output, writes } = sink();
    const write = createLineWriter(output);
    const values = [{ a: "x\u2029y" }, { b: "ü\r\n" }, { c: null }];
    values.forEach(write);

    const events = await collect(writes);

    expect(events.map((event) => (event.kind === "line" ? JSON.parse(event.text) : event))).toEqual(values);
  });

  it("reports a value that cannot be serialized instead of throwing", () => {
    const { output, writes } = sink();
    const circular: Record<string, unknown> = { type: "assistant" };
    circular.self = circular;

    createLineWriter(output)(circular);

    expect(writes).toHaveLength(1);
    expect(writes[0]!.endsWith("\n")).toBe(true);
    expect(JSON.parse(writes[0]!)).toMatchObject({ type: "system", subtype: "output_error" });
  });

  // JSON.stringify returns undefined (it does not throw) for undefined, functions and symbols,
  // so the writer emits the text "undefined", which is not JSON.
  it("never writes a line that is not JSON", () => {
    const { output, writes } = sink();

    createLineWriter(output)(undefined);

    expect(() => JSON.parse(writes[0]!)).not.toThrow();
  });
});
