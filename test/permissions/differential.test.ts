import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isReadOnlyCommand } from "../../src/permissions/shell/bash-classifier.js";
import { decidePermission } from "../../src/permissions/policy.js";
import { READ_ONLY_PROGRAMS } from "../../src/permissions/shell/read-only-programs.js";
import { parseShell } from "../../src/permissions/shell/shell-syntax.js";
import { traitsOf } from "../helpers/tool-traits.js";
import { corpusPrograms, generateCorpus } from "./command-corpus.js";
import { createWatchedTree, watchCommands, watcherProblem, type WatchedTree } from "./differential-watch.js";

/**
 * The differential test: the classifier's judgement against what the commands really do. Every
 * command of a generated corpus that default mode would run without a question is executed in a
 * throwaway tree under bwrap and strace; a single write, network connection, program the command
 * line does not name, or file opened outside the tree and the system folders fails the test,
 * naming the command.
 */

const problem = watcherProblem();
const skipped = problem === undefined ? "" : ` (skipped: ${problem})`;

/** Programs a command may start besides the ones it names: egrep and fgrep are scripts that run grep. */
const STARTED_BY: Record<string, string[]> = { egrep: ["grep"], fgrep: ["grep"] };

function namedPrograms(command: string): string[] {
  return parseShell(command).commands.flatMap((simple) => {
    const name = path.basename(simple.words[0]?.text ?? "");
    return [name, ...(STARTED_BY[name] ?? [])];
  });
}

function autoApproved(command: string, roots: string[]): boolean {
  const verdict = decidePermission({
    toolName: "Bash",
    input: { command },
    traits: traitsOf("Bash"),
    mode: "default",
    rules: { allow: [], deny: [], ask: [] },
    roots,
  });
  return verdict.behavior === "allow";
}

describe(`differential: commands run without a question only read inside the workspace${skipped}`, () => {
  let temporary: string;
  let watched: WatchedTree;

  beforeAll(() => {
    temporary = mkdtempSync(path.join(os.tmpdir(), "agentwire-differential-"));
    watched = createWatchedTree(path.join(temporary, "world"), path.join(temporary, "watch"));
  });

  afterAll(() => {
    rmSync(temporary, { recursive: true, force: true });
  });

  it("the corpus covers every allow-listed program and is large enough", () => {
    const places = { outside: "/o", home: "/h" };
    expect(corpusPrograms(places)).toEqual(expect.arrayContaining([...READ_ONLY_PROGRAMS.keys()]));
    expect(generateCorpus(places).length).toBeGreaterThanOrEqual(2000);
    expect(generateCorpus(places)).toEqual(generateCorpus(places));
  });

  it.skipIf(problem !== undefined)("the watcher sees each kind of harm (so a clean run means something)", async () => {
    const harmful = [
      "sed -n '1e true' a.txt",
      "cat lnk/secret",
      "echo x > pwned",
      "grep -r secret lnk/",
      "cat $HOME/.netrc",
      "rm -f a.txt",
    ];
    const violations = await watchCommands(harmful, watched, namedPrograms, 1);
    const kinds = harmful.map((command) =>
      violations.filter((violation) => violation.command === command).map((violation) => violation.kind),
    );
    expect(kinds.map((found) => found[0])).toEqual(["exec", "read outside", "write", "read outside", "read outside", "write"]);
  });

  it.skipIf(problem !== undefined)(
    "no command judged safe writes, runs another program, connects or reads outside",
    { timeout: 300_000 },
    async () => {
      const corpus = generateCorpus({ outside: watched.outside, home: watched.home });
      const started = Date.now();
      const approved = corpus.filter((command) => autoApproved(command, [watched.tree]));
      const judgedAt = Date.now();
      const violations = await watchCommands(approved, watched, namedPrograms);
      const readOnly = corpus.filter(isReadOnlyCommand).length;
      const report = `${corpus.length} commands, ${readOnly} judged read-only, ${approved.length} run without a question (judged in ${judgedAt - started} ms, executed in ${Date.now() - judgedAt} ms)`;
      process.stderr.write(`differential: ${report}\n`);
      const byCommand = new Map<string, string[]>();
      for (const violation of violations)
        byCommand.set(violation.command, [...(byCommand.get(violation.command) ?? []), `${violation.kind}: ${violation.detail}`]);
      expect(
        [...byCommand].map(([command, details]) => `${JSON.stringify(command)} → ${details.slice(0, 3).join(" | ")}`),
        report,
      ).toEqual([]);
      // A classifier that judged nothing safe would pass trivially; it must keep its everyday use.
      expect(approved.length).toBeGreaterThan(500);
    },
  );
});
