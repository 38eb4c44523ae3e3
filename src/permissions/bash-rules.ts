import { existsSync } from "node:fs";
import path from "node:path";
import { isHarmlessRedirection, isReadOnlySimpleCommand } from "./shell/bash-classifier.js";
import { commandPathsOutsideRoots } from "./shell/command-paths.js";
import { programInsideRoots } from "./shell/program-lookup.js";
import { commandsOf, normalizedWords } from "./shell/shell-commands.js";
import { isDynamic, parseShell, substitutedCommands, type ShellHazard, type ShellWord, type SimpleCommand } from "./shell/shell-syntax.js";

/**
 * Bash rule contents, as in Claude Code: `npm run:*` is a prefix rule (the command is `npm run`
 * or starts with `npm run `), `git*` a plain text prefix, anything else an exact command. A
 * command line is split into its commands first, so `git status && rm -rf src` is two commands.
 */

/** How deep `$(…)` inside allowed commands is followed. */
const MAX_NESTING = 4;

/**
 * Deny and ask rules: the rule matches if it names any command the line may run, seen through
 * wrappers and directory prefixes (`env rm`, `command rm`, `/bin/rm`, `sudo rm`, `ionice rm`,
 * `flock f rm`), substitutions and command lines passed as text (`sh -c "rm …"`, `find -exec rm`,
 * `bash <<< "rm x"`, `echo rm x | sh`), and later words of programs that may run them
 * (`mytool rm x`). A program whose name is only known when the line runs (`$(echo rm) x`, `$CMD
 * x`, `/bin/r?`) could be the one the rule names, so it matches too; so does a rule whose words
 * appear anywhere in the line when the line runs code that cannot be read here (`python -c …`,
 * `awk 'BEGIN{system(…)}'`, a script piped into a shell), and so does a program run by a path
 * that does not exist before the line runs (`cp $(ls /usr/bin/r[m]) zz && ./zz`, `cat … > zz`):
 * the line makes it, so what it is is only known then. `cwd` is where relative paths start. A
 * false match costs a refusal the user sees; a missed one runs what they forbade.
 */
export function bashRuleRestricts(contents: readonly string[], command: string, cwd: string): boolean {
  const found = commandsOf(command);
  const certain = found.filter((forms) => !forms.possible);
  if (certain.some((forms) => forms.views.some((view) => view[0] !== undefined && (isDynamic(view[0]) || isMadeByTheLine(view[0], cwd)))))
    return true;
  const views = found.flatMap((forms) => forms.views.map(normalizedWords));
  if (views.some((words) => contents.some((content) => contentMatches(content, words, normalizedWords)))) return true;
  // Code that could not be read, or nesting too deep to follow: a rule applies if its words appear anywhere in the text.
  return found.some((forms) => forms.unfollowed || forms.runsCode) && contents.some((content) => mentions(command, content));
}

/** A program named by a path (`./zz`, `bin/x`, `/tmp/x`) that is not there yet. */
function isMadeByTheLine(program: ShellWord, cwd: string): boolean {
  return program.text.includes("/") && !existsSync(path.resolve(cwd, program.text));
}

function mentions(command: string, content: string): boolean {
  const words = content
    .replace(/:?\*$/, "")
    .trim()
    .split(/\s+/)
    .filter((word) => word !== "");
  return (
    words.length > 0 &&
    words.every((word) => new RegExp(`(^|[^\\w.-])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\w.-])`).test(command))
  );
}

/**
 * Allow rules: the line is allowed only if every command in it matches an allow rule or is
 * read-only, including commands inside `$(…)`. Commands are compared as written (no wrappers
 * stripped, no `/bin/` dropped: `./git` is not `git`); assignment prefixes and redirections that
 * write files keep a command from matching. Backslash-newline is accepted here because the
 * tokenizer joins the lines exactly as bash does. A read-only command that rides along gets the
 * check it would get alone: nothing it reads may lie outside `roots`, and its program is not
 * found in them; and none rides along with an allowed `cd`, `export` or other builtin that
 * changes the shell, after which its paths and programs would mean something else.
 */
export function bashRulesAllow(contents: readonly string[], command: string, roots: readonly string[]): boolean {
  return coveredByRules(contents, command, (simple) => isReadOnlySimpleCommand(simple) && readsOnlyInside(simple, roots), 0);
}

/**
 * Whether the allow rules name every command of the line themselves, without the read-only
 * judgement's help: then a person chose to let exactly these commands run, and they run as
 * they are; a line the judgement approved (in whole or in part) runs confined where it can.
 */
export function bashRulesAllowWithoutJudgement(contents: readonly string[], command: string): boolean {
  return coveredByRules(contents, command, () => false, 0);
}

function coveredByRules(
  contents: readonly string[],
  command: string,
  judgedReadOnly: (simple: SimpleCommand) => boolean,
  depth: number,
): boolean {
  const script = parseShell(command);
  const tolerated = new Set<ShellHazard>(["substitution", "continuation"]);
  if ([...script.hazards].some((hazard) => !tolerated.has(hazard)) || depth > MAX_NESTING) return false;
  const allowedByRule = script.commands.map((simple) => matchesAsWritten(contents, simple));
  const changesShellState = script.commands.some(
    (simple, index) => allowedByRule[index] && SHELL_STATE_CHANGERS.has(simple.words[0]?.text ?? ""),
  );
  return script.commands.every(
    (simple, index) =>
      (allowedByRule[index] || (!changesShellState && judgedReadOnly(simple))) &&
      substitutedCommands(simple).every((inner) => coveredByRules(contents, inner, judgedReadOnly, depth + 1)),
  );
}

/** Builtins that change what later commands of the line mean: the directory, PATH, options. */
const SHELL_STATE_CHANGERS = new Set([
  "cd",
  "pushd",
  "popd",
  "export",
  "unset",
  "set",
  "shopt",
  "alias",
  "hash",
  "source",
  ".",
  "eval",
  "declare",
  "typeset",
  "local",
  "readonly",
  "enable",
]);

/** What the policy checks of a read-only command alone: no path outside, no program from the workspace. */
function readsOnlyInside(command: SimpleCommand, roots: readonly string[]): boolean {
  return commandPathsOutsideRoots(command, roots).length === 0 && programInsideRoots(command, roots) === undefined;
}

function matchesAsWritten(contents: readonly string[], command: SimpleCommand): boolean {
  if (command.assignments.length > 0 || !command.redirections.every(isHarmlessRedirection)) return false;
  const program = command.words[0];
  if (!program || isDynamic(program)) return false;
  return contents.some((content) => contentMatches(content, asWritten(command.words), asWritten));
}

/**
 * `words` is the command, `toWords` turns the rule's own text into words the same way (the rule
 * is tokenized like a command line, so quoting in rules works too).
 */
function contentMatches(content: string, words: readonly string[], toWords: (words: ShellWord[]) => string[]): boolean {
  if (words.length === 0) return false;
  const ruleWords = (text: string) => toWords(parseShell(text).commands[0]?.words ?? []);
  if (content.endsWith(":*")) {
    const prefix = ruleWords(content.slice(0, -2));
    return prefix.length > 0 && prefix.every((word, index) => words[index] === word);
  }
  if (content.endsWith("*")) return words.join(" ").startsWith(content.slice(0, -1));
  const exact = ruleWords(content);
  return exact.length === words.length && exact.every((word, index) => words[index] === word);
}

function asWritten(words: readonly ShellWord[]): string[] {
  return words.map((word) => word.text);
}
