import yargs from "yargs";
import { describe, expect, it } from "vitest";
import { parseFlags, type FlagOptions } from "../../src/cli/flag-parser.js";
import { ACCEPTED_BUT_IGNORED, RUN_OPTIONS, START_OPTIONS } from "../../src/cli/option-tables.js";
import { TRUST_OPTIONS } from "../../src/cli/trust-command.js";
import { WEB_OPTIONS } from "../../src/cli/web-command.js";

/**
 * The CLI reads argv with its own parser (loading yargs cost ~50 ms of CPU per start), and yargs
 * formats `--help` from the same tables. Here every flag of every table, in every form it can be
 * written, goes through both, and both must read the same: the tables mean one thing.
 */
const TABLES: Record<string, Record<string, FlagOptions>> = {
  run: { ...RUN_OPTIONS, ...ACCEPTED_BUT_IGNORED },
  start: { ...START_OPTIONS, ...ACCEPTED_BUT_IGNORED },
  web: WEB_OPTIONS,
  trust: TRUST_OPTIONS,
};

/** yargs as the CLI used it before the fast parser: strict options, repeated list flags kept, the last value winning otherwise. */
async function viaYargs(argv: string[], table: Record<string, FlagOptions>, greedy: boolean): Promise<Record<string, unknown>> {
  // yargs' own --help and --version off first: the tables declare their own.
  const parsed = (await yargs(argv)
    .help(false)
    .version(false)
    .options(table)
    .parserConfiguration({ "duplicate-arguments-array": true, "greedy-arrays": greedy, "strip-aliased": true })
    .strictOptions()
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new Error(message);
    })
    .parseAsync()) as Record<string, unknown>;
  const values: Record<string, unknown> = { _: (parsed._ as unknown[]).map(String) };
  for (const [name, options] of Object.entries(table)) {
    const value = parsed[name];
    if (value !== undefined) values[name] = options.array || !Array.isArray(value) ? value : value.at(-1);
  }
  return values;
}

const camel = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const aliases = (options: FlagOptions) => (options.alias === undefined ? [] : [options.alias].flat());

/** A value the flag accepts: one of its choices, a number, or a word. */
function sample(options: FlagOptions, index = 0): string {
  const choices = options.choices as readonly string[] | undefined;
  if (choices) return choices[index % choices.length]!;
  return options.type === "number" ? String(7 + index) : `value${index}`;
}

/**
 * Every way to write the flag (its name, its other spelling, its aliases; `--x v`, `--x=v`,
 * `--no-x`, lists) as argv, each with a prompt word.
 */
function forms(name: string, options: FlagOptions): Array<{ argv: string[]; greedy: boolean }> {
  const names = new Set([`--${name}`, `--${camel(name)}`, `--${kebab(name)}`]);
  const spellings = [...names, ...aliases(options).map((alias) => (alias.length === 1 ? `-${alias}` : `--${alias}`))];
  const result: Array<{ argv: string[]; greedy: boolean }> = [];
  for (const flag of spellings) {
    if (options.type === "boolean") {
      result.push({ argv: [flag, "prompt"], greedy: false });
      // `--print=…` never reaches the parser: print-prompt.ts takes it as the prompt.
      if (flag.startsWith("--") && options.nargs !== 0) result.push({ argv: [`${flag}=false`, "prompt"], greedy: false });
      if (flag.startsWith("--")) result.push({ argv: [`--no-${flag.slice(2)}`, "prompt"], greedy: false });
      result.push({ argv: [flag, "false", "prompt"], greedy: false }, { argv: [flag, "true", "prompt"], greedy: false });
      continue;
    }
    result.push({ argv: [flag, sample(options), "--", "prompt"], greedy: false });
    if (flag.startsWith("--")) result.push({ argv: [`${flag}=${sample(options, 1)}`, "prompt"], greedy: false });
    if (options.array) {
      result.push({ argv: [flag, sample(options), flag, sample(options, 1), "--", "prompt"], greedy: false });
      if (options.variadic) result.push({ argv: [flag, sample(options), sample(options, 1), "-h"], greedy: true });
    } else result.push({ argv: [flag, sample(options), flag, sample(options, 1), "--", "prompt"], greedy: false });
  }
  return result;
}

describe("every flag of the CLI's tables, parsed by the fast parser and by yargs", () => {
  for (const [command, table] of Object.entries(TABLES)) {
    it(`agentwire ${command}: ${Object.keys(table).length} flags`, async () => {
      let compared = 0;
      for (const [name, options] of Object.entries(table)) {
        for (const { argv, greedy } of forms(name, options)) {
          expect(parseFlags(argv, table).values, `${command} ${argv.join(" ")}`).toEqual(await viaYargs(argv, table, greedy));
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(Object.keys(table).length * 3);
    });
  }

  it("reads defaults alone, and flags mixed with prompt words, the same way", async () => {
    const { run } = TABLES;
    const lines = [
      [],
      ["fix", "the", "test"],
      ["-p", "hi", "--output-format", "json", "--verbose", "--max-turns", "3"],
      ["-c", "-r", "abc", "--model", "opus", "say"],
      ["--allowedTools", "Read", "--disallowedTools", "Bash", "--", "go"],
    ];
    for (const argv of lines) {
      expect(parseFlags(argv, run!).values, argv.join(" ")).toEqual(await viaYargs(argv, run!, false));
    }
  });
});
