import { namesOption } from "./lenient-options.js";
import { mayInjectArguments, type ShellWord } from "./shell-syntax.js";
import { ownEntry } from "../../validation/own-entry.js";

/**
 * Which git invocations only read. Git runs code from configuration (`core.fsmonitor`,
 * `diff.external`, pagers) — the policy protects `.git/` against edits for that reason — and from
 * a few options, which are refused here: `-c`, `-C`, `--git-dir` and every other global option
 * except the harmless ones below; `--output` (writes a file), `--ext-diff`, and `-O` /
 * `--open-files-in-pager` (run a program).
 */

const HARMLESS_GLOBAL_OPTIONS = new Set([
  "--no-pager",
  "-P",
  "--no-optional-locks",
  "--literal-pathspecs",
  "--no-replace-objects",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
]);

/** Subcommands whose every remaining option only changes what is shown. */
const INSPECTING_SUBCOMMANDS = new Set([
  "status",
  "log",
  "diff",
  "show",
  "blame",
  "describe",
  "shortlog",
  "grep",
  "rev-parse",
  "ls-files",
  "ls-tree",
  "cat-file",
  "rev-list",
  "merge-base",
  "show-ref",
  "for-each-ref",
  "name-rev",
  "count-objects",
  "version",
]);

/** Long options that write files or run programs; git also accepts any unambiguous abbreviation of them. */
const FORBIDDEN_LONG_OPTIONS = ["--output", "--open-files-in-pager", "--ext-diff"];

/** Subcommands that also change things, allowed only in their listing forms (options, no operands). */
const LISTING_FORMS: Record<string, RegExp> = {
  branch:
    /^(-[arvli]+|--(all|remotes|verbose|list|show-current|ignore-case|no-color|no-column|omit-empty)|--(sort|format|contains|no-contains|merged|no-merged|points-at)=.*|--(color|column)(=.*)?)$/,
  tag: /^(-[li]+|-n[0-9]*|--(list|ignore-case|no-column|omit-empty)|--(sort|format|contains|no-contains|merged|no-merged|points-at)=.*|--(color|column)(=.*)?)$/,
  remote: /^(-v|--verbose)$/,
};

const CONFIG_OPTION =
  /^(--(get|get-all|get-regexp|get-urlmatch|list|global|system|local|worktree|show-origin|show-scope|name-only|null|bool|int|bool-or-int|path|expiry-date|includes|no-includes)|-l|-z|--(type|default)=.*)$/;

export function isReadOnlyGit(args: readonly ShellWord[]): boolean {
  if (args.some(mayInjectArguments)) return false;
  const texts = args.map((word) => word.text);
  let index = 0;
  while (index < texts.length && texts[index]!.startsWith("-")) {
    if (texts[index] === "--version" && texts.length === 1) return true;
    if (!HARMLESS_GLOBAL_OPTIONS.has(texts[index]!)) return false;
    index++;
  }
  const [subcommand, ...rest] = texts.slice(index);
  if (subcommand === undefined) return false;
  if (INSPECTING_SUBCOMMANDS.has(subcommand)) return inspectingArgumentsAreSafe(rest);
  const listing = ownEntry(LISTING_FORMS, subcommand);
  if (listing) return rest.every((text) => listing.test(text));
  if (subcommand === "config") return isConfigRead(rest) && readsRepositoryConfigOnly(rest);
  // `git stash` alone stashes; `list` and `show` only read.
  if (subcommand === "stash")
    return (
      (rest[0] === "list" || rest[0] === "show") &&
      rest.slice(1).every((text) => text.startsWith("-")) &&
      inspectingArgumentsAreSafe(rest.slice(1))
    );
  return false;
}

function inspectingArgumentsAreSafe(texts: string[]): boolean {
  for (const text of texts) {
    if (text === "--") return true;
    if (namesOption(text, { letters: "O", longOptions: FORBIDDEN_LONG_OPTIONS })) return false;
  }
  return true;
}

/**
 * Only the repository's own file: without `--local` (or `--worktree`) git also prints
 * ~/.gitconfig and the system file, which lie outside the workspace and may hold tokens
 * (`http.extraHeader`, credentials in `url.*.insteadOf`); reading them asks like Read would.
 */
function readsRepositoryConfigOnly(texts: string[]): boolean {
  return (
    texts.some((text) => text === "--local" || text === "--worktree") && !texts.some((text) => text === "--global" || text === "--system")
  );
}

/** `git config --get x`, `git config -l`, `git config get x`, `git config list`. */
export function isConfigRead(texts: string[]): boolean {
  const options = texts.filter((text) => text.startsWith("-"));
  const operands = texts.filter((text) => !text.startsWith("-"));
  if (!options.every((text) => CONFIG_OPTION.test(text))) return false;
  if (operands[0] === "get") return operands.length >= 2;
  if (operands[0] === "list") return operands.length === 1;
  if (options.some((text) => text.startsWith("--get"))) return operands.length >= 1;
  return operands.length === 0 && options.some((text) => text === "--list" || text === "-l");
}
