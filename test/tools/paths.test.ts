import { mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { displayPath, isInsideRoots, resolveWorkspacePath } from "../../src/tools/paths.js";
import { makeToolContext } from "../helpers/tool-context.js";

let base: string;
let workspace: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-paths-")));
  workspace = path.join(base, "work");
  outside = path.join(base, "outside");
  await mkdir(workspace);
  await mkdir(outside);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("workspace policy", () => {
  it("allows paths inside a root, including ones that do not exist yet", async () => {
    expect(await isInsideRoots(path.join(workspace, "a", "b", "new.txt"), [workspace])).toBe(true);
    expect(await isInsideRoots(workspace, [workspace])).toBe(true);
  });

  it("refuses .. escapes, sibling prefixes and symlinked parents", async () => {
    expect(await isInsideRoots(path.resolve(workspace, "../outside/x"), [workspace])).toBe(false);
    await mkdir(`${workspace}-other`);
    expect(await isInsideRoots(path.join(`${workspace}-other`, "x"), [workspace])).toBe(false);
    await symlink(outside, path.join(workspace, "link"));
    expect(await isInsideRoots(path.join(workspace, "link", "new", "file.txt"), [workspace])).toBe(false);
    // A dangling link counts where it points: writing through it would create the file there.
    await symlink("../outside/new.txt", path.join(workspace, "out"));
    expect(await isInsideRoots(path.join(workspace, "out"), [workspace])).toBe(false);
    await symlink("kept/new.txt", path.join(workspace, "in"));
    expect(await isInsideRoots(path.join(workspace, "in"), [workspace])).toBe(true);
  });

  it("returns the real path it checked, for the file tools to open", async () => {
    await symlink("../outside/new.txt", path.join(workspace, "out"));
    const bypass = { ...makeToolContext(workspace), workspace: { roots: [workspace], allowOutside: true } };
    expect(await resolveWorkspacePath(bypass, "out")).toEqual({
      path: path.join(workspace, "out"),
      realPath: path.join(outside, "new.txt"),
    });
  });

  it("--add-dir roots, the output directory and bypassPermissions widen it", async () => {
    const context = makeToolContext(workspace);
    expect((await resolveWorkspacePath(context, "../outside/x")).refusal?.code).toBe("outside_workspace");
    expect(
      (await resolveWorkspacePath({ ...context, workspace: { roots: [workspace, outside], allowOutside: false } }, "../outside/x")).path,
    ).toBe(path.join(outside, "x"));
    expect((await resolveWorkspacePath({ ...context, outputDirectory: outside }, path.join(outside, "bash-1.log"))).path).toBe(
      path.join(outside, "bash-1.log"),
    );
    expect((await resolveWorkspacePath({ ...context, workspace: { roots: [workspace], allowOutside: true } }, "/etc/hosts")).path).toBe(
      "/etc/hosts",
    );
  });

  it("shows paths relative to the cwd when inside it", () => {
    expect(displayPath("/repo", "/repo/src/a.ts")).toBe("src/a.ts");
    expect(displayPath("/repo", "/repo-other/a.ts")).toBe("/repo-other/a.ts");
    expect(displayPath("/repo", "/repo")).toBe("/repo");
  });
});
