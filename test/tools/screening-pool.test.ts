import fs from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { literalBytes, screenFile } from "../../src/tools/search/file-screen.js";
import { ScreeningPool, screenChunk } from "../../src/tools/search/screening-pool.js";
import type { ScreenChunk } from "../../src/tools/search/screening-pool.js";
import { writeTree } from "../helpers/file-tree.js";

let directory: string;

beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-pool-")));
  await writeTree(directory, {
    "match.txt": "one\nthe NEEDLE line\n",
    "other.txt": "nothing to see\n",
    "binary.bin": Buffer.from("NEEDLE\0"),
    "large.txt": `NEEDLE ${"x".repeat(2000)}`,
    "lower.txt": "a needle in lower case\n",
  });
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const names = ["match.txt", "other.txt", "binary.bin", "large.txt", "missing.txt", "lower.txt"];
const chunk = (overrides: Partial<ScreenChunk>): ScreenChunk => ({
  paths: names.map((name) => path.join(directory, name)).join("\0"),
  screen: { literal: undefined, maxBytes: 1024, binaryProbeBytes: 8192 },
  regex: undefined,
  ...overrides,
});
const summary = (reply: { candidates: { index: number; bytes: Uint8Array }[]; large: number[] }) => ({
  candidates: reply.candidates.map(({ index, bytes }) => `${names[index]}:${Buffer.from(bytes).toString().length}`),
  large: reply.large.map((index) => names[index]),
});

describe("screenChunk()", () => {
  it("keeps text files with the literal, says which are large, drops binary, unreadable and non-matching files", () => {
    const reply = screenChunk(
      chunk({ screen: { literal: literalBytes("NEEDLE", false), maxBytes: 1024, binaryProbeBytes: 8192 } }),
      Buffer.alloc(1025),
      fs,
      screenFile,
    );
    expect(summary(reply)).toEqual({ candidates: ["match.txt:20"], large: ["large.txt"] });
  });

  it("tests the decoded text with the regex, flags included", () => {
    const reply = screenChunk(chunk({ regex: { source: "needle", flags: "im" } }), Buffer.alloc(1025), fs, screenFile);
    expect(summary(reply)).toEqual({ candidates: ["match.txt:20", "lower.txt:23"], large: ["large.txt"] });
  });
});

describe("ScreeningPool", () => {
  it("gives a worker's answer, the same as screenChunk on this thread", async () => {
    const pool = ScreeningPool.shared();
    expect(pool.size).toBeGreaterThan(0);
    const request = chunk({ regex: { source: "needle", flags: "im" } });
    const [fromWorker, again] = await Promise.all([pool.screen(request), pool.screen(request)]);
    const local = summary(screenChunk(request, Buffer.alloc(1025), fs, screenFile));
    expect(summary(fromWorker)).toEqual(local);
    expect(summary(again)).toEqual(local);
  });
});
