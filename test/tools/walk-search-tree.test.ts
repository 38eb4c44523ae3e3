import { mkdir, mkdtemp, readdir, realpath, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GitignoreFilter } from "../../src/tools/search/gitignore-filter.js";
import { nameGlobFilter } from "../../src/tools/search/search-glob.js";
import { walkFiles } from "../../src/tools/search/walk-files.js";
import { walkSearchTree } from "../../src/tools/search/walk-search-tree.js";
import { writeTree } from "../helpers/file-tree.js";

let directory: string;

beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-walk-")));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const signal = new AbortController().signal;

async function walked(root: string, includesFile?: (relativePath: string) => boolean): Promise<string[]> {
  const files: string[] = [];
  for await (const folderFiles of walkSearchTree({ root, includesFile, signal })) files.push(...folderFiles);
  return files.map((file) => path.relative(directory, file)).sort();
}

async function walkedByFastGlob(root: string, patterns: string[]): Promise<string[]> {
  const files: string[] = [];
  for await (const file of walkFiles({ root, patterns, signal, withModificationTime: false })) files.push(file.absolutePath);
  return files.map((file) => path.relative(directory, file)).sort();
}

// A repository with the cases .gitignore handling gets wrong most easily.
const repository = {
  ".gitignore": "dist/\n*.log\n!keep.log\nnode_modules\n/anchored.txt\n",
  "dist/bundle.js": "",
  "src/app.ts": "",
  "src/anchored.txt": "",
  "anchored.txt": "",
  "debug.log": "",
  "keep.log": "",
  "node_modules/pkg/index.js": "",
  "src/.gitignore": "generated.ts\n!important.log\n",
  "src/generated.ts": "",
  "src/important.log": "",
  "src/deep/.gitignore": "*\n!*.md\n",
  "src/deep/notes.md": "",
  "src/deep/code.ts": "",
  ".hidden/config.json": "",
  ".git/HEAD": "",
  "sub/.git": "gitdir: elsewhere",
};

describe("walkSearchTree()", () => {
  it("honours .gitignore files at every level, negations included, and never lists .git", async () => {
    await mkdir(path.join(directory, ".git"));
    await writeTree(directory, repository);
    expect(await walked(directory)).toEqual([
      ".gitignore",
      ".hidden/config.json",
      "keep.log",
      "src/.gitignore",
      "src/anchored.txt",
      "src/app.ts",
      "src/deep/notes.md",
      "src/important.log",
    ]);
  });

  it("lists the same files as the fast-glob walk with **/*, from the root and from a subfolder", async () => {
    await mkdir(path.join(directory, ".git"));
    await writeTree(directory, repository);
    expect(await walked(directory)).toEqual(await walkedByFastGlob(directory, ["**/*"]));
    expect(await walked(path.join(directory, "src"))).toEqual(await walkedByFastGlob(path.join(directory, "src"), ["**/*"]));
  });

  it("agrees with GitignoreFilter.isIgnored on every file, where names repeat under different rules", async () => {
    await mkdir(path.join(directory, ".git"));
    await writeTree(directory, {
      ".gitignore": "*.tmp\nbuild/\ncache\n!keep.tmp\n",
      "a/x.tmp": "",
      "a/keep.tmp": "",
      "a/build/out.js": "",
      "a/build.js": "",
      "a/cache/data": "",
      "b/.gitignore": "!x.tmp\n/local.txt\n",
      "b/x.tmp": "",
      "b/local.txt": "",
      "b/c/local.txt": "",
      "b/c/x.tmp": "",
      "b/c/build": "",
      "d/.gitignore": "!build/\n",
      "d/build/out.js": "",
      "d/e/build/out.js": "",
      "x.tmp": "",
    });
    const filter = await GitignoreFilter.forSearchRoot(directory);
    const everyFile = (await readdir(directory, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
    const kept = everyFile.filter((file) => !filter.isIgnored(file, false)).map((file) => path.relative(directory, file));
    expect(await walked(directory)).toEqual(kept.sort());
    expect(kept.sort()).toEqual([
      ".gitignore",
      "a/build.js",
      "a/keep.tmp",
      "b/.gitignore",
      "b/c/build",
      "b/c/local.txt",
      "b/c/x.tmp",
      "b/x.tmp",
      "d/.gitignore",
    ]);
  });

  it("lists nothing below a root that git ignores", async () => {
    await mkdir(path.join(directory, ".git"));
    await writeTree(directory, repository);
    expect(await walked(path.join(directory, "dist"))).toEqual([]);
  });

  it("outside a repository skips only .git, and reads no .gitignore", async () => {
    await writeTree(directory, { ".gitignore": "*.log\n", "debug.log": "", "a/.git/HEAD": "", "a/b.ts": "" });
    expect(await walked(directory)).toEqual([".gitignore", "a/b.ts", "debug.log"]);
  });

  it("does not follow symbolic links, to files or to folders", async () => {
    await writeTree(directory, { "real/file.ts": "" });
    await symlink(path.join(directory, "real"), path.join(directory, "linked-folder"));
    await symlink(path.join(directory, "real/file.ts"), path.join(directory, "linked-file.ts"));
    expect(await walked(directory)).toEqual(["real/file.ts"]);
  });

  it("keeps only the files the filter accepts, by their path relative to the root", async () => {
    await writeTree(directory, { "a.ts": "", "src/b.ts": "", "src/c.md": "" });
    expect(await walked(directory, (relativePath) => relativePath.startsWith("src/"))).toEqual(["src/b.ts", "src/c.md"]);
  });

  it("throws the abort reason when the signal aborts", async () => {
    await writeTree(directory, { "a.ts": "" });
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(async () => {
      for await (const _ of walkSearchTree({ root: directory, signal: controller.signal })) void _;
    }).rejects.toThrow("stop");
  });
});

describe("nameGlobFilter()", () => {
  it.each(["*.ts", "*.{ts,md}", "!*.md", ".*", "file?.ts", "**.ts", "[ab].ts", "!{a,b}.ts"])(
    "keeps the same files as fast-glob for %s",
    async (glob) => {
      await writeTree(directory, {
        "a.ts": "",
        "b.ts": "",
        "c.md": "",
        ".env": "",
        "src/file1.ts": "",
        "src/deep/a.ts": "",
        "src/.hidden/x.md": "",
        "x.ts/inside.md": "",
      });
      const negated = glob.startsWith("!");
      const patterns = negated ? ["**/*", `!**/${glob.slice(1)}`] : [`**/${glob}`];
      expect(await walked(directory, nameGlobFilter(glob))).toEqual(await walkedByFastGlob(directory, patterns));
    },
  );
});
