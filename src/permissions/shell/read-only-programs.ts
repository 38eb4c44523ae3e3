import { isReadOnlyFind } from "./find-read-only.js";
import { isReadOnlyGit } from "./git-read-only.js";
import { isReadOnlyJq } from "./jq-invocation.js";
import { namesOption } from "./lenient-options.js";
import { parseArguments } from "./option-grammar.js";
import {
  DATE_OPTIONS,
  FILE_OPTIONS,
  RIPGREP_OPTIONS,
  SED_OPTIONS,
  SORT_OPTIONS,
  TREE_OPTIONS,
  UNIQ_OPTIONS,
} from "./read-only-option-grammars.js";
import { isPrintOnlySedScript } from "./sed-script.js";
import { isDynamic, type ShellWord } from "./shell-syntax.js";
import { isHarmlessTestExpression } from "./test-expression.js";

/**
 * The programs a command may run and still count as read-only, each with a check of its
 * arguments. Allowlists throughout: an unknown program, option or form is not read-only.
 */
type ArgumentCheck = (args: readonly ShellWord[]) => boolean;

/**
 * No option of these writes a file, runs a program or evaluates code; they only choose what is
 * printed. Files they read are named on the command line, where the outside-the-workspace check
 * (command-paths.ts) sees them. `ps` and `lsof` are not here: they show other processes' command
 * lines and environments (agentwire's own keys among them), which no path check can bound. Nor
 * is npm: even `npm ls` writes a log under ~/.npm, and `view` asks a registry a project's .npmrc
 * chooses.
 */
const PRINTING_PROGRAMS = [
  "ls",
  "cat",
  "head",
  "tail",
  "echo",
  "pwd",
  "whoami",
  "id",
  "uname",
  "which",
  "type",
  "stat",
  "df",
  "grep",
  "egrep",
  "fgrep",
  "diff",
  "cmp",
  "cut",
  "tr",
  "column",
  "nl",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "true",
  "false",
  "seq",
  "uptime",
  "free",
  "nproc",
  "sleep",
];

/**
 * Printing programs with options that read files named inside another file or on stdin, where
 * no path check can see them: `--files0-from`, and the checksum programs' `-c`/`--check`.
 */
const REFUSED_OPTIONS: Record<string, { letters?: string; longOptions: readonly string[] }> = {
  wc: { longOptions: ["--files0-from"] },
  du: { longOptions: ["--files0-from"] },
  md5sum: { letters: "c", longOptions: ["--check"] },
  sha1sum: { letters: "c", longOptions: ["--check"] },
  sha256sum: { letters: "c", longOptions: ["--check"] },
  sha512sum: { letters: "c", longOptions: ["--check"] },
  cksum: { letters: "c", longOptions: ["--check"] },
};

export const READ_ONLY_PROGRAMS = new Map<string, ArgumentCheck>([
  ...PRINTING_PROGRAMS.map((name): [string, ArgumentCheck] => [name, () => true]),
  ...Object.entries(REFUSED_OPTIONS).map(([name, refused]): [string, ArgumentCheck] => [
    name,
    (args) => !args.some((word) => namesOption(word.text, refused)),
  ]),
  ["test", (args) => isHarmlessTestExpression(args, false)],
  ["[", (args) => isHarmlessTestExpression(args, true)],
  ["printf", isHarmlessPrintf],
  // With arguments, env runs a program; printenv with a name is harmless but kept to the plain form.
  ["env", (args) => args.length === 0],
  ["printenv", (args) => args.length === 0],
  ["file", (args) => parseArguments(args, FILE_OPTIONS) !== undefined],
  ["tree", (args) => parseArguments(args, TREE_OPTIONS) !== undefined],
  ["sort", (args) => parseArguments(args, SORT_OPTIONS) !== undefined],
  // `uniq input output` writes output; a pattern could expand to the second operand.
  ["uniq", (args) => args.every((word) => !isDynamic(word)) && (parseArguments(args, UNIQ_OPTIONS)?.operands.length ?? 2) <= 1],
  ["date", (args) => parseArguments(args, DATE_OPTIONS)?.operands.every((operand) => operand.text.startsWith("+")) ?? false],
  ["rg", (args) => parseArguments(args, RIPGREP_OPTIONS) !== undefined],
  ["jq", isReadOnlyJq],
  ["sed", isPrintOnlySed],
  ["find", isReadOnlyFind],
  ["git", isReadOnlyGit],
  ["node", (args) => args.length === 1 && (args[0]!.text === "--version" || args[0]!.text === "-v")],
]);

/** A conversion that reads its argument as a number (`%d`, `%5.2f`, a `*` width, bash's `%(…)T` time). */
const NUMERIC_CONVERSION = /%[-+ #0-9.]*(\*|[diouxXeEfFgGaA]|\([^)]*\)T)/;
const NUMBER = /^[+-]?[0-9]+(\.[0-9]+)?$/;

/**
 * printf without `-v` (assigns a variable, subscripts evaluated); the format written out; when it
 * converts numbers, the arguments too must be numbers written out, as ksh and zsh evaluate them
 * as arithmetic (`printf %d 'x[$(cmd)]'`).
 */
function isHarmlessPrintf(args: readonly ShellWord[]): boolean {
  const [format, ...values] = args;
  if (format === undefined || isDynamic(format) || format.text.startsWith("-")) return false;
  if (!NUMERIC_CONVERSION.test(format.text)) return true;
  return values.every((word) => !isDynamic(word) && NUMBER.test(word.text));
}

function isPrintOnlySed(args: readonly ShellWord[]): boolean {
  const parsed = parseArguments(args, SED_OPTIONS);
  if (!parsed) return false;
  const expressions = parsed.options
    .filter((option) => option.name === "-e" || option.name === "--expression")
    .map((option) => option.value ?? "");
  // Without -e, the first operand is the script; several -e scripts are one, joined by newlines.
  const scripts = expressions.length > 0 ? expressions : parsed.operands.slice(0, 1).map((operand) => operand.text);
  return scripts.length > 0 && isPrintOnlySedScript(scripts.join("\n"));
}
