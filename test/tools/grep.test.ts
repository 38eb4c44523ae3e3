import { mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGrepTool } from "../../src/tools/grep.js";
import { findRipgrep } from "../../src/tools/search/ripgrep-search.js";
import { writeTree } from "../helpers/file-tree.js";
import { makeToolContext } from "../helpers/tool-context.js";

let directory: string;

beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-grep-")));
  await mkdir(path.join(directory, ".git"));
  await writeTree(directory, {
    ".gitignore": "build/\n",
    "build/out.ts": "export const answer = 42;\n",
    "src/app.ts": "export const answer = 42;\n",
    "src/util.ts": "// helper\nexport function add(a: number, b: number) {\n  return a + b;\n}\nexport const ANSWER_TEXT = 'answer';\n",
    "README.md": "The answer is 42.\nNothing else.\n",
    "data.bin": Buffer.from("answer\0binary"),
  });
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const ripgrepInstalled = (await findRipgrep()) !== undefined;

// The same behaviour is required of both search backends.
describe.each([
  { backend: "builtin" as const, skip: false },
  { backend: "auto" as const, skip: !ripgrepInstalled },
])("grepTool ($backend backend)", ({ backend, skip }) => {
  const grep = createGrepTool({ backend });
  const run = (input: Record<string, unknown>) => grep.execute({ pattern: "", ...input } as never, makeToolContext(directory));

  it.skipIf(skip)("files_with_matches (default): Claude Code's text, newest first, ignored and binary files skipped", async () => {
    const result = await run({ pattern: "answer" });
    expect(result.content).toBe("Found 3 files\nREADME.md\nsrc/util.ts\nsrc/app.ts");
    expect(result.details).toEqual({ mode: "files_with_matches", numFiles: 3, filenames: ["README.md", "src/util.ts", "src/app.ts"] });
  });

  it.skipIf(skip)("content mode: path:line:text (reference 22-grep-text-around-tool)", async () => {
    const result = await run({ pattern: "answer = 42", output_mode: "content" });
    expect(result.content).toBe("src/app.ts:1:export const answer = 42;");
    expect(result.details).toEqual({
      mode: "content",
      numFiles: 1,
      filenames: ["src/app.ts"],
      content: "src/app.ts:1:export const answer = 42;",
      numLines: 1,
      totalLines: 1,
    });
  });

  it.skipIf(skip)("content mode with context lines, case-insensitive, without line numbers", async () => {
    const withContext = await run({ pattern: "return", output_mode: "content", "-C": 1, path: "src" });
    expect(withContext.content).toBe(
      "src/util.ts-2-export function add(a: number, b: number) {\nsrc/util.ts:3:  return a + b;\nsrc/util.ts-4-}",
    );
    const insensitive = await run({ pattern: "ANSWER =", output_mode: "content", "-i": true, "-n": false });
    expect(insensitive.content).toBe("src/app.ts:export const answer = 42;");
  });

  it.skipIf(skip)("glob and type filters", async () => {
    expect((await run({ pattern: "answer", glob: "*.md" })).content).toBe("Found 1 file\nREADME.md");
    expect((await run({ pattern: "answer", type: "ts" })).content).toBe("Found 2 files\nsrc/util.ts\nsrc/app.ts");
  });

  it.skipIf(skip)("negated globs and globs with a folder", async () => {
    expect((await run({ pattern: "answer", glob: "!*.md" })).content).toBe("Found 2 files\nsrc/util.ts\nsrc/app.ts");
    expect((await run({ pattern: "answer", glob: "src/app.*" })).content).toBe("Found 1 file\nsrc/app.ts");
  });

  it.skipIf(skip)("count mode", async () => {
    const result = await run({ pattern: "answer|ANSWER", output_mode: "count" });
    expect(result.content).toBe("README.md:1\nsrc/app.ts:1\nsrc/util.ts:1\n\nFound 3 matching lines in 3 files.");
    expect(result.details).toMatchObject({ mode: "count", numFiles: 3, numMatches: 3 });
  });

  it.skipIf(skip)("head_limit and offset page through long results", async () => {
    await writeTree(directory, { "many.txt": Array.from({ length: 10 }, (_, index) => `hit ${index + 1}`).join("\n") });
    const result = await run({ pattern: "hit", output_mode: "content", path: "many.txt", head_limit: 3, offset: 2 });
    expect(result.content).toBe(
      `${path.join("many.txt")}:3:hit 3\nmany.txt:4:hit 4\nmany.txt:5:hit 5\n\n(Showing lines 3-5 of 10. Use offset=5 to see more.)`,
    );
    expect(result.details).toMatchObject({ numLines: 3, totalLines: 10, appliedLimit: 3, appliedOffset: 2 });
  });

  it.skipIf(skip)("multiline matches span lines; -o prints only the matched text", async () => {
    const multiline = await run({ pattern: "add\\(.*?return", multiline: true, output_mode: "content" });
    expect(multiline.content).toBe("src/util.ts:2:export function add(a: number, b: number) {\nsrc/util.ts:3:  return a + b;");
    const onlyMatching = await run({ pattern: "[0-9]+", output_mode: "content", "-o": true, path: "README.md" });
    expect(onlyMatching.content).toBe("README.md:1:42");
  });

  it.skipIf(skip)("finds matches in a file larger than one read chunk, with correct line numbers", async () => {
    const filler = Array.from({ length: 60_000 }, (_, index) => `filler line ${index + 1} with some padding text`).join("\n");
    await writeTree(directory, { "big.log": `${filler}\nthe needle line\n${filler}\n` });
    const result = await run({ pattern: "needle", output_mode: "content", path: "big.log" });
    expect(result.content).toBe("big.log:60001:the needle line");
  });

  // More files than the built-in backend searches on the main thread, so most go through its
  // screening workers (and, for a literal, its byte prefilter).
  it.skipIf(skip)("a tree of thousands of files: literal, case-insensitive, regex, lookaround and multiline searches agree", async () => {
    const filler = "export const value = compute(1, 'ordinary text');\n".repeat(20);
    const tree: Record<string, string | Buffer> = {};
    for (let index = 0; index < 1500; index += 1) tree[`bulk/d${Math.floor(index / 100)}/f${index}.ts`] = filler;
    for (const index of [3, 250, 777, 1001, 1499])
      tree[`bulk/d${Math.floor(index / 100)}/f${index}.ts`] = `${filler}// the Needle_Token is here\n${filler}`;
    tree["bulk/d3/lower.ts"] = "a needle_token in lower case\n";
    tree["bulk/d9/binary.bin"] = Buffer.from("Needle_Token\0binary");
    tree["build/ignored.ts"] = "Needle_Token\n";
    tree["bulk/d12/huge.log"] = `${"filler line of text\n".repeat(70_000)}last Needle_Token line\n`;
    await writeTree(directory, tree);
    const matching = ["bulk/d0/f3.ts", "bulk/d2/f250.ts", "bulk/d7/f777.ts", "bulk/d10/f1001.ts", "bulk/d14/f1499.ts", "bulk/d12/huge.log"];
    const filenames = async (input: Record<string, unknown>) => ((await run(input)).details as { filenames: string[] }).filenames.sort();

    expect(await filenames({ pattern: "Needle_Token" })).toEqual([...matching].sort());
    expect(await filenames({ pattern: "needle_token", "-i": true })).toEqual([...matching, "bulk/d3/lower.ts"].sort());
    expect(await filenames({ pattern: "Need.e_Tok[e]n" })).toEqual([...matching].sort());
    expect(await filenames({ pattern: "(?<=the )Needle_Token" })).toEqual(matching.filter((file) => file.endsWith(".ts")).sort());
    expect(await filenames({ pattern: "here\\n\\s*export", multiline: true })).toEqual(
      matching.filter((file) => file.endsWith(".ts")).sort(),
    );
    expect(await filenames({ pattern: "Needle_Token", type: "ts" })).toEqual(matching.filter((file) => file.endsWith(".ts")).sort());
    const count = await run({ pattern: "Needle_Token", output_mode: "count" });
    expect(count.details).toMatchObject({ numFiles: 6, numMatches: 6 });
    const content = await run({ pattern: "Needle_Token", output_mode: "content", path: "bulk/d10" });
    expect(content.content).toBe("bulk/d10/f1001.ts:21:// the Needle_Token is here");
  });

  it.skipIf(skip)("on thousands of matching files, stops at the collected-lines cap and says so", async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 1500; index += 1) tree[`many/f${index}.txt`] = "hit line\n".repeat(20);
    await writeTree(directory, tree);
    const result = await run({ pattern: "hit", output_mode: "content", head_limit: 1 });
    expect(result.content).toContain("The search stopped early");
  });

  it.skipIf(skip)("no match is not an error", async () => {
    expect(await run({ pattern: "zzz_not_there" })).toMatchObject({ content: "No files found", isError: false });
    expect(await run({ pattern: "zzz_not_there", output_mode: "content" })).toMatchObject({ content: "No matches found", isError: false });
  });

  it.skipIf(skip)("an invalid regular expression is invalid_input", async () => {
    const result = await run({ pattern: "foo(bar" });
    expect(result.code).toBe("invalid_input");
    expect(result.isError).toBe(true);
  });

  it.skipIf(skip)("an unknown type is invalid_input", async () => {
    const result = await run({ pattern: "x", type: "nosuchtype" });
    expect(result.code).toBe("invalid_input");
  });

  it.skipIf(skip)("a glob cannot reach files outside the workspace through a link or `..`", async () => {
    const outside = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-grep-outside-")));
    try {
      await writeTree(outside, { "secret.ts": "export const answer = 'outside';\n" });
      await symlink(outside, path.join(directory, "link"));
      const relativeOutside = path.relative(directory, outside);
      for (const glob of ["link/*", "link/**", "{link,src}/*", `${relativeOutside}/*`, `{${relativeOutside},src}/*.ts`]) {
        const result = await run({ pattern: "answer", glob, output_mode: "content" });
        expect(result.content, glob).not.toMatch(/outside/);
      }
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it.skipIf(skip)("a path outside the workspace is outside_workspace; a missing one file_not_found", async () => {
    expect((await run({ pattern: "x", path: "/etc" })).code).toBe("outside_workspace");
    expect((await run({ pattern: "x", path: "missing" })).code).toBe("file_not_found");
  });
});

describe("grepTool (builtin backend) on a large tree", () => {
  it("throws the abort reason when the signal aborts during the search", async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 3000; index += 1) tree[`many/d${index % 30}/f${index}.txt`] = "nothing here\n";
    await writeTree(directory, tree);
    const controller = new AbortController();
    const search = createGrepTool({ backend: "builtin" }).execute(
      { pattern: "zzz" } as never,
      makeToolContext(directory, { signal: controller.signal }),
    );
    setImmediate(() => controller.abort(new Error("user interrupt")));
    await expect(search).rejects.toThrow("user interrupt");
  });
});
