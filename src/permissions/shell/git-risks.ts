import path from "node:path";
import { isSameOrInside, realPathOfNearestAncestor } from "../../paths/real-path.js";
import { resolveWordPath } from "./delete-risks.js";
import { readGit } from "./git-options.js";
import { namesOption, withoutPrefix } from "./lenient-options.js";
import { isConfigRead } from "./git-read-only.js";
import type { ShellWord } from "./shell-syntax.js";

/**
 * git commands that can do lasting damage or run programs a person did not see: force pushes and
 * remote deletes, configuration changed for good (`git config`) or for one command (`-c`,
 * `--config-env`, `GIT_CONFIG_*`, `GIT_PAGER`, …), and repositories outside the workspace, whose
 * own configuration git would load and obey (`core.fsmonitor` runs on `git status`).
 */

/**
 * Settings that only change how git behaves, not what it runs. Others (`core.fsmonitor`,
 * `core.pager`, `diff.external`, `alias.*`, `filter.*`, `include.path`, …) can make later,
 * read-only-looking git commands run programs.
 */
const HARMLESS_GIT_SETTINGS =
  /^(user\.(name|email)|init\.defaultbranch|pull\.(rebase|ff)|push\.(default|autosetupremote)|fetch\.prune|rebase\.autostash|merge\.conflictstyle|color\..+|advice\..+|core\.(autocrlf|filemode|ignorecase|quotepath|safecrlf|eol|abbrev)|(commit|tag)\.gpgsign|log\.(decorate|date|abbrevcommit)|diff\.(noprefix|mnemonicprefix|renames|algorithm|context)|status\.(short|branch|showuntrackedfiles)|gc\.auto|protocol\.version)$/i;
/** Values that run nothing unexpected: turning a program setting off, or a plain pager or editor. */
const HARMLESS_VALUES =
  /^\s*((cat|true|false|:|less|more|vi|vim|nvim|nano|emacs|code --wait)(\s+-[A-Za-z]+)*|0|1|no|off|yes|on|\/dev\/null)?\s*$/;
/** Settings whose value is a file or directory git reads: any value but /dev/null can bring in hooks or more settings. */
const PATH_SETTINGS = /^(include(if\..+)?\.path|core\.(hookspath|worktree|attributesfile|excludesfile)|init\.templatedir)$/i;
/** Environment variables that make git (or any program) run a command or read other configuration. */
const CODE_RUNNING_VARIABLES =
  /^(GIT_(CONFIG|CONFIG_PARAMETERS|CONFIG_COUNT|CONFIG_KEY_[0-9]+|CONFIG_VALUE_[0-9]+|CONFIG_GLOBAL|CONFIG_SYSTEM|EXTERNAL_DIFF|PAGER|EDITOR|SEQUENCE_EDITOR|SSH|SSH_COMMAND|ASKPASS|EXEC_PATH|PROXY_COMMAND|TEMPLATE_DIR)|PAGER|EDITOR|VISUAL|SSH_ASKPASS|LESSOPEN|LESSCLOSE|BASH_ENV|ENV|LD_PRELOAD|LD_AUDIT)$/;
/** Of those, the ones naming a file or directory to load. */
const PATH_VARIABLES = /^(GIT_(CONFIG|CONFIG_GLOBAL|CONFIG_SYSTEM|TEMPLATE_DIR|EXEC_PATH)|BASH_ENV|ENV|LD_PRELOAD|LD_AUDIT)$/;
/** Environment variables that point git at another repository. */
const REPOSITORY_VARIABLES = /^GIT_(DIR|WORK_TREE|COMMON_DIR)$/;

const FORCE_OPTIONS = ["--force", "--force-with-lease", "--force-if-includes"];
const REMOTE_DELETING_OPTIONS = ["--mirror", "--delete", "--prune"];

export function assessGit(words: readonly ShellWord[], cwd: string | undefined, roots: readonly string[]): string | undefined {
  const git = readGit(words);
  for (const option of git.globals) {
    const value = option.value?.text ?? "";
    if (option.name === "-c") {
      const reason = assessSetting(value, "on its command line");
      if (reason) return reason;
    }
    if (option.name === "--config-env" && !HARMLESS_GIT_SETTINGS.test(value.split("=", 1)[0]!)) {
      return `This command sets git configuration from an environment variable (${value}), which can make git run programs.`;
    }
    if (option.name === "--exec-path" && option.value) return `This command makes git run its helper programs from ${value}.`;
    if (["-C", "--git-dir", "--work-tree"].includes(option.name) && option.value && isOutside(option.value, cwd, roots)) {
      return `This command runs git on ${value}, outside the workspace: that repository's configuration can make git run programs.`;
    }
  }
  const args = git.args.map((word) => word.text);
  if (args.some((text) => text.startsWith("--template")) && ["init", "clone"].includes(git.subcommand ?? "")) {
    return "This command copies git hooks from a template directory into the new repository; they run on later git commands.";
  }
  if (git.subcommand === "clone") {
    const settings = args.flatMap((text, index) =>
      text === "-c" || text === "--config" ? [args[index + 1] ?? ""] : text.startsWith("--config=") ? [text.slice(9)] : [],
    );
    for (const setting of settings) {
      const reason = assessSetting(setting, "for the new repository");
      if (reason) return reason;
    }
  }
  if (git.subcommand === "config") return assessGitConfig(args);
  if (git.subcommand === "push")
    return assessPush(
      args,
      words
        .slice(1, words.length - git.args.length - 1)
        .map((word) => word.text)
        .join(" "),
    );
  return undefined;
}

