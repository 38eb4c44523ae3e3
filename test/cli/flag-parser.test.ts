import yargs from "yargs";
import { describe, expect, it } from "vitest";
import { FlagError, parseFlags, type FlagOptions } from "../../src/cli/flag-parser.js";

const TABLE = {
  print: { alias: "p", type: "string" },
  flag: { alias: "f", type: "boolean", nargs: 0, default: false },
  tools: { type: "string", array: true, variadic: true },
  verbose: { type: "boolean", default: false },
  skills: { type: "boolean", default: true },
  "output-format": { type: "string", choices: ["text", "json"], default: "text" },
  "max-turns": { type: "number" },
  allowedTools: { type: "string", array: true },
  continue: { alias: "c", type: "boolean", default: false },
} as const satisfies Record<string, FlagOptions>;

const parse = (...argv: string[]) => parseFlags(argv, TABLE).values;

describe("the command-line flag parser", () => {
  it("reads --name value, --name=value, short aliases, and fills defaults", () => {
    expect(parse("-p", "hi", "--output-format=json", "--max-turns", "3")).toEqual({
      print: "hi",
      flag: false,
      verbose: false,
      skills: true,
      "output-format": "json",
      "max-turns": 3,
      continue: false,
      _: [],
    });
    expect(parse("-c", "--verbose")).toMatchObject({ continue: true, verbose: true });
  });

  it("gives a string flag with nothing after it, or a flag next, the empty value; the words are positionals", () => {
    expect(parse("-p")).toMatchObject({ print: "", _: [] });
    expect(parse("-p", "--verbose", "the prompt")).toMatchObject({ print: "", verbose: true, _: ["the prompt"] });
    expect(parse("say", "-p", "hi")).toMatchObject({ print: "hi", _: ["say"] });
  });

  it("negates booleans with --no-, and lets a boolean take a following true/false", () => {
    expect(parse("--no-skills")).toMatchObject({ skills: false });
    expect(parse("--skills", "false", "x")).toMatchObject({ skills: false, _: ["x"] });
    expect(parse("--verbose=false")).toMatchObject({ verbose: false });
    expect(parse("--verbose", "prompt")).toMatchObject({ verbose: true, _: ["prompt"] });
  });

  it("accumulates list flags one value per occurrence; other flags keep their last value", () => {
    expect(parse("--allowedTools", "Read", "--allowedTools", "Bash(npm:*)", "prompt")).toMatchObject({
      allowedTools: ["Read", "Bash(npm:*)"],
      _: ["prompt"],
    });
    expect(parse("--max-turns", "2", "--max-turns", "5")).toMatchObject({ "max-turns": 5 });
  });

  it("takes the kebab-case and camelCase spellings of one flag as the same flag", () => {
    expect(parse("--allowed-tools", "Read", "--outputFormat", "json", "--maxTurns=4")).toMatchObject({
      allowedTools: ["Read"],
      "output-format": "json",
      "max-turns": 4,
    });
  });

  it("ends the options at --, and takes negative numbers as words", () => {
    expect(parse("--", "--verbose", "-p")).toMatchObject({ verbose: false, _: ["--verbose", "-p"] });
    expect(parse("-5", "apples")).toMatchObject({ _: ["-5", "apples"] });
  });

  it("reports unknown flags (all of them, as typed) and values outside the choices; a number that is not one is NaN", () => {
    expect(() => parse("--modle", "x", "--bogus")).toThrowError(FlagError);
    try {
      parse("--modle", "x", "-z");
    } catch (error) {
      expect((error as FlagError).unknown).toEqual(["modle", "z"]);
    }
    expect(() => parse("--output-format", "yaml")).toThrowError(
      /Invalid values:\n {2}Argument: output-format, Given: "yaml", Choices: "text", "json"/,
    );
    expect(parse("--max-turns", "many")["max-turns"]).toBeNaN();
  });

  it("a boolean with nargs 0 never takes the word after it, as Claude Code's -p (`-p true` has the prompt true)", () => {
    expect(parse("-f", "true")).toMatchObject({ flag: true, _: ["true"] });
    expect(parse("--flag", "false", "-f")).toMatchObject({ flag: true, _: ["false"] });
  });

  it("a variadic list flag takes the words up to the next flag, as Claude Code's `<values...>` options", () => {
    expect(parse("--tools", "Read", "Bash", "prompt")).toMatchObject({ tools: ["Read", "Bash", "prompt"], _: [] });
    expect(parse("--tools", "Read", "Bash", "-f", "prompt")).toMatchObject({ tools: ["Read", "Bash"], flag: true, _: ["prompt"] });
    expect(parse("--tools", "Read", "--", "prompt")).toMatchObject({ tools: ["Read"], _: ["prompt"] });
    expect(parse("--tools", "Read", "--tools", "Grep", "Glob")).toMatchObject({ tools: ["Read", "Grep", "Glob"] });
    // `--tools=Read prompt`: the = form is one value, and the next word is the prompt (Claude Code 2.1.330 reads it so).
    expect(parse("--tools=Read", "prompt")).toMatchObject({ tools: ["Read"], _: ["prompt"] });
    expect(parse("--tools", "", "prompt")).toMatchObject({ tools: ["", "prompt"] });
  });
});

