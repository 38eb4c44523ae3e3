import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseShell } from "../../src/permissions/shell/shell-syntax.js";
import { charactersOfText, expandBraces, expandGlob, patternCharacters, textOf } from "../../src/permissions/shell/word-expansion.js";

const braces = (word: string) => expandBraces(patternCharacters(parseShell(`x ${word}`).commands[0]!.words[1]!))?.map(textOf);

describe("brace expansion as bash does it", () => {
  it.each([
    ["{a,b}", ["a", "b"]],
    ["x{a,b}y", ["xay", "xby"]],
    ["{a,{b,c}}d", ["ad", "bd", "cd"]],
    ["{1..3}", ["1", "2", "3"]],
    ["{3..1}", ["3", "2", "1"]],
    ["{a..c}", ["a", "b", "c"]],
    ["{0..10..5}", ["0", "5", "10"]],
    ["{a}", ["{a}"]],
    ["'{a,b}'", ["{a,b}"]],
    ['{"/etc/x",a}', ["/etc/x", "a"]],
    ["{,}", ["", ""]],
  ])("%s → %j", (word, expected) => {
    expect(braces(word)).toEqual(expected);
  });

  it("gives up (undefined) on more words than it will follow", () => {
    expect(braces("{1..100000}")).toBeUndefined();
    expect(braces("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}")).toBeUndefined();
  });
});

describe("expansion that errs toward more, for checks of what a command changes", () => {
  const base = mkdtempSync(path.join(os.tmpdir(), "agentwire-expansion-"));
  mkdirSync(path.join(base, "one"));
  mkdirSync(path.join(base, "two"));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("charactersOfText takes quoted characters as pattern characters too", () => {
    expect(expandBraces(charactersOfText("{a,b}"))?.map(textOf)).toEqual(["a", "b"]);
    expect(braces("'{a,b}'")).toEqual(["{a,b}"]);
  });

  it("keepMissing keeps a fixed component after a wildcard that does not exist yet", () => {
    const pattern = charactersOfText(`${base}/*/new.txt`);
    expect(expandGlob(pattern, "/")?.matches).toEqual([]);
    expect(expandGlob(pattern, "/", { keepMissing: true })?.matches.sort()).toEqual([
      path.join(base, "one", "new.txt"),
      path.join(base, "two", "new.txt"),
    ]);
  });
});
