import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLsTool } from "../../src/tools/ls.js";
import { writeTree } from "../helpers/file-tree.js";
import { makeToolContext } from "../helpers/tool-context.js";

let directory: string;

beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-ls-")));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("createLsTool()", () => {
  it("lists the tree, folders first, skipping git-ignored files and .git", async () => {
    await mkdir(path.join(directory, ".git"));
    await writeTree(directory, { ".gitignore": "*.log\n", "b.txt": "", "a.log": "", "src/main.ts": "", "src/lib/x.ts": "", ".env": "" });
    const result = await createLsTool().execute({}, makeToolContext(directory));
    expect(result.content).toBe(
      [`- ${directory}/`, "  - src/", "    - lib/", "      - x.ts", "    - main.ts", "  - .env", "  - .gitignore", "  - b.txt"].join("\n"),
    );
    expect(result.details).toMatchObject({ path: directory, truncated: false });
    expect((result.details as { entries: unknown[] }).entries).toContainEqual({ path: "src/lib/x.ts", type: "file" });
  });

  it("leaves out entries matching ignore patterns", async () => {
    await writeTree(directory, { "keep.txt": "", "node_modules/pkg/index.js": "", "out/x.js": "" });
    const result = await createLsTool().execute({ ignore: ["node_modules", "out/"] }, makeToolContext(directory));
    expect(result.content).toBe(`- ${directory}/\n  - keep.txt`);
  });

  it("stops at 1000 entries, keeping the upper levels complete", async () => {
    await writeTree(directory, Object.fromEntries(Array.from({ length: 1100 }, (_, index) => [`deep/f${index}.txt`, ""])));
    await writeTree(directory, { "top.txt": "" });
    const result = await createLsTool().execute({}, makeToolContext(directory));
    expect(result.content).toContain("  - top.txt");
    expect(result.content).toContain("(Listing stopped at 1000 entries.");
    expect(result.details).toMatchObject({ truncated: true });
  });

  it("fails with outside_workspace, file_not_found and not_a_file", async () => {
    await writeTree(directory, { "a.txt": "" });
    expect((await createLsTool().execute({ path: "/" }, makeToolContext(directory))).code).toBe("outside_workspace");
    expect((await createLsTool().execute({ path: "missing" }, makeToolContext(directory))).code).toBe("file_not_found");
    expect((await createLsTool().execute({ path: "a.txt" }, makeToolContext(directory))).code).toBe("not_a_file");
  });
});
