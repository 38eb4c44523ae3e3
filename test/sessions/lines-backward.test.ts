import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readLinesBackward } from "../../src/sessions/lines-backward.js";

let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "agentwire-lines-"));
});

afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

function linesOf(text: string, chunkBytes: number): Array<[string, number]> {
  const file = join(directory, "f.jsonl");
  writeFileSync(file, text);
  const seen: Array<[string, number]> = [];
  readLinesBackward(
    file,
    (line, offset) => {
      seen.push([line.toString("utf8"), offset]);
      return true;
    },
    chunkBytes,
  );
  return seen.reverse();
}

/** What splitting the whole text gives, with each line's byte offset. */
function expected(text: string): Array<[string, number]> {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  if (text === "") return [];
  let offset = 0;
  return body.split("\n").map((line) => {
    const entry: [string, number] = [line, offset];
    offset += Buffer.byteLength(line) + 1;
    return entry;
  });
}

describe("readLinesBackward", () => {
  const texts = [
    "",
    "one",
    "one\n",
    "one\ntwo\nthree\n",
    "one\ntwo",
    "\n\nx\n\n",
    `héllo wörld ✓\n${"a".repeat(50)}\nb\n`,
    `${"x".repeat(37)}\n${"y".repeat(3)}`,
  ];
  for (const chunk of [1, 2, 3, 7, 16, 1 << 20]) {
    it(`yields every line with its offset, last first (chunks of ${chunk} bytes)`, () => {
      for (const text of texts) expect(linesOf(text, chunk), JSON.stringify(text)).toEqual(expected(text));
    });
  }

  it("stops reading when the visitor says so", () => {
    const file = join(directory, "f.jsonl");
    writeFileSync(file, "a\nb\nc\nd\n");
    const seen: string[] = [];
    readLinesBackward(
      file,
      (line) => {
        seen.push(line.toString());
        return seen.length < 2;
      },
      1,
    );
    expect(seen).toEqual(["d", "c"]);
  });
});
