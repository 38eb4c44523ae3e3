import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { realPathOfNearestAncestor } from "../../src/paths/real-path.js";

describe("realPathOfNearestAncestor", () => {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agentwire-real-path-")));
  const workspace = path.join(base, "workspace");
  const outside = path.join(base, "outside");
  mkdirSync(path.join(workspace, "sub"), { recursive: true });
  mkdirSync(outside);
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const inWorkspace = (name: string) => path.join(workspace, name);

  it("resolves existing paths, and appends what does not exist yet to the nearest existing folder", () => {
    symlinkSync(outside, inWorkspace("linked-folder"));
    expect(realPathOfNearestAncestor(inWorkspace("sub"))).toBe(path.join(workspace, "sub"));
    expect(realPathOfNearestAncestor(inWorkspace("sub/new/file.txt"))).toBe(path.join(workspace, "sub", "new", "file.txt"));
    expect(realPathOfNearestAncestor(inWorkspace("linked-folder/new.txt"))).toBe(path.join(outside, "new.txt"));
  });

  it("follows a dangling symlink to where a write through it would land, relative to the link's real folder", () => {
    symlinkSync("../outside/new.txt", inWorkspace("out"));
    expect(realPathOfNearestAncestor(inWorkspace("out"))).toBe(path.join(outside, "new.txt"));
    // The link sits in a folder reached through another link: `..` counts from the real folder.
    symlinkSync("../outside/deep/x.txt", path.join(outside, "chained"));
    symlinkSync(path.join(outside, "chained"), inWorkspace("sub/chain"));
    expect(realPathOfNearestAncestor(inWorkspace("sub/chain"))).toBe(path.join(base, "outside", "deep", "x.txt"));
    symlinkSync(path.join(base, "missing-folder"), inWorkspace("dangling-folder"));
    expect(realPathOfNearestAncestor(inWorkspace("dangling-folder/a/b.txt"))).toBe(path.join(base, "missing-folder", "a", "b.txt"));
  });

  it("follows chains of dangling links, and gives up on a loop without throwing", () => {
    symlinkSync("hop2", inWorkspace("hop1"));
    symlinkSync("../outside/end.txt", inWorkspace("hop2"));
    expect(realPathOfNearestAncestor(inWorkspace("hop1"))).toBe(path.join(outside, "end.txt"));
    symlinkSync("loop-b", inWorkspace("loop-a"));
    symlinkSync("loop-a", inWorkspace("loop-b"));
    expect(() => realPathOfNearestAncestor(inWorkspace("loop-a"))).not.toThrow();
  });

  it("follows a link before the `..` after it, as the kernel does, dangling links too", () => {
    mkdirSync(path.join(outside, "inner"));
    symlinkSync(path.join(outside, "inner"), inWorkspace("to-inner"));
    expect(realPathOfNearestAncestor(`${workspace}/to-inner/../x.txt`)).toBe(path.join(outside, "x.txt"));
    symlinkSync("../outside/gone/deeper", inWorkspace("dangling-deep"));
    expect(realPathOfNearestAncestor(`${workspace}/dangling-deep/../y.txt`)).toBe(path.join(outside, "gone", "y.txt"));
  });
});
