import fs from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { literalBytes, screenFile } from "../../src/tools/search/file-screen.js";
import type { FileScreen } from "../../src/tools/search/file-screen.js";
import { writeTree } from "../helpers/file-tree.js";

let directory: string;

beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-screen-")));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("literalBytes()", () => {
  it("is the UTF-8 of a plain, case-sensitive pattern", () => {
    expect(Buffer.from(literalBytes("NEEDLE_TOKEN here", false)!).toString()).toBe("NEEDLE_TOKEN here");
    expect(Buffer.from(literalBytes("naïve – 日本", false)!).toString()).toBe("naïve – 日本");
  });

  it("is undefined for regex syntax, case-insensitive search, an empty pattern and U+FFFD", () => {
    for (const pattern of ["a.b", "a\\sb", "^a", "a$", "a*", "a+", "a?", "(a)", "[a]", "a{2}", "a|b", "a]", "a}"])
      expect(literalBytes(pattern, false)).toBeUndefined();
    expect(literalBytes("plain", true)).toBeUndefined();
    expect(literalBytes("", false)).toBeUndefined();
    expect(literalBytes("bad \uFFFD char", false)).toBeUndefined();
  });
});

describe("screenFile()", () => {
  const screen = (overrides: Partial<FileScreen> = {}): FileScreen => ({
    literal: undefined,
    maxBytes: 1024,
    binaryProbeBytes: 16,
    ...overrides,
  });
  const buffer = Buffer.alloc(1025);
  const run = (name: string, overrides?: Partial<FileScreen>) => {
    const result = screenFile(path.join(directory, name), screen(overrides), buffer, fs);
    return typeof result === "object" ? result.toString() : result;
  };

  it("returns the bytes of a text file, and drops a binary one (NUL within the probe)", async () => {
    await writeTree(directory, {
      "text.txt": "hello\nworld\n",
      "binary.bin": Buffer.from("ab\0cd"),
      "late-nul.txt": `${"x".repeat(20)}\0`,
    });
    expect(run("text.txt")).toBe("hello\nworld\n");
    expect(run("binary.bin")).toBeUndefined();
    expect(run("late-nul.txt")).toBe(`${"x".repeat(20)}\0`);
  });

  it("says large for a file over maxBytes, and reads one of exactly maxBytes", async () => {
    await writeTree(directory, { "big.txt": "y".repeat(1025), "edge.txt": "z".repeat(1024) });
    expect(run("big.txt")).toBe("large");
    expect(run("edge.txt")).toBe("z".repeat(1024));
  });

  it("drops a file without the literal's bytes, keeps one with them", async () => {
    await writeTree(directory, { "with.txt": "a NEEDLE here", "without.txt": "a needle here" });
    const literal = literalBytes("NEEDLE", false);
    expect(run("with.txt", { literal })).toBe("a NEEDLE here");
    expect(run("without.txt", { literal })).toBeUndefined();
  });

  it("never drops a file whose decoded text the literal's regex matches, invalid UTF-8 around it included", async () => {
    const contents = [
      Buffer.from("plain café text"),
      Buffer.concat([Buffer.from([0xe2, 0x80]), Buffer.from("café")]),
      Buffer.concat([Buffer.from("caf"), Buffer.from([0xc3]), Buffer.from("é")]),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("x café"), Buffer.from([0xc3])]),
      Buffer.from("cafe without accent"),
    ];
    await writeTree(directory, Object.fromEntries(contents.map((content, index) => [`f${index}.txt`, content])));
    const literal = literalBytes("café", false);
    for (const [index, content] of contents.entries()) {
      const regexMatches = /café/.test(content.toString("utf8"));
      expect(run(`f${index}.txt`, { literal }) !== undefined, `f${index}.txt`).toBe(regexMatches);
    }
  });

  it("throws for a file that cannot be read", () => {
    expect(() => screenFile(path.join(directory, "missing.txt"), screen(), buffer, fs)).toThrow();
  });
});
