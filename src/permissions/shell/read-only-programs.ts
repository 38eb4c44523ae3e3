import { isReadOnlyGit } from "./git-read-only.js";
import { isReadOnlyJq } from "./jq-invocation.js";
import { namesOption } from "./lenient-options.js";
import { parseArguments, type OptionGrammar } from "./option-grammar.js";
import { isPrintOnlySedScript } from "./sed-script.js";
import { isDynamic, mayInjectArguments, type ShellWord } from "./shell-syntax.js";
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

/** Options that appear in several grammars. */
/** file without `-f`/`--files-from` (names read from a file), `-m` (magic files) and `-C` (writes one). */
const FILE_OPTIONS: OptionGrammar = {
  flags: "bcdEhiklLNnrsv0",
  withValue: "eF",
  longFlags: [
    "--brief",
    "--mime",
    "--mime-type",
    "--mime-encoding",
    "--dereference",
    "--no-dereference",
    "--keep-going",
    "--special-files",
    "--raw",
    "--print0",
    "--no-pad",
    "--no-buffer",
    "--extension",
    "--apple",
  ],
  longWithValue: ["--separator", "--exclude", "--exclude-quiet"],
};

/** tree without `-o` (output file), `-R` (writes 00Tree.html files) and `-H`. */
const TREE_OPTIONS: OptionGrammar = {
  flags: "adlfxiqNQpugshDrtcUvCAnSJX",
  withValue: "LPI",
  longFlags: [
    "--gitignore",
    "--dirsfirst",
    "--filesfirst",
    "--noreport",
    "--prune",
    "--matchdirs",
    "--ignore-case",
    "--du",
    "--si",
    "--metafirst",
    "--info",
    "--inodes",
    "--device",
  ],
  longWithValue: ["--charset", "--filelimit", "--timefmt", "--sort"],
};

/** sort without `-o`/`--output`, `--compress-program` (runs a program) and `-T`. */
const SORT_OPTIONS: OptionGrammar = {
  flags: "bdfgiMhnRrVcCsumz",
  withValue: "ktS",
  longFlags: [
    "--ignore-leading-blanks",
    "--dictionary-order",
    "--ignore-case",
    "--general-numeric-sort",
    "--ignore-nonprinting",
    "--month-sort",
    "--human-numeric-sort",
    "--numeric-sort",
    "--random-sort",
    "--reverse",
    "--version-sort",
    "--stable",
    "--unique",
    "--merge",
    "--zero-terminated",
    "--debug",
  ],
  longWithValue: ["--key", "--field-separator", "--buffer-size", "--sort", "--parallel"],
  longWithAttachedValue: ["--check"],
};

const UNIQ_OPTIONS: OptionGrammar = {
  flags: "cdDuiz",
  withValue: "fsw",
  longFlags: ["--count", "--repeated", "--unique", "--ignore-case", "--zero-terminated"],
  longWithValue: ["--skip-fields", "--skip-chars", "--check-chars"],
  longWithAttachedValue: ["--all-repeated", "--group"],
};

/** date without `-s`/`--set` and without a `MMDDhhmm` operand, both of which set the clock. */
const DATE_OPTIONS: OptionGrammar = {
  flags: "uR",
  withValue: "dr",
  withAttachedValue: "I",
  longFlags: ["--utc", "--universal", "--rfc-email", "--debug"],
  longWithValue: ["--date", "--reference", "--rfc-3339"],
  longWithAttachedValue: ["--iso-8601"],
};

