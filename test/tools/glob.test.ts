import { mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGlobTool } from "../../src/tools/glob.js";
import { walkFiles } from "../../src/tools/search/walk-files.js";
import { writeTree } from "../helpers/file-tree.js";
import { makeToolContext } from "../helpers/tool-context.js";

let directory: string;

beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-glob-")));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("createGlobTool()", () => {
  it("returns matching paths relative to the cwd, newest first, with Claude Code's details", async () => {
    await writeTree(directory, { "old.md": "", "src/a.ts": "", "docs/new.md": "", "notes.txt": "" });
    const startedAt = performance.now();
    const result = await createGlobTool().execute({ pattern: "**/*.md" }, makeToolContext(directory));
    const elapsedMs = performance.now() - startedAt;
    expect(result.content).toBe("docs/new.md\nold.md");
    expect(result.details).toMatchObject({
      filenames: ["docs/new.md", "old.md"],
      numFiles: 2,
      truncated: false,
      totalMatches: 2,
      countIsComplete: true,
    });
    // The tool's own measurement: a whole number of milliseconds within the call's wall time.
    const { durationMs } = result.details as { durationMs: number };
    expect(Number.isInteger(durationMs) && durationMs <= Math.ceil(elapsedMs)).toBe(true);
  });

  it("searches below path, and takes absolute patterns", async () => {
    await writeTree(directory, { "src/a.ts": "", "src/deep/b.ts": "", "other/c.ts": "" });
    const underSrc = await createGlobTool().execute({ pattern: "**/*.ts", path: "src" }, makeToolContext(directory));
    expect(underSrc.content).toBe("src/deep/b.ts\nsrc/a.ts");
    const absolute = await createGlobTool().execute({ pattern: `${directory}/other/*.ts` }, makeToolContext(directory));
    expect(absolute.content).toBe("other/c.ts");
  });

  it("respects .gitignore inside a git repository, including nested files and negations", async () => {
    await mkdir(path.join(directory, ".git"));
    await writeTree(directory, {
      ".gitignore": "dist/\n*.log\n!keep.log\n",
      "dist/bundle.js": "",
      "src/app.js": "",
      "debug.log": "",
      "keep.log": "",
      "src/.gitignore": "generated.js\n",
      "src/generated.js": "",
      ".git/config.js": "",
    });
    const result = await createGlobTool().execute({ pattern: "**/*.{js,log}" }, makeToolContext(directory));
    expect(result.content).toBe("keep.log\nsrc/app.js");
  });

  it("caps the result at 100 paths and says how many matched", async () => {
    await writeTree(
      directory,
      Object.fromEntries(Array.from({ length: 120 }, (_, index) => [`f${String(index).padStart(3, "0")}.txt`, ""])),
    );
    const result = await createGlobTool().execute({ pattern: "*.txt" }, makeToolContext(directory));
    const lines = (result.content as string).split("\n");
    expect(lines).toHaveLength(101);
    expect(lines[0]).toBe("f119.txt");
    expect(lines[100]).toBe("(Results are truncated: showing 100 of 120 files. Use a more specific path or pattern.)");
    expect(result.details).toMatchObject({ numFiles: 100, truncated: true, totalMatches: 120 });
  });

  it("finds for **/name patterns (its own walk) exactly the files fast-glob finds", async () => {
    await mkdir(path.join(directory, ".git"));
    await writeTree(directory, {
      ".gitignore": "build/\n*.tmp.ts\n!keep.tmp.ts\nnested/deeper/\n",
      "a.ts": "",
      "keep.tmp.ts": "",
      "drop.tmp.ts": "",
      "build/out.ts": "",
      ".hidden/h.ts": "",
      ".dot.ts": "",
      "src/x.tsx": "",
      "src/sp ace/ü.ts": "",
      "src/.gitignore": "gen/\n",
      "src/gen/g.ts": "",
      "src/lib/l.ts": "",
      "nested/deeper/d.ts": "",
      "nested/n.md": "",
      ".git/hooks/h.ts": "",
    });
    await symlink(path.join(directory, "src"), path.join(directory, "linked-src"));
    await symlink(path.join(directory, "a.ts"), path.join(directory, "linked.ts"));
    for (const pattern of ["**/*.ts", "**/*.{ts,tsx}", "**/*", "**/[a-k]*.ts", "**/?.ts"]) {
      const result = await createGlobTool().execute({ pattern }, makeToolContext(directory));
      const viaFastGlob: string[] = [];
      for await (const file of walkFiles({
        root: directory,
        patterns: [pattern],
        signal: new AbortController().signal,
        withModificationTime: false,
      }))
        viaFastGlob.push(path.relative(directory, file.absolutePath));
      expect((result.details as { filenames: string[] }).filenames.slice().sort(), pattern).toEqual(viaFastGlob.sort());
    }
  });

  it("says so when nothing matches", async () => {
    const result = await createGlobTool().execute({ pattern: "**/*.nothing" }, makeToolContext(directory));
    expect(result).toMatchObject({ content: "No files found", isError: false, details: { numFiles: 0, filenames: [] } });
  });

  it("does not follow a symlink out of the workspace", async () => {
    const outside = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-glob-outside-")));
    try {
      await writeTree(outside, { "secret.md": "" });
      await symlink(outside, path.join(directory, "link"));
      const result = await createGlobTool().execute({ pattern: "**/*.md" }, makeToolContext(directory));
      expect(result.content).toBe("No files found");
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("a pattern cannot list outside the workspace through a link, `..` or braces", async () => {
    const outside = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-glob-outside-")));
    try {
      await writeTree(outside, { "secret.md": "", "deeper/inner.md": "" });
      await writeTree(directory, { "a.md": "" });
      await symlink(outside, path.join(directory, "link"));
      const context = makeToolContext(directory);
      const relativeOutside = path.relative(directory, outside);
      // Fixed folders that lead out are refused like a path would be.
      for (const pattern of ["link/*", "link/**", "./link/*", "link/deeper/*", "a.md/../link/*", `${relativeOutside}/*`]) {
        expect((await createGlobTool().execute({ pattern }, context)).code, pattern).toBe("outside_workspace");
      }
      // Patterns whose way out is in a pattern part find nothing there.
      for (const pattern of ["{link,x}/*", "{link,x}/**", "l*/*", "*/*", `{${relativeOutside},x}/*`]) {
        const result = await createGlobTool().execute({ pattern }, context);
        expect(result.content, pattern).not.toMatch(/secret|inner/);
      }
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("refuses a search path outside the workspace (outside_workspace)", async () => {
    const result = await createGlobTool().execute({ pattern: "*", path: os.tmpdir() }, makeToolContext(directory));
    expect(result.code).toBe("outside_workspace");
  });

  it("fails with file_not_found for a missing folder and not_a_file for a file", async () => {
    await writeTree(directory, { "a.txt": "" });
    expect((await createGlobTool().execute({ pattern: "*", path: "missing" }, makeToolContext(directory))).code).toBe("file_not_found");
    expect((await createGlobTool().execute({ pattern: "*", path: "a.txt" }, makeToolContext(directory))).code).toBe("not_a_file");
  });
});
