import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { quoteUnreadableValues } from "../../src/text/frontmatter-repair.js";

const readsAlone = (entry: string): boolean => {
  try {
    parse(entry, { logLevel: "error" });
    return true;
  } catch {
    return false;
  }
};
const repair = (lines: string[]) => quoteUnreadableValues(lines.join("\n"), readsAlone);

describe("quoting unreadable frontmatter values", () => {
  it("quotes only the entries YAML cannot read alone, and keeps every other line as written", () => {
    const repaired = repair([
      "name: csv-clean",
      "description: Clean CSV files: fix encodings",
      "# a comment",
      "tags: [csv, data]",
      "user-invocable: false",
      "metadata:",
      "  author: someone",
    ]);
    expect(repaired).toEqual({
      keys: ["description"],
      text: [
        "name: csv-clean",
        'description: "Clean CSV files: fix encodings"',
        "# a comment",
        "tags: [csv, data]",
        "user-invocable: false",
        "metadata:",
        "  author: someone",
      ].join("\n"),
    });
    expect(parse(repaired!.text)).toEqual({
      name: "csv-clean",
      description: "Clean CSV files: fix encodings",
      tags: ["csv", "data"],
      "user-invocable": false,
      metadata: { author: "someone" },
    });
  });

  it("folds continuation lines as YAML folds a plain scalar, and escapes what needs escaping", () => {
    const repaired = repair(["description: First line: with a colon", "  second line", "", '  after a blank "quoted" \\ line', "name: x"]);
    expect(repaired?.keys).toEqual(["description"]);
    expect(parse(repaired!.text)).toEqual({
      description: 'First line: with a colon second line\nafter a blank "quoted" \\ line',
      name: "x",
    });
  });

  it("handles CRLF line ends", () => {
    const repaired = repair(["name: x\r", "description: a: b\r", "argument-hint: [a] [b]"]);
    expect(repaired?.keys).toEqual(["description", "argument-hint"]);
    expect(parse(repaired!.text)).toEqual({ name: "x", description: "a: b", "argument-hint": "[a] [b]" });
  });

  it("leaves alone what quoting could only guess at: block scalars, opened quotes, lines that are not entries", () => {
    expect(repair(["description: |", "  text: here"])).toBeUndefined();
    expect(repair(['description: "open: and never closed'])).toBeUndefined();
    expect(repair(["name: x", "<<<<<<< HEAD", "description: d"])).toBeUndefined();
    expect(repair(["name: x", "description: fine"])).toBeUndefined();
  });
});

describe("a hostile SKILL.md cannot stall the repair", () => {
  it("a value with a long run of blanks inside is read in linear time, its trailing blanks still dropped", () => {
    const line = `description: a: b${" ".repeat(200_000)}c \t `;
    const started = performance.now();
    const repaired = quoteUnreadableValues(line, () => false);
    // Quadratic matching took minutes here; linear takes milliseconds.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(repaired?.text).toBe(`description: ${JSON.stringify(`a: b${" ".repeat(200_000)}c`)}`);
  });
});
