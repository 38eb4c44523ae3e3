import { optionValues, scanArguments, type LenientGrammar, type ScannedOption } from "./lenient-options.js";
import type { ShellWord } from "./shell-syntax.js";
import { ownEntry } from "../../validation/own-entry.js";

/**
 * How a git command line reads, for deny rules and the risk sentinel: its global options, its
 * subcommand, the files it writes (`--output`, `format-patch -o`, `clone DIR`, …) and the command
 * lines it runs (`-c core.pager=…`, `rebase --exec`, `bisect run`, `ext::` URLs, …).
 */
export interface GitInvocation {
  globals: ScannedOption[];
  subcommand: string | undefined;
  /** The words after the subcommand. */
  args: ShellWord[];
  /** Where relative paths start, from `-C` (undefined: the shell's working directory). */
  directory: ShellWord | undefined;
}

const GLOBAL_GRAMMAR: LenientGrammar = {
  shortWithValue: "Cc",
  longWithValue: ["--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--list-cmds", "--attr-source"],
  longWithAttachedValue: ["--exec-path"],
  stopAtOperand: true,
};

export function readGit(words: readonly ShellWord[]): GitInvocation {
  const scanned = scanArguments(words, GLOBAL_GRAMMAR);
  const directories = scanned.options.flatMap((option) => (option.name === "-C" && option.value ? [option.value] : []));
  return {
    globals: scanned.options,
    subcommand: words[scanned.end]?.text,
    args: words.slice(scanned.end + 1),
    directory: joinDirectories(directories),
  };
}

/** `git -C a -C b` works in `a/b`; an absolute later one replaces the earlier. */
function joinDirectories(directories: ShellWord[]): ShellWord | undefined {
  return directories.reduce<ShellWord | undefined>(
    (joined, next) =>
      joined === undefined || next.text.startsWith("/") || next.text.startsWith("~")
        ? next
        : { text: `${joined.text}/${next.text}`, segments: [...joined.segments, { kind: "quoted", text: "/" }, ...next.segments] },
    undefined,
  );
}

/** Options of any subcommand whose value is a shell command line. */
const COMMAND_OPTIONS = [
  "--exec",
  "--extcmd",
  "--upload-pack",
  "--receive-pack",
  "--sendmail-cmd",
  "--to-cmd",
  "--cc-cmd",
  "--header-cmd",
  "--env-filter",
  "--tree-filter",
  "--index-filter",
  "--parent-filter",
  "--msg-filter",
  "--commit-filter",
  "--tag-name-filter",
];
/** Subcommands whose `-x`/`-u` is a command line (`rebase -x`, `difftool -x`, `clone -u`). */
const SHORT_COMMAND_OPTIONS: Readonly<Record<string, string>> = {
  rebase: "x",
  difftool: "x",
  clone: "u",
  "ls-remote": "u",
  fetch: "u",
  pull: "u",
};

/**
 * Command lines a git invocation may run: values of `-c key=value` (aliases without their `!`),
 * command options of subcommands, `bisect run …`, `submodule foreach …`, and `ext::` remote URLs.
 * Guesses for deny rules and the sentinel; they only ever add matches.
 */
export function gitCommandLines(words: readonly ShellWord[]): string[] {
  const git = readGit(words);
  const lines = git.globals.flatMap((option) => (option.name === "-c" && option.value ? [configValue(option.value.text)] : []));
  const texts = git.args.map((word) => word.text);
  texts.forEach((text, index) => {
    const equals = text.indexOf("=");
    const name = equals === -1 ? text : text.slice(0, equals);
    if (COMMAND_OPTIONS.includes(name)) lines.push(equals === -1 ? (texts[index + 1] ?? "") : text.slice(equals + 1));
    const short = SHORT_COMMAND_OPTIONS[git.subcommand ?? ""];
    if (short !== undefined && text.startsWith(`-${short}`) && !text.startsWith("--"))
      lines.push(text.length > 2 ? text.slice(2) : (texts[index + 1] ?? ""));
    if (text.startsWith("ext::")) lines.push(text.slice(5).replace(/%(.)/g, "$1"));
  });
  if (git.subcommand === "bisect" && texts[0] === "run") lines.push(texts.slice(1).join(" "));
  if (git.subcommand === "submodule" && texts.includes("foreach"))
    lines.push(
      texts
        .slice(texts.indexOf("foreach") + 1)
        .filter((text) => text !== "--recursive")
        .join(" "),
    );
  return lines.filter((line) => line.trim() !== "");
}

/** `alias.x=!rm y` → `rm y`; `core.pager=less -R` → `less -R`. */
function configValue(setting: string): string {
  const value = setting.slice(setting.indexOf("=") + 1);
  return value.replace(/^!/, "");
}

/** Long options of any subcommand whose value is a file or directory git writes. */
const WRITTEN_LONG_OPTIONS = ["--output", "--output-directory", "--export-marks", "--separate-git-dir"];
/** Written-file options of one subcommand only (`--prefix` of checkout-index, `--file` of credential-store). */
const SUBCOMMAND_WRITTEN_LONG_OPTIONS: Readonly<Record<string, string>> = { "checkout-index": "--prefix", "credential-store": "--file" };
/** Subcommands whose `-o` names what they write. */
const WRITTEN_SHORT_O = new Set(["format-patch", "archive", "index-pack"]);
/** Subcommands whose operands after the first (or the only one) name a directory they create. */
const DIRECTORY_CREATING: Readonly<Record<string, (operands: ShellWord[]) => ShellWord[]>> = {
  clone: (operands) => operands.slice(1, 2),
  init: (operands) => operands.slice(0, 1),
  bundle: (operands) => (operands[0]?.text === "create" ? operands.slice(1, 2) : []),
  worktree: (operands) => (operands[0]?.text === "add" ? operands.slice(1, 2) : []),
};

/**
 * Files and directories a git invocation writes, by option or operand. git accepts any
 * unambiguous abbreviation of a long option (`--outp=f`), and so does scanArguments.
 */
export function gitWrittenPaths(git: GitInvocation): ShellWord[] {
  const subcommand = git.subcommand ?? "";
  const extra = ownEntry(SUBCOMMAND_WRITTEN_LONG_OPTIONS, subcommand);
  const longOptions = extra === undefined ? WRITTEN_LONG_OPTIONS : [...WRITTEN_LONG_OPTIONS, extra];
  const grammar: LenientGrammar = { longWithValue: longOptions, ...(WRITTEN_SHORT_O.has(subcommand) ? { shortWithValue: "o" } : {}) };
  const scanned = scanArguments(git.args, grammar, 0);
  return [...optionValues(scanned, [...longOptions, "-o"]), ...(ownEntry(DIRECTORY_CREATING, subcommand)?.(scanned.operands) ?? [])];
}
