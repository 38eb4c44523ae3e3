import { isHarmlessRedirection, isReadOnlySimpleCommand } from "./bash-classifier.js";
import { commandsOf, normalizedWords } from "./shell-commands.js";
import { isDynamic, parseShell, substitutedCommands, type ShellHazard, type ShellWord, type SimpleCommand } from "./shell-syntax.js";

/**
 * Bash rule contents, as in Claude Code: `npm run:*` is a prefix rule (the command is `npm run`
 * or starts with `npm run `), `git*` a plain text prefix, anything else an exact command. A
 * command line is split into its commands first, so `git status && rm -rf src` is two commands.
 */

/** How deep `$(…)` inside allowed commands is followed. */
const MAX_NESTING = 4;

/**
 * Deny and ask rules: the rule matches if it names any command the line runs, seen through
 * wrappers and directory prefixes (`env rm`, `command rm`, `/bin/rm`, `sudo rm`), substitutions
 * and command lines passed as text (`sh -c "rm …"`, `find -exec rm`). A program whose name is
 * only known when the line runs (`$(echo rm) x`, `$CMD x`, `/bin/r?`) could be the one the rule
 * names, so it matches too.
 */
export function bashRuleRestricts(contents: readonly string[], command: string): boolean {
  const found = commandsOf(command);
  if (found.some((forms) => forms.views.some((view) => view[0] !== undefined && isDynamic(view[0])))) return true;
  const views = found.flatMap((forms) => forms.views.map(normalizedWords));
  if (views.some((words) => contents.some((content) => contentMatches(content, words, normalizedWords)))) return true;
  // Nesting too deep to follow: a rule applies if its words appear anywhere in the text.
  return found.some((forms) => forms.unfollowed) && contents.some((content) => mentions(command, content));
}

function mentions(command: string, content: string): boolean {
  const words = content.replace(/:?\*$/, "").trim().split(/\s+/).filter((word) => word !== "");
  return words.length > 0 && words.every((word) => new RegExp(`(^|[^\\w.-])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\w.-])`).test(command));
}

/**
 * Allow rules: the line is allowed only if every command in it matches an allow rule or is
 * read-only, including commands inside `$(…)`. Commands are compared as written (no wrappers
 * stripped, no `/bin/` dropped: `./git` is not `git`); assignment prefixes and redirections that
 * write files keep a command from matching. Backslash-newline is accepted here because the
 * tokenizer joins the lines exactly as bash does.
 */
export function bashRulesAllow(contents: readonly string[], command: string): boolean {
  return coveredByRules(contents, command, isReadOnlySimpleCommand, 0);
}

/**
 * Whether the allow rules name every command of the line themselves, without the read-only
 * judgement's help: then a person chose to let exactly these commands run, and they run as
 * they are; a line the judgement approved (in whole or in part) runs confined where it can.
 */
export function bashRulesAllowWithoutJudgement(contents: readonly string[], command: string): boolean {
  return coveredByRules(contents, command, () => false, 0);
}

function coveredByRules(contents: readonly string[], command: string, judgedReadOnly: (simple: SimpleCommand) => boolean, depth: number): boolean {
  const script = parseShell(command);
  const tolerated = new Set<ShellHazard>(["substitution", "continuation"]);
  if ([...script.hazards].some((hazard) => !tolerated.has(hazard)) || depth > MAX_NESTING) return false;
  return script.commands.every(
    (simple) =>
      (judgedReadOnly(simple) || matchesAsWritten(contents, simple)) && substitutedCommands(simple).every((inner) => coveredByRules(contents, inner, judgedReadOnly, depth + 1)),
  );
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
