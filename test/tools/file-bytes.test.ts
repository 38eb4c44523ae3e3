import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openRegularFile } from "../../src/tools/file-bytes.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "agentwire-file-bytes-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/**
 * Whether `read` settles within the microtasks of the current turn: a synchronous read has, a
 * thread-pool read cannot (its answer comes back through the event loop). Timing-free: racing
 * setImmediate instead would depend on how fast the pool answers.
 */
async function settlesWithoutTheEventLoop(read: Promise<number>): Promise<boolean> {
  let settled = false;
  const done = read.then(() => {
    settled = true;
  });
  for (let tick = 0; tick < 5; tick++) await Promise.resolve();
  const settledInTurn = settled;
  await done;
  return settledInTurn;
}

describe("openRegularFile()", () => {
  it("reads the start of a file without a thread-pool round trip, and further on through the pool", async () => {
    const size = 1024 * 1024 + 100;
    const bytes = Buffer.alloc(size, "a");
    bytes.write("start", 0);
    bytes.write("end", size - 3);
    const filePath = path.join(directory, "big.txt");
    await writeFile(filePath, bytes);
    const file = openRegularFile(filePath)!;
    try {
      const head = Buffer.alloc(5);
      expect(await settlesWithoutTheEventLoop(file.readAt(head, 0))).toBe(true);
      expect(head.toString()).toBe("start");
      const tail = Buffer.alloc(10);
      expect(await settlesWithoutTheEventLoop(file.readAt(tail, size - 3))).toBe(false);
      expect(await file.readAt(tail, size - 3)).toBe(3);
      expect(tail.subarray(0, 3).toString()).toBe("end");
      expect(await file.readAt(tail, size)).toBe(0);
    } finally {
      file.close();
    }
  });

  it("does not open a named pipe (nor block on one with no writer)", () => {
    const fifoPath = path.join(directory, "pipe");
    execFileSync("mkfifo", [fifoPath]);
    expect(openRegularFile(fifoPath)).toBeUndefined();
  });

  it("throws the open's error for a missing file", () => {
    expect(() => openRegularFile(path.join(directory, "missing"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
  });
});
