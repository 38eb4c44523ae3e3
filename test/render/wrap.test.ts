import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { wrapText } from "../../src/render/wrap.js";

describe("word wrapping in terminal columns", () => {
  it("wraps plain words with a hanging indent", () => {
    expect(wrapText("one two three four five six", 14, "- ", "  ")).toEqual(["- one two", "  three four", "  five six"]);
  });

  it("counts a CJK character as two columns", () => {
    // Six characters are 12 columns: two such words do not share a 20-column line.
    const lines = wrapText("日本語の文章 日本語の文章 終わり", 20);
    expect(lines).toEqual(["日本語の文章", "日本語の文章 終わり"]);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(20);
  });

  it("counts an emoji as two columns, and a joined emoji as one character", () => {
    const family = "👨‍👩‍👧"; // three people joined into one picture: 8 UTF-16 units, 2 columns
    expect(wrapText(`${family} ${family} ${family}`, 10)).toEqual([`${family} ${family} ${family}`]);
    expect(wrapText("🎉🎉🎉🎉 🎉🎉🎉🎉", 12)).toEqual(["🎉🎉🎉🎉", "🎉🎉🎉🎉"]);
  });

  it("cuts a word wider than a line at a column, never inside a character", () => {
    const lines = wrapText("字".repeat(15), 10);
    expect(lines).toEqual(["字".repeat(5), "字".repeat(5), "字".repeat(5)]);
    const emoji = wrapText("🙂".repeat(7), 10);
    expect(emoji).toEqual(["🙂".repeat(5), "🙂🙂"]);
    expect(wrapText("x".repeat(25), 10)).toEqual(["x".repeat(10), "x".repeat(10), "x".repeat(5)]);
  });
});
