import { spawn } from "node:child_process";
import { readlinkSync } from "node:fs";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { watchBwrapNamespace } from "../../src/tools/sandbox/bwrap-exit.js";
import { isAlive } from "../helpers/processes.js";

/** What bwrap writes on --info-fd, fed by hand: a live `sleep` stands for the namespace's first process. */
const sleepers: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const sleeper of sleepers.splice(0)) sleeper.kill("SIGKILL");
});

function sleeper(seconds: number) {
  const child = spawn("sleep", [String(seconds)], { stdio: "ignore" });
  sleepers.push(child);
  return child;
}

const inodeOf = (pid: number): string => /\[(\d+)\]/.exec(readlinkSync(`/proc/${pid}/ns/pid`))![1]!;

describe("watchBwrapNamespace", () => {
  it("stops the first process named with its namespace, also when bwrap names it after the stop", async () => {
    const early = sleeper(30);
    const info = new PassThrough();
    const namespace = watchBwrapNamespace(info);
    info.write(`{\n    "child-pid": ${early.pid},\n    "pid-namespace": ${inodeOf(early.pid!)}\n}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    namespace.stop();
    expect(await namespace.ended()).toBe(true);
    expect(isAlive(early.pid!)).toBe(false);

    const late = sleeper(30);
    const lateInfo = new PassThrough();
    const lateNamespace = watchBwrapNamespace(lateInfo);
    lateNamespace.stop();
    lateInfo.write(`{\n    "child-pid": ${late.pid},\n    "pid-namespace": ${inodeOf(late.pid!)}\n}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await lateNamespace.ended()).toBe(true);
    expect(isAlive(late.pid!)).toBe(false);
  });

  it("never kills a pid that is not in the named namespace (a number reused after the namespace ended)", async () => {
    const other = sleeper(30);
    const info = new PassThrough();
    const namespace = watchBwrapNamespace(info);
    info.write(`{ "child-pid": ${other.pid}, "pid-namespace": 1 }`);
    await new Promise((resolve) => setImmediate(resolve));
    namespace.stop();
    expect(isAlive(other.pid!)).toBe(true);
    // Not the namespace's process, so nothing of the namespace is waited for.
    expect(await namespace.ended()).toBe(true);
  });

  it("with a bwrap older than 0.4 (no namespace inode): waits for the first process all the same, and leaves the kill to the group", async () => {
    const first = sleeper(1);
    const info = new PassThrough();
    const namespace = watchBwrapNamespace(info);
    info.write(`{\n    "child-pid": ${first.pid}\n}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    namespace.stop();
    expect(isAlive(first.pid!)).toBe(true);
    const startedAt = Date.now();
    expect(await namespace.ended()).toBe(true);
    expect(Date.now() - startedAt).toBeGreaterThan(500);
  });
});
