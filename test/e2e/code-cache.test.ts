import { chmod, chown, cp, lstat, mkdir, readdir, readFile, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cacheFileName, codeCacheLocation } from "../../src/cli/code-cache.js";
import { createWorkspace, expectWellFormedRun, runAgentwire, type Workspace } from "../helpers/agentwire.js";

let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

const ANSWER = ["-p", "hi", "--output-format", "stream-json", "--verbose"];

/** The one build folder under <home>/cache/code and the cache files in it, with their mtimes. */
async function cacheFiles(home: string): Promise<{ folder: string; files: Map<string, number> }> {
  const root = join(home, ".agentwire", "cache", "code");
  const [folder, ...others] = await readdir(root);
  expect(others, "one build's caches").toEqual([]);
  const files = new Map<string, number>();
  for (const name of await readdir(join(root, folder!))) files.set(name, (await stat(join(root, folder!, name))).mtimeMs);
  return { folder: join(root, folder!), files };
}

describe("V8's code cache for the CLI bundle", () => {
  it("is written by the first run, read unchanged by the next, and a single answer still works", async () => {
    workspace = await createWorkspace("text");
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace }), 1);
    const first = await cacheFiles(workspace.home);
    // The entry, the start-up chunk, the session core and the provider: each one's compiled code.
    expect([...first.files.keys()].sort()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^cli\.cjs\.v8cache$/),
        expect.stringMatching(/^start-.*\.cjs\.v8cache$/),
        expect.stringMatching(/^anthropic-.*\.v8cache$/),
      ]),
    );
    // A single answer over node:http sets no V8 flag: every file's cache is made under none.
    expect([...first.files.keys()].filter((name) => !/^[^.]+\.cjs\.v8cache$/.test(name))).toEqual([]);
    const second = await runAgentwire(ANSWER, { workspace });
    expectWellFormedRun(second, 1);
    // V8 took every file's cache: nothing was rewritten.
    expect((await cacheFiles(workspace.home)).files).toEqual(first.files);
  });

  it("replaces a cache V8 refuses (damaged, or from other flags), and keeps only the newest other builds' caches", async () => {
    workspace = await createWorkspace("text");
    // Earlier builds' caches: the two made last stay (two installs used in turn), older ones go.
    const root = join(workspace.home, ".agentwire", "cache", "code");
    for (const [index, name] of ["old-1", "old-2", "old-3"].entries()) {
      await mkdir(join(root, name), { recursive: true });
      await utimes(join(root, name), 1000 + index, 1000 + index);
    }
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace }), 1);
    const builds = await readdir(root);
    expect(builds.filter((name) => name.startsWith("old-")).sort()).toEqual(["old-2", "old-3"]);
    for (const name of ["old-2", "old-3"]) await rm(join(root, name), { recursive: true });
    const { folder, files } = await cacheFiles(workspace.home);
    const entry = join(folder, "cli.cjs.v8cache");
    await writeFile(entry, "not V8's data");
    const run = await runAgentwire(ANSWER, { workspace });
    expectWellFormedRun(run, 1);
    const after = await cacheFiles(workspace.home);
    expect(after.files.get("cli.cjs.v8cache")).not.toBe(files.get("cli.cjs.v8cache"));
    expect((await stat(entry)).size).toBeGreaterThan(1000);
  });

  it("runs without a cache where none can be written, or with AGENTWIRE_CODE_CACHE=0", async () => {
    workspace = await createWorkspace("text");
    const agentwireHome = join(workspace.home, ".agentwire");
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace, env: { AGENTWIRE_CODE_CACHE: "0" } }), 1);
    expect(await readdir(agentwireHome)).not.toContain("cache");
    // A file where the cache folder would go: no folder can be made there (as root too).
    await writeFile(join(agentwireHome, "cache"), "");
    const run = await runAgentwire(ANSWER, { workspace });
    expectWellFormedRun(run, 1);
    expect(run.stderr).toBe("");
  });

  it("reads no cache from a folder others can write to, and makes its own folder and files private", async () => {
    workspace = await createWorkspace("text");
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace }), 1);
    const { folder, files } = await cacheFiles(workspace.home);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect((await stat(join(folder, "cli.cjs.v8cache"))).mode & 0o777).toBe(0o600);
    // Made writable by others: agentwire neither reads nor rewrites what is there.
    await chmod(folder, 0o777);
    await writeFile(join(folder, "cli.cjs.v8cache"), "planted");
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace }), 1);
    expect(await readFile(join(folder, "cli.cjs.v8cache"), "utf8")).toBe("planted");
    expect(files.size).toBeGreaterThan(2);
  });

  it("keeps caches made under other V8 flags apart: Node's options name the folder, agentwire's own the file", () => {
    const directory = (env: NodeJS.ProcessEnv, execArgv: string[] = []) => codeCacheLocation(env, "b1", execArgv)?.directory;
    expect(codeCacheLocation({ AGENTWIRE_HOME: "/h" }, "b1", [])?.home).toBe("/h");
    const plain = directory({ AGENTWIRE_HOME: "/h" });
    expect(plain).toBe(`/h/cache/code/b1-${process.versions.v8}-${process.arch}`);
    const withOptions = [
      directory({ AGENTWIRE_HOME: "/h" }, ["--max-old-space-size=100"]),
      directory({ AGENTWIRE_HOME: "/h", NODE_OPTIONS: "--max-old-space-size=100" }),
    ];
    expect(new Set([plain, ...withOptions]).size).toBe(3);
    expect(directory({ AGENTWIRE_HOME: "/h", AGENTWIRE_CODE_CACHE: "0" })).toBeUndefined();
    expect(cacheFileName("/x/dist/cli-chunks/session-AB12.cjs", "")).toBe("session-AB12.cjs.v8cache");
    const underFlags = cacheFileName("/x/dist/cli-chunks/session-AB12.cjs", "--liftoff-only --optimize-for-size");
    expect(underFlags).toBe("session-AB12.cjs.liftoff-only-optimize-for-size.v8cache");
  });

  it("never hands V8 damaged data: a flipped byte gives the same run as no cache, and the file is rewritten", async () => {
    workspace = await createWorkspace("text");
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace }), 1);
    const { folder, files } = await cacheFiles(workspace.home);
    // V8 checks no checksum: data with a flipped bit in the middle used to be run, and crash.
    const damaged = new Map<string, Buffer>();
    for (const name of files.keys()) {
      const content = await readFile(join(folder, name));
      content[Math.floor(content.length / 2)]! ^= 0x10;
      await writeFile(join(folder, name), content);
      damaged.set(name, content);
    }
    // Each run gets the scenario afresh, so both get the model's answer.
    const scenario = JSON.parse(await readFile(join("fixtures", "scenarios", "text.json"), "utf8"));
    await workspace.useScenario(scenario);
    const run = await runAgentwire(ANSWER, { workspace });
    expectWellFormedRun(run, 1);
    await workspace.useScenario(scenario);
    const uncached = await runAgentwire(ANSWER, { workspace, env: { AGENTWIRE_CODE_CACHE: "0" } });
    expect(run.stderr).toBe(uncached.stderr);
    expect(run.events.map((event) => event.type)).toEqual(uncached.events.map((event) => event.type));
    expect(run.events.at(-1)).toMatchObject({ result: (uncached.events.at(-1) as { result: string }).result });
    for (const [name, content] of damaged) expect((await readFile(join(folder, name))).equals(content), name).toBe(false);
  });

  it("reads no cache file that is a link or writable by its group, and replaces it with its own", async () => {
    workspace = await createWorkspace("text");
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace }), 1);
    const { folder } = await cacheFiles(workspace.home);
    const names = ["cli.cjs.v8cache", ...(await readdir(folder)).filter((name) => name.startsWith("start-"))];
    // Each planted file holds good data: only the checks on the file itself can tell it apart.
    const elsewhere = join(workspace.root, "elsewhere.v8cache");
    await cp(join(folder, names[0]!), elsewhere);
    await rm(join(folder, names[0]!));
    await symlink(elsewhere, join(folder, names[0]!));
    await chmod(join(folder, names[1]!), 0o620);
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace }), 1);
    const entry = await lstat(join(folder, names[0]!));
    expect(entry.isFile() && entry.uid === process.getuid?.()).toBe(true);
    expect((await stat(join(folder, names[1]!))).mode & 0o777).toBe(0o600);
  });

  it.skipIf(process.getuid?.() !== 0)("reads no cache file another user owns (as root: one given to nobody)", async () => {
    workspace = await createWorkspace("text");
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace }), 1);
    const { folder } = await cacheFiles(workspace.home);
    const entry = join(folder, "cli.cjs.v8cache");
    await chown(entry, 65534, 65534);
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace }), 1);
    expect((await stat(entry)).uid).toBe(0);
  });

  it("uses no cache folder reached through a link, and none under a relative AGENTWIRE_HOME", async () => {
    workspace = await createWorkspace("text");
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace }), 1);
    const { folder } = await cacheFiles(workspace.home);
    // The build's folder swapped for a link to a private copy with a planted file in it.
    const copy = join(workspace.root, "copy");
    await cp(folder, copy, { recursive: true });
    await rm(folder, { recursive: true });
    await symlink(copy, folder);
    await writeFile(join(copy, "cli.cjs.v8cache"), "planted", { mode: 0o600 });
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace }), 1);
    expect(await readFile(join(copy, "cli.cjs.v8cache"), "utf8")).toBe("planted");
    // A relative home is found from the working directory, which may be a cloned repository's.
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace, env: { AGENTWIRE_HOME: "aw-home" } }), 1);
    expect(existsSync(join(workspace.cwd, "aw-home", "cache"))).toBe(false);
  });

  it("leaves no temporary file behind when a cache file cannot be replaced", async () => {
    workspace = await createWorkspace("text");
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace }), 1);
    const { folder } = await cacheFiles(workspace.home);
    // A non-empty folder where the entry's cache goes: the rename over it fails.
    await rm(join(folder, "cli.cjs.v8cache"));
    await mkdir(join(folder, "cli.cjs.v8cache", "inside"), { recursive: true, mode: 0o700 });
    await chmod(join(folder, "cli.cjs.v8cache"), 0o700);
    expectWellFormedRun(await runAgentwire(ANSWER, { workspace }), 1);
    expect((await readdir(folder)).filter((name) => name.startsWith("cli.cjs.v8cache"))).toEqual(["cli.cjs.v8cache"]);
  });
});
