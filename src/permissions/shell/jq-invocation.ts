import { mayInjectArguments, type ShellWord } from "./shell-syntax.js";

/**
 * Whether a jq command only reads the files it names. Refused: options that read a file named in
 * their value without it being an input (`--rawfile`, `--slurpfile`, `-f`/`--from-file`, `-L`
 * module folders) and filters that use the module system (`import`, `include` read `.jq` and
 * JSON files found on a search path) or print the environment (`env`, `$ENV`), where provider
 * keys may live. Everything jq reads otherwise is an operand, which the outside-the-workspace
 * check sees.
 */

const FLAGS = new Set([
  "-r",
  "--raw-output",
  "-j",
  "--join-output",
  "-a",
  "--ascii-output",
  "-c",
  "--compact-output",
  "-n",
  "--null-input",
  "-s",
  "--slurp",
  "-e",
  "--exit-status",
  "-S",
  "--sort-keys",
  "-C",
  "--color-output",
  "-M",
  "--monochrome-output",
  "--tab",
  "-R",
  "--raw-input",
  "--seq",
  "--stream",
  "--raw-output0",
  "--args",
  "--jsonargs",
]);
/** Options followed by this many values. */
const WITH_VALUES = new Map([
  ["--indent", 1],
  ["--arg", 2],
  ["--argjson", 2],
]);
const UNSAFE_FILTER = /\b(import|include|modulemeta|get_search_list|env)\b|\$ENV\b/;

export function isReadOnlyJq(args: readonly ShellWord[]): boolean {
  if (args.some(mayInjectArguments)) return false;
  const texts = args.map((word) => word.text);
  let filter: string | undefined;
  let optionsEnded = false;
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index]!;
    if (!optionsEnded && text === "--") {
      optionsEnded = true;
      continue;
    }
    if (!optionsEnded && text.startsWith("-") && text !== "-") {
      const values = WITH_VALUES.get(text);
      if (values !== undefined) index += values;
      // Short flags may cluster (`-rc`); each letter must be a known flag.
      else if (!FLAGS.has(text) && !(/^-[a-zA-Z]{2,}$/.test(text) && [...text.slice(1)].every((letter) => FLAGS.has(`-${letter}`))))
        return false;
      continue;
    }
    filter ??= text;
  }
  return filter === undefined || !UNSAFE_FILTER.test(filter);
}
