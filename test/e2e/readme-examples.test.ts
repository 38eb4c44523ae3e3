import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, ROOT, runAgentwire, type Workspace } from "../helpers/agentwire.js";

/** What the README promises a new user, checked against the code and a real run. */
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

const readme = (): Promise<string> => readFile(join(ROOT, "README.md"), "utf8");

/** The README's section under `## title`, up to the next `## `. */
function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  expect(start, `README has a section "${title}"`).toBeGreaterThan(-1);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** Facts that differ from run to run: the session line's id and folder, the closing line's figures. */
function normalized(lines: string[]): string[] {
  return lines.map((line) =>
    line
      .replace(/^● session \S+ · (.*) · \S+ · (\w+)$/, "● session ID · $1 · CWD · $2")
      .replace(/^✓ success · (\d+ turns?) · .*$/, "✓ success · $1 · FIGURES"),
  );
}

describe("the README", () => {
  it("lists every src/ folder in its repository layout", async () => {
    const layout = section(await readme(), "Repository layout");
    const folders = (await readdir(join(ROOT, "src"), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !layout.includes(`| \`src/${folder}/\` |`))).toEqual([]);
  });

  it("says how to put agentwire on PATH and how another project depends on it", async () => {
    const setUp = section(await readme(), "Set up");
    expect(setUp).toContain("npm link");
    expect(setUp).toMatch(/npm install -g \.\/agentwire-[\d.]+\.tgz/);
    expect(setUp).toMatch(/npm install \S+agentwire-[\d.]+\.tgz/);
  });

  it("shows the render example as agentwire render prints that run", async () => {
    const text = await readme();
    const block = /```sh\n\$ (agentwire -p "Create notes\.txt, then fix it" [^\n]*\| agentwire render)\n([\s\S]*?)```/.exec(text);
    expect(block, "the render example").not.toBeNull();
    const [, command, shown] = block!;
    const prompt = /-p "([^"]+)"/.exec(command!)![1]!;
    const flags = command!
      .split("|")[0]!
      .replace(/^agentwire -p "[^"]+" /, "")
      .trim()
      .split(/\s+/);
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "Write", input: { file_path: "notes.txt", content: "alpha\nbeta\n" } }] },
        { tool_calls: [{ name: "Edit", input: { file_path: "notes.txt", old_string: "beta", new_string: "gamma" } }] },
        { tool_calls: [{ name: "Bash", input: { command: "wc -l notes.txt" } }] },
        { text: "Created notes.txt and replaced beta with gamma." },
      ],
    });
    const run = await runAgentwire(["-p", prompt, ...flags], { workspace });
    expect(run.code, run.stderr).toBe(0);
    const rendered = await runAgentwire(["render", "--no-color", "--width", "100"], { workspace, stdin: run.stdout });
    expect(normalized(rendered.stdout.trimEnd().split("\n"))).toEqual(normalized(shown!.trimEnd().split("\n")));
  });
});
