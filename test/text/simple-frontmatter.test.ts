import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { parseSimpleFrontmatter } from "../../src/text/simple-frontmatter.js";
import { splitFrontmatter } from "../../src/text/frontmatter.js";
import { ROOT } from "../helpers/agentwire.js";

/** Values that are plain text, and values YAML reads as something else or that need its parser. */
const VALUES = [
  "Safe, exact git recipes for committing — and more.",
  "Bash(git status:*) Bash(git diff:*) Read",
  "C# and F# projects",
  "it's fine",
  "a value with trailing spaces   ",
  ".hidden files",
  "+",
  "yes",
  "off",
  "true",
  "false",
  "True",
  "FALSE",
  "null",
  "~",
  "12",
  "3 steps",
  "0x1F",
  "1e3",
  ".5",
  ".inf",
  "-.inf",
  "- a list item",
  "[a, b]",
  "{a: 1}",
  '"quoted"',
  "'single'",
  "|",
  ">",
  "&anchor value",
  "*alias",
  "!tag value",
  "%directive",
  "@reserved",
  "`reserved`",
  "key: inside",
  "a comment # here",
  "ends with colon:",
  "?question",
  ":colon",
  "tab\there",
  "#comment",
  '"double quoted: with # and colon"',
  '"true"',
  '"with \\n escape"',
  '"with \\" quote"',
  '"  padded  "',
  '""',
  "'single: quoted'",
  "'it''s'",
  "''",
  '"unterminated',
  '"a" # trailing comment',
  "no-break space at the end\u00a0",
  "true\u3000",
  '"quoted"\u00a0',
  "'quoted'\ufeff",
  "ends with vertical tab\u000b",
];
const KEYS = ["name", "description", "when_to_use", "allowed-tools", "null", "True", "x_1", "__proto__"];

describe("simple SKILL.md frontmatter", () => {
  it("reads what it accepts exactly as YAML does, and declines everything else", () => {
    let accepted = 0;
    for (const key of KEYS) {
      for (const value of VALUES) {
        for (const text of [`${key}: ${value}`, `name: demo\n${key}: ${value}`, `${key}: ${value}\n${key}: ${value}`]) {
          const simple = parseSimpleFrontmatter(text);
          if (simple === undefined) continue;
          accepted++;
          expect(simple, text).toEqual(parse(text));
        }
      }
    }
    // Both sides were exercised: plain text read directly, the rest declined.
    expect(accepted).toBeGreaterThan(50);
    expect(parseSimpleFrontmatter("name: demo\ndescription: \"Reads: a file\"\nwhen_to_use: 'often'")).toEqual({
      name: "demo",
      description: "Reads: a file",
      when_to_use: "often",
    });
    // A key YAML refuses for its length (found by a fuzzer), and values whose trailing non-space whitespace YAML keeps.
    expect(parseSimpleFrontmatter(`${"k".repeat(1025)}: v`)).toBeUndefined();
    expect(parseSimpleFrontmatter("name: abc\u00a0")).toEqual(parse("name: abc\u00a0"));
    for (const declined of [
      "name: 12",
      "name: null",
      "name: [a]",
      "name: a: b",
      "name: a\nname: b",
      "name: a\n  continued",
      "- item",
      "# comment\nname: a",
      "name: a # note",
      "__proto__: x",
      "True: x",
    ]) {
      expect(parseSimpleFrontmatter(declined), declined).toBeUndefined();
    }
  });

  it("reads the bundled skills without the YAML parser, as YAML would", () => {
    const folders = readdirSync(join(ROOT, "skills"));
    expect(folders.length).toBeGreaterThan(2);
    for (const folder of folders) {
      const { frontmatter } = splitFrontmatter(readFileSync(join(ROOT, "skills", folder, "SKILL.md"), "utf8"));
      expect(parseSimpleFrontmatter(frontmatter!), folder).toEqual(parse(frontmatter!));
    }
  });
});

describe("the fast path against YAML on real skills", () => {
  it("reads every SKILL.md from public collections as YAML does, or defers to YAML", () => {
    const directory = join(ROOT, "fixtures", "skills-in-the-wild");
    const files = readdirSync(directory, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith("SKILL.md"));
    expect(files.length).toBeGreaterThan(30);
    let accepted = 0;
    for (const file of files) {
      const { frontmatter } = splitFrontmatter(readFileSync(join(directory, file), "utf8"));
      if (frontmatter === undefined) continue;
      const simple = parseSimpleFrontmatter(frontmatter);
      if (simple === undefined) continue;
      accepted++;
      expect(simple, file).toEqual(parse(frontmatter));
    }
    // Both ways taken: many read directly, the others left to YAML (several are not valid YAML at all).
    expect(accepted).toBeGreaterThan(10);
    expect(accepted).toBeLessThan(files.length);
  });
});

describe("a hostile SKILL.md cannot stall the fast path", () => {
  it("a value with a long run of spaces inside is read in linear time", () => {
    const started = performance.now();
    const fields = parseSimpleFrontmatter(`description: a${" ".repeat(200_000)}b  `);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(fields).toEqual({ description: `a${" ".repeat(200_000)}b` });
  });
});
