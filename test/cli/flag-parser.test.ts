import { describe, expect, it } from "vitest";
import { FlagError, parseFlags } from "../../src/cli/flag-parser.js";

const TABLE = {
  print: { alias: "p", type: "string" },
  verbose: { type: "boolean", default: false },
  skills: { type: "boolean", default: true },
  "output-format": { type: "string", choices: ["text", "json"], default: "text" },
  "max-turns": { type: "number" },
  allowedTools: { type: "string", array: true },
  continue: { alias: "c", type: "boolean", default: false },
} as const;

const parse = (...argv: string[]) => parseFlags(argv, TABLE).values;

describe("the command-line flag parser", () => {
  it("reads --name value, --name=value, short aliases, and fills defaults", () => {
    expect(parse("-p", "hi", "--output-format=json", "--max-turns", "3")).toEqual({ print: "hi", verbose: false, skills: true, "output-format": "json", "max-turns": 3, continue: false, _: [] });
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
    expect(parse("--allowedTools", "Read", "--allowedTools", "Bash(npm:*)", "prompt")).toMatchObject({ allowedTools: ["Read", "Bash(npm:*)"], _: ["prompt"] });
    expect(parse("--max-turns", "2", "--max-turns", "5")).toMatchObject({ "max-turns": 5 });
  });

  it("takes the kebab-case and camelCase spellings of one flag as the same flag", () => {
    expect(parse("--allowed-tools", "Read", "--outputFormat", "json", "--maxTurns=4")).toMatchObject({ allowedTools: ["Read"], "output-format": "json", "max-turns": 4 });
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
    expect(() => parse("--output-format", "yaml")).toThrowError(/Invalid values:\n {2}Argument: output-format, Given: "yaml", Choices: "text", "json"/);
    expect(parse("--max-turns", "many")["max-turns"]).toBeNaN();
  });
});