/**
 * yargs formats --help from the same tables, and the CLI parsed with it before: the fast parser
 * keeps its meaning (yargs configured as the CLI had it, greedy arrays for the variadic flags, the
 * last value of a repeated single flag winning). Where the two differ it is on purpose, to read
 * argv as Claude Code does: the cases at the end.
 */
describe("the flag parser against yargs", () => {
  async function viaYargs(argv: string[], greedy: boolean): Promise<Record<string, unknown>> {
    const parsed = (await yargs(argv)
      .options(TABLE)
      .parserConfiguration({ "duplicate-arguments-array": true, "greedy-arrays": greedy, "strip-aliased": true })
      .help(false)
      .version(false)
      .strictOptions()
      .exitProcess(false)
      .fail((message, error) => {
        throw error ?? new Error(message);
      })
      .parseAsync()) as Record<string, unknown>;
    const values: Record<string, unknown> = { _: (parsed._ as unknown[]).map(String) };
    for (const [name, options] of Object.entries(TABLE)) {
      const value = parsed[name];
      if (value !== undefined) values[name] = "array" in options || !Array.isArray(value) ? value : value.at(-1);
    }
    return values;
  }

  it.each([
    [["-p", "hi", "--output-format=json", "--max-turns", "3"]],
    [["say", "-p", "hi", "--verbose", "false", "x"]],
    [["--no-skills", "--skills", "true", "word"]],
    [["--allowedTools", "Read", "--allowedTools", "Bash(npm:*)", "prompt"]],
    [["--max-turns", "2", "--max-turns", "5", "-c"]],
    [["--output-format", "json", "-f", "true", "prompt"]],
    [["--", "--verbose", "-p"]],
  ])("non-greedy %j", async (argv) => {
    expect(parse(...argv)).toEqual(await viaYargs(argv, false));
  });

  // Greedy yargs is variadic for every list flag: these use only the variadic one.
  it.each([[["--tools", "Read", "Bash", "-f", "prompt"]], [["-f", "--tools", "Read", "--tools", "Grep", "Glob", "--verbose"]]])(
    "variadic %j",
    async (argv) => {
      expect(parse(...argv)).toEqual(await viaYargs(argv, true));
    },
  );

  it("differs on purpose: `--list=value` takes that value only, where greedy yargs takes the words after it too", async () => {
    expect(parse("--tools=Read", "prompt")._).toEqual(["prompt"]);
    expect((await viaYargs(["--tools=Read", "prompt"], true))._).toEqual([]);
  });
});
