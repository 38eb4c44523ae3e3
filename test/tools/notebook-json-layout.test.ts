import { describe, expect, it } from "vitest";
import { elementSpans, findMember, lineIndent, memberSpans, valueSpan } from "../../src/tools/notebook/json-layout.js";

describe("finding values in JSON text", () => {
  it("is not fooled by brackets, quotes and backslashes inside strings", () => {
    const text = String.raw`{"a": ["x]\"}", "\\", {"b": "[{"}], "c": 1.0, "d": null}`;
    const members = memberSpans(text, valueSpan(text, 0));
    expect(members.map((member) => member.key)).toEqual(["a", "c", "d"]);
    const slice = (span: { start: number; end: number }) => text.slice(span.start, span.end);
    expect(slice(members[0]!.value)).toBe(String.raw`["x]\"}", "\\", {"b": "[{"}]`);
    expect(elementSpans(text, members[0]!.value).map(slice)).toEqual([String.raw`"x]\"}"`, String.raw`"\\"`, `{"b": "[{"}`]);
    // Numbers keep the file's form (1.0 is not rewritten as 1).
    expect(slice(members[1]!.value)).toBe("1.0");
  });

  it("takes the last of a repeated key, as JSON.parse does, and decodes escaped keys", () => {
    const text = '{"cells": [1], "\\u0063ells": [2, 3]}';
    const cells = findMember(memberSpans(text, valueSpan(text, 0)), "cells")!;
    expect(text.slice(cells.value.start, cells.value.end)).toBe("[2, 3]");
    expect(elementSpans(text, cells.value)).toHaveLength(2);
    expect(elementSpans("[ ]", valueSpan("[ ]", 0))).toEqual([]);
  });

  it("reads a line's indentation up to a position", () => {
    expect(lineIndent('{\n\t\t"a": 1\n}', 4)).toBe("\t\t");
    expect(lineIndent('{"a": 1}', 1)).toBe("");
  });
});