/** `key=value` set for one command (`-c`) or a new clone (`--config`). */
function assessSetting(setting: string, where: string): string | undefined {
  const equals = setting.indexOf("=");
  const key = equals === -1 ? setting : setting.slice(0, equals);
  const value = equals === -1 ? "" : setting.slice(equals + 1);
  if (HARMLESS_GIT_SETTINGS.test(key)) return undefined;
  if (PATH_SETTINGS.test(key) ? /^\s*(\/dev\/null)?\s*$/.test(value) : HARMLESS_VALUES.test(value)) return undefined;
  return `This command sets git configuration ${where} (${setting}), which can make git run programs.`;
}

/**
 * Assignments that change what git or a pager runs (`GIT_PAGER='…' git log`, `export
 * GIT_CONFIG_COUNT=1`, `env GIT_SSH_COMMAND=…`), or point git at a repository outside the
 * workspace. Values that run nothing (`GIT_PAGER=cat`, `GIT_EDITOR=true`) are fine.
 */
export function assessAssignments(
  assignments: readonly ShellWord[],
  cwd: string | undefined,
  roots: readonly string[],
): string | undefined {
  for (const assignment of assignments) {
    const equals = assignment.text.indexOf("=");
    if (equals === -1) continue;
    const name = assignment.text.slice(0, equals).replace(/\+$/, "");
    const value = assignment.text.slice(equals + 1);
    const harmless = PATH_VARIABLES.test(name) ? /^\s*(\/dev\/null)?\s*$/.test(value) : HARMLESS_VALUES.test(value);
    if (CODE_RUNNING_VARIABLES.test(name) && !harmless)
      return `This command sets ${name}, which makes git or other programs run what it names (${value}).`;
    if (REPOSITORY_VARIABLES.test(name) && isOutside(withoutPrefix(assignment, assignment.text.slice(0, equals + 1)), cwd, roots)) {
      return `This command points git at ${value} (${name}), outside the workspace: that repository's configuration can make git run programs.`;
    }
  }
  return undefined;
}

function isOutside(word: ShellWord, cwd: string | undefined, roots: readonly string[]): boolean {
  const target = resolveWordPath(word, cwd);
  if (target === undefined) return true;
  const real = realPathOfNearestAncestor(target);
  return !roots.some(
    (root) => isSameOrInside(target, path.resolve(root)) && isSameOrInside(real, realPathOfNearestAncestor(path.resolve(root))),
  );
}

function assessPush(args: string[], globalOptions: string): string | undefined {
  // git accepts unambiguous abbreviations (`--forc`), so a prefix of a dangerous option counts.
  const names = (options: { letters: string; longOptions: readonly string[] }) => args.some((text) => namesOption(text, options));
  if (names({ letters: "f", longOptions: FORCE_OPTIONS }) || args.some((text) => text.startsWith("+"))) {
    return "This command force-pushes, which can destroy remote history.";
  }
  if (
    names({ letters: "d", longOptions: REMOTE_DELETING_OPTIONS }) ||
    args.some((text) => text.startsWith(":")) ||
    /mirror/i.test(globalOptions)
  ) {
    return "This command deletes or overwrites branches on the remote (git push --delete/--mirror/--prune or :branch).";
  }
  return undefined;
}

function assessGitConfig(args: string[]): string | undefined {
  if (isConfigRead(args)) return undefined;
  const operands = args.filter((text) => !text.startsWith("-"));
  const key = ["set", "unset"].includes(operands[0] ?? "") ? operands[1] : operands[0];
  if (key !== undefined && HARMLESS_GIT_SETTINGS.test(key) && !args.some((text) => /^(-e|--edit|--file|-f|--blob)/.test(text)))
    return undefined;
  return `This command changes git configuration (${key ?? args.join(" ")}), which can make later git commands run programs.`;
}
