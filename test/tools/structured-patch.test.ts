import { describe, expect, it } from "vitest";
import { structuredPatch } from "../../src/tools/edit/structured-patch.js";

describe("structuredPatch", () => {
  it("gives no hunks for identical texts", async () => {
    expect(await structuredPatch("a\n", "a\n")).toEqual([]);
  });

  it("keeps three context lines and merges nearby changes into one hunk", async () => {
    const before = `${Array.from({ length: 20 }, (_, index) => `line ${index + 1}`).join("\n")}\n`;
    const after = before.replace("line 5\n", "line five\n").replace("line 9\n", "line nine\n").replace("line 19\n", "");
    const hunks = await structuredPatch(before, after);
    expect(hunks).toEqual([
      {
        oldStart: 2,
        oldLines: 11,
        newStart: 2,
        newLines: 11,
        lines: [
          " line 2",
          " line 3",
          " line 4",
          "-line 5",
          "+line five",
          " line 6",
          " line 7",
          " line 8",
          "-line 9",
          "+line nine",
          " line 10",
          " line 11",
          " line 12",
        ],
      },
      { oldStart: 16, oldLines: 5, newStart: 16, newLines: 4, lines: [" line 16", " line 17", " line 18", "-line 19", " line 20"] },
    ]);
  });

  it("marks a last line without a newline; an insertion into an empty file starts at 1, as the diff package (Claude Code's) has it", async () => {
    expect(await structuredPatch("a\nb", "a\nc")).toEqual([
      {
        oldStart: 1,
        oldLines: 2,
        newStart: 1,
        newLines: 2,
        lines: [" a", "-b", "\\ No newline at end of file", "+c", "\\ No newline at end of file"],
      },
    ]);
    expect(await structuredPatch("", "x\n")).toEqual([{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 1, lines: ["+x"] }]);
  });
});

describe("structuredPatch on texts too different to diff in time", () => {
  it("still returns a correct patch: every old line out, every new line in", async () => {
    // 40,000 unique lines on each side with nothing in common: Myers' diff is quadratic here.
    const before = `${Array.from({ length: 40_000 }, (_, index) => `old ${index} ${Math.sin(index)}`).join("\n")}\n`;
    const after = `${Array.from({ length: 40_000 }, (_, index) => `new ${index} ${Math.cos(index)}`).join("\n")}\n`;
    const hunks = await structuredPatch(before, after);
    const removed = hunks.flatMap((hunk) => hunk.lines.filter((line) => line.startsWith("-")));
    const added = hunks.flatMap((hunk) => hunk.lines.filter((line) => line.startsWith("+")));
    expect([removed.length, added.length]).toEqual([40_000, 40_000]);
  }, 30_000);
});
