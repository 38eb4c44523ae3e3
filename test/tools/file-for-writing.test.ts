import { execFileSync } from "node:child_process";
import { chmod, link, mkdir, mkdtemp, readFile, realpath, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFile, openFileToChange, WriteRefused } from "../../src/tools/edit/file-for-writing.js";

let base: string;
let workspace: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-file-for-writing-")));
  workspace = path.join(base, "workspace");
  outside = path.join(base, "outside");
  await mkdir(workspace);
  await mkdir(outside);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const options = (namedPath: string, allowLinkedFiles = false) => ({ path: namedPath, allowLinkedFiles });

async function refusal(promise: Promise<unknown>): Promise<WriteRefused> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(WriteRefused);
  return error as WriteRefused;
}

describe("openFileToChange", () => {
  it("reads the file and replaces its content in place, keeping its mode", async () => {
    const file = path.join(workspace, "a.txt");
    await writeFile(file, "a much longer original text\n");
    await chmod(file, 0o640);
    const opened = (await openFileToChange(file, options(file)))!;
    expect(opened.text).toBe("a much longer original text\n");
    await opened.replace("short\n");
    await opened.close();
    expect(await readFile(file, "utf8")).toBe("short\n");
    expect((await stat(file)).mode & 0o777).toBe(0o640);
  });

  it("returns undefined for a missing file", async () => {
    expect(await openFileToChange(path.join(workspace, "missing.txt"), options("missing.txt"))).toBeUndefined();
  });

  it("does not follow a symlink put where the checked file was", async () => {
    await writeFile(path.join(outside, "target.txt"), "outside\n");
    const checked = path.join(workspace, "swapped.txt");
    await symlink(path.join(outside, "target.txt"), checked);
    expect((await refusal(openFileToChange(checked, options("swapped.txt")))).message).toMatch(/symbolic link that was not followed/);
    expect(await readFile(path.join(outside, "target.txt"), "utf8")).toBe("outside\n");
  });

  it.skipIf(!existsSync("/proc/self/fd"))("refuses when a folder on the way was replaced by a link since the check", async () => {
    await mkdir(path.join(workspace, "dir"));
    await mkdir(path.join(outside, "dir"));
    await writeFile(path.join(outside, "dir", "f.txt"), "outside\n");
    const checked = path.join(workspace, "dir", "f.txt");
    await rm(path.join(workspace, "dir"), { recursive: true });
    await symlink(path.join(outside, "dir"), path.join(workspace, "dir"));
    expect((await refusal(openFileToChange(checked, options("dir/f.txt")))).message).toMatch(/was replaced/);
    expect(await readFile(path.join(outside, "dir", "f.txt"), "utf8")).toBe("outside\n");
  });

  it("refuses a file with several hard links unless the call was approved for itself", async () => {
    await writeFile(path.join(outside, "shared.txt"), "outside\n");
    const linked = path.join(workspace, "hl");
    await link(path.join(outside, "shared.txt"), linked);
    const refused = await refusal(openFileToChange(linked, options("hl")));
    expect(refused.code).toBe("permission_denied");
    expect(refused.message).toMatch(/2 hard links/);
    const approved = (await openFileToChange(linked, options("hl", true)))!;
    await approved.replace("approved\n");
    await approved.close();
    expect(await readFile(path.join(outside, "shared.txt"), "utf8")).toBe("approved\n");
  });

  it("refuses a FIFO at once instead of hanging on it", async () => {
    const fifo = path.join(workspace, "pipe");
    execFileSync("mkfifo", [fifo]);
    expect((await refusal(openFileToChange(fifo, options("pipe")))).code).toBe("not_a_file");
  });
});

describe("createFile", () => {
  it("creates the file and its missing folders", async () => {
    const file = path.join(workspace, "a", "b", "new.txt");
    await createFile(file, "new\n", options(file));
    expect(await readFile(file, "utf8")).toBe("new\n");
  });

  it("never writes through a link, dangling or not, that appeared where the new file goes", async () => {
    const planted = path.join(workspace, "planted");
    await symlink(path.join(outside, "created.txt"), planted);
    expect((await refusal(createFile(planted, "x", options("planted")))).message).toMatch(/appeared while it was being written/);
    expect(existsSync(path.join(outside, "created.txt"))).toBe(false);
  });

  it("never replaces a file that appeared since the check", async () => {
    const file = path.join(workspace, "raced.txt");
    await writeFile(file, "someone else's\n");
    await refusal(createFile(file, "mine\n", options("raced.txt")));
    expect(await readFile(file, "utf8")).toBe("someone else's\n");
  });

  it.skipIf(!existsSync("/proc/self/fd"))("writes nothing into a file created through a folder swapped for a link", async () => {
    await mkdir(path.join(workspace, "dir"));
    await rename(path.join(workspace, "dir"), path.join(base, "moved-away"));
    await symlink(outside, path.join(workspace, "dir"));
    await refusal(createFile(path.join(workspace, "dir", "new.txt"), "payload\n", options("dir/new.txt")));
    expect(await readFile(path.join(outside, "new.txt"), "utf8")).toBe("");
  });
});
