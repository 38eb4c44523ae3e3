import type { Options } from "yargs";
import { didYouMean } from "../text/closest-name.js";

/**
 * A parse failure as the user reads it: an unknown flag is named as typed, with the nearest
 * known one when it looks mistyped (`--modle` → `--model`), and where the help is.
 */
export function describeFlagError(error: unknown, knownNames: readonly string[], helpCommand: string): string {
  if (!(error instanceof FlagError) || error.unknown.length === 0) return error instanceof Error ? error.message : String(error);
  const flags = error.unknown.map((name) => (name.length === 1 ? `-${name}` : `--${name}`));
  const hint = didYouMean(error.unknown, knownNames, (name) => `--${name}`);
  return `Unknown option${flags.length > 1 ? "s" : ""}: ${flags.join(", ")}.${hint} Run ${helpCommand} --help for the supported options.`;
}

/** Why argv could not be read: unknown flags (named as typed, without dashes) or a bad value. */
export class FlagError extends Error {
  constructor(
    message: string,
    readonly unknown: string[] = [],
  ) {
    super(message);
  }
}

/**
 * yargs' option shape (yargs formats `--help` from the same tables, ignoring what it does not
 * know) and what only this parser reads.
 */
export type FlagOptions = Options & {
  /**
   * Takes the words after its value too, up to the next flag (`--allowedTools Read "Bash(git:*)"`),
   * as Claude Code's `<values...>` options do; `--name=value` takes that one value only.
   */
  variadic?: boolean;
};

export interface ParsedFlags {
  /** Every option by its table name (defaults filled in), and `_`: the positional words. */
  values: Record<string, unknown> & { _: string[] };
}

/**
 * Reads argv against an option table in yargs' `Options` shape, with the meaning the CLI gave it
 * under yargs (strict options, greedy arrays off, duplicates kept for list flags and the last value
 * winning otherwise): `--name value`, `--name=value`, `-x value`, `--no-name` for booleans, a
 * following `true`/`false` taken by a boolean (not by one with `nargs: 0`, which never takes a
 * word), a string flag with nothing after it (or a flag next) is "", numbers coerced (NaN when not
 * one, for the schema to report), `--` ends the options, and `--kebab-case` / `--camelCase`
 * spellings of one flag are the same flag. Beyond yargs: `variadic` list flags, as Claude Code's.
 * Runs in well under a millisecond, where loading and running yargs cost ~50 ms of CPU per start
 * (bundled and minified, Node 20: 78 ms against 25 ms for a bare start); yargs still formats
 * `--help` from the same tables, and test/cli/flag-tables-parity.test.ts parses every flag of
 * every table both ways.
 */
export function parseFlags(argv: readonly string[], table: Record<string, FlagOptions>): ParsedFlags {
  const byName = new Map<string, [string, FlagOptions]>();
  for (const [name, options] of Object.entries(table)) {
    byName.set(name, [name, options]);
    byName.set(toCamel(name), [name, options]);
    byName.set(toKebab(name), [name, options]);
    for (const alias of aliasesOf(options)) byName.set(alias, [name, options]);
  }
  const values: Record<string, unknown> = {};
  const positionals: string[] = [];
  const unknown: string[] = [];
  const set = (name: string, options: FlagOptions, value: unknown): void => {
    if (options.array) values[name] = [...((values[name] as unknown[] | undefined) ?? []), value];
    else values[name] = value;
  };

  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--") {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    const long = argument.startsWith("--");
    const short = !long && argument.length > 1 && argument.startsWith("-") && Number.isNaN(Number(argument));
    if (!long && !short) {
      positionals.push(argument);
      continue;
    }
    const body = argument.slice(long ? 2 : 1);
    const equals = body.indexOf("=");
    const name = equals === -1 ? body : body.slice(0, equals);
    const inline = equals === -1 ? undefined : body.slice(equals + 1);
    let entry = byName.get(name);
    let negated = false;
    if (!entry && long && name.startsWith("no-") && byName.get(name.slice(3))?.[1].type === "boolean") {
      entry = byName.get(name.slice(3));
      negated = true;
    }
    if (!entry) {
      unknown.push(name);
      continue;
    }
    const [key, options] = entry;
    const next = argv[index + 1];
    if (options.type === "boolean") {
      let value = !negated;
      if (inline !== undefined) value = negated ? inline === "false" : inline !== "false";
      else if (options.nargs !== 0 && (next === "true" || next === "false")) {
        value = negated ? next === "false" : next === "true";
        index++;
      }
      set(key, options, value);
      continue;
    }
    let text = inline;
    if (text === undefined) {
      // A flag with nothing after it, or another flag next, has the empty value (`--model --verbose`).
      if (isWord(next)) {
        text = next;
        index++;
      } else text = "";
    }
    set(key, options, options.type === "number" ? (text === "" ? Number.NaN : Number(text)) : text);
    if (options.variadic && inline === undefined) {
      while (isWord(argv[index + 1])) set(key, options, argv[++index]);
    }
  }
  if (unknown.length > 0) throw new FlagError(`Unknown argument${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`, unknown);

  for (const [name, options] of Object.entries(table)) {
    const value = values[name];
    if (value === undefined && options.default !== undefined) values[name] = options.default;
    const choices = options.choices as readonly unknown[] | undefined;
    if (value !== undefined && choices) {
      const given = Array.isArray(value) ? value : [value];
      const bad = given.find((item) => !choices.includes(item));
      if (bad !== undefined)
        throw new FlagError(
          `Invalid values:\n  Argument: ${name}, Given: ${JSON.stringify(bad)}, Choices: ${choices.map((choice) => JSON.stringify(choice)).join(", ")}`,
        );
    }
  }
  return { values: { ...values, _: positionals } };
}

/** A value, not a flag: anything but `--`, `-x`, `--name` (a negative number is a value). */
function isWord(argument: string | undefined): argument is string {
  return (
    argument !== undefined && argument !== "--" && !(argument.startsWith("-") && argument.length > 1 && Number.isNaN(Number(argument)))
  );
}

function aliasesOf(options: Options): string[] {
  const alias = options.alias;
  return alias === undefined ? [] : Array.isArray(alias) ? alias : [alias as string];
}

const toCamel = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
const toKebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