/** ripgrep without `--pre`/`--pre-glob` and `--hostname-bin` (run programs) or `-z` (runs decompressors). */
const RIPGREP_OPTIONS: OptionGrammar = {
  flags: "abcFHhiIlLnNopqsSuUvwxP0.",
  withValue: "ABCefgjmMrtTEd",
  longFlags: [
    "--hidden",
    "--no-ignore",
    "--no-ignore-vcs",
    "--no-ignore-parent",
    "--no-ignore-dot",
    "--no-ignore-global",
    "--no-ignore-exclude",
    "--no-ignore-files",
    "--no-require-git",
    "--follow",
    "--files",
    "--files-with-matches",
    "--files-without-match",
    "--count",
    "--count-matches",
    "--json",
    "--line-number",
    "--no-line-number",
    "--column",
    "--no-heading",
    "--heading",
    "--with-filename",
    "--no-filename",
    "--ignore-case",
    "--smart-case",
    "--case-sensitive",
    "--word-regexp",
    "--line-regexp",
    "--fixed-strings",
    "--invert-match",
    "--multiline",
    "--multiline-dotall",
    "--only-matching",
    "--pretty",
    "--vimgrep",
    "--stats",
    "--null",
    "--null-data",
    "--text",
    "--binary",
    "--no-messages",
    "--quiet",
    "--trim",
    "--passthru",
    "--glob-case-insensitive",
    "--crlf",
    "--byte-offset",
    "--no-config",
    "--type-list",
    "--one-file-system",
    "--pcre2",
    "--unrestricted",
    "--max-columns-preview",
    "--include-zero",
    "--sort-files",
    "--version",
    "--help",
  ],
  longWithValue: [
    "--glob",
    "--iglob",
    "--type",
    "--type-not",
    "--type-add",
    "--max-count",
    "--max-depth",
    "--maxdepth",
    "--max-filesize",
    "--context",
    "--after-context",
    "--before-context",
    "--regexp",
    "--file",
    "--replace",
    "--sort",
    "--sortr",
    "--color",
    "--colors",
    "--threads",
    "--encoding",
    "--max-columns",
    "--ignore-file",
    "--path-separator",
    "--context-separator",
    "--engine",
  ],
};

/** sed without `-i`/`--in-place` (writes), `-f`/`--file` (a script we cannot see) and `--follow-symlinks`. */
const SED_OPTIONS: OptionGrammar = {
  flags: "nErsuz",
  withValue: "e",
  longFlags: ["--quiet", "--silent", "--regexp-extended", "--separate", "--unbuffered", "--null-data", "--posix", "--debug", "--sandbox"],
  longWithValue: ["--expression"],
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

/** find's own expression language: start paths, then tests and actions; only these are allowed. */
const FIND_LEADING_OPTIONS = new Set(["-H", "-L", "-P"]);
const FIND_OPERATORS_AND_FLAGS = new Set([
  "(",
  ")",
  "!",
  ",",
  "-not",
  "-a",
  "-and",
  "-o",
  "-or",
  "-print",
  "-print0",
  "-ls",
  "-prune",
  "-empty",
  "-true",
  "-false",
  "-quit",
  "-readable",
  "-writable",
  "-executable",
  "-nouser",
  "-nogroup",
  "-depth",
  "-xdev",
  "-mount",
  "-follow",
  "-daystart",
  "-noleaf",
]);
const FIND_TESTS_WITH_VALUE = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-lname",
  "-ilname",
  "-regex",
  "-iregex",
  "-regextype",
  "-type",
  "-xtype",
  "-maxdepth",
  "-mindepth",
  "-newer",
  "-anewer",
  "-cnewer",
  "-size",
  "-mtime",
  "-mmin",
  "-atime",
  "-amin",
  "-ctime",
  "-cmin",
  "-perm",
  "-user",
  "-group",
  "-uid",
  "-gid",
  "-links",
  "-inum",
  "-samefile",
  "-printf",
  "-used",
  "-fstype",
]);

function isReadOnlyFind(args: readonly ShellWord[]): boolean {
  if (args.some(mayInjectArguments)) return false;
  const texts = args.map((word) => word.text);
  let index = 0;
  while (FIND_LEADING_OPTIONS.has(texts[index] ?? "")) index++;
  // Start paths run until the first word that opens the expression.
  while (index < texts.length && !/^[-(!),]/.test(texts[index]!)) index++;
  while (index < texts.length) {
    const text = texts[index]!;
    if (FIND_OPERATORS_AND_FLAGS.has(text)) index++;
    else if ((FIND_TESTS_WITH_VALUE.has(text) || /^-newer[aBcmt][aBcmt]$/.test(text)) && index + 1 < texts.length) index += 2;
    else return false;
  }
  return true;
}
