import path from "node:path";
import { commandUnderRunner, programName, optionCommandLines } from "./command-runners.js";
import { DATA_ONLY_PROGRAMS } from "./data-only-programs.js";
import { embeddedCode, scriptKey, scriptsWritten } from "./embedded-code.js";
import { SHELLS, takesCodeAsArguments } from "./interpreters.js";
import { commandLinesInCode } from "./names-in-code.js";
import { gitCommandLines } from "./git-options.js";
import { isDynamic, parseShell, substitutedCommands, type ShellScript, type ShellWord, type SimpleCommand } from "./shell-syntax.js";
import { expandGlob, patternCharacters } from "./word-expansion.js";

export { programName } from "./command-runners.js";

/**
 * Sees through the ways one command can run another, for deny rules and the risk sentinel:
 * wrappers (`env rm`, `sudo -u x rm`, `flock f rm`, `strace rm`, …, see runner-programs.ts),
 * directory prefixes (`/bin/rm`), command lines handed over as text (`$(…)`, `sh -c "…"`, `eval`,
 * `find -exec`, `su -c`, here-documents and here-strings fed to a shell, `echo … | sh`), and code
 * given to interpreters (embedded-code.ts). Best effort by design: it can only add matches,
 * never hide one — so where it cannot be sure it adds guesses, marked `possible`.
 */

/** How deep command lines inside command lines are followed (`sh -c "bash -c '…'"`). */
const MAX_NESTING = 6;
/** How many later words of one command are tried as the program it may run. */
const MAX_GUESSED_PROGRAMS = 64;

/** One command the shell runs, in every form a rule might name it. */
export interface CommandForms {
  /** Outermost first: `sudo env rm -rf x` → `sudo env rm -rf x`, `env rm -rf x`, `rm -rf x`. */
  views: ShellWord[][];
  command: SimpleCommand;
  /** The parsed script the command belongs to (for pipelines). */
  script: ShellScript;
  /** Whether it runs inside a substitution or a nested command line rather than at top level. */
  nested: boolean;
  /** Whether it hands the shell command lines nested too deeply to be followed here. */
  unfollowed: boolean;
  /**
   * A guess rather than a reading: a later word of a program that may run its arguments
   * (`ionice -c3 rm x` → `rm x`), or a command line found in code (`os.system('rm x')`). Checks
   * that look for a named program use guesses; checks that refuse what they cannot read do not.
   */
  possible: boolean;
  /**
   * Whether it runs code this reading cannot follow: an interpreter's program (`python -c`),
   * commands a shell reads from a pipe or a file, a script run by its path. What that code runs
   * is unknown.
   */
  runsCode: boolean;
  /** The code texts it runs that are known (`python3 -c CODE`, awk's program, a here-string). */
  code: string[];
}

/** Every command `source` runs, nested ones after the command that runs them. Contract: never throws. */
export function commandsOf(source: string, nested = false, depth = 0, possible = false): CommandForms[] {
  const script = parseShell(source);
  const found: CommandForms[] = [];
  const written = scriptsWritten(script.commands);
  script.commands.forEach((command, index) => {
    const views = unwrap(command.words);
    const innermost = views.at(-1)!;
    const producer = script.commands[index - 1]?.pipeline === command.pipeline ? script.commands[index - 1] : undefined;
    const code = embeddedCode(innermost, command, producer, written);
    const programPath = possible ? undefined : scriptPath(innermost);
    const innerLines = [
      ...nestedCommandLines(command, views),
      ...code.commandLines,
      ...(programPath === undefined ? [] : (written.get(scriptKey(programPath)) ?? [])),
    ];
    const guessedLines = [...code.code.flatMap(commandLinesInCode), ...guessedCommandLines(views, new Set(code.code))];
    const guessedViews = guessedPrograms(innermost);
    const underArgumentFeeder = views.slice(0, -1).some((view) => ["xargs", "parallel"].includes(programName(view)));
    const runsCode =
      code.code.length > 0 ||
      code.unknown ||
      programPath !== undefined ||
      guessedViews.length > MAX_GUESSED_PROGRAMS ||
      (underArgumentFeeder && takesCodeAsArguments(programName(innermost)));
    const unfollowed = script.hazards.has("depth") || (depth >= MAX_NESTING && innerLines.length + guessedLines.length > 0);
    found.push({ views, command, script, nested, unfollowed, possible, runsCode, code: code.code });
    if (depth >= MAX_NESTING) return;
    for (const inner of innerLines) found.push(...commandsOf(inner, true, depth + 1, possible));
    for (const inner of guessedLines) found.push(...commandsOf(inner, true, depth + 1, true));
    for (const words of guessedViews.slice(0, MAX_GUESSED_PROGRAMS)) found.push(derivedForm(command, script, words, true));
    for (const name of copiedPrograms(innermost))
      found.push(derivedForm(command, script, [{ text: name, segments: [{ kind: "quoted", text: name }] }], true));
    for (const words of findExecCommands(innermost)) found.push(derivedForm(command, script, words, possible));
  });
  return found;
}

/** A command found inside another's words (`find -exec`, a guessed program). */
function derivedForm(command: SimpleCommand, script: ShellScript, words: ShellWord[], possible: boolean): CommandForms {
  return {
    views: unwrap(words),
    command: { ...command, words },
    script,
    nested: true,
    unfollowed: false,
    possible,
    runsCode: false,
    code: [],
  };
}

/** `./s.sh`, `/tmp/x`: a program run by its path is a script the line may have written, or one it cannot see. */
function scriptPath(words: ShellWord[]): string | undefined {
  const program = words[0];
  if (program === undefined || isDynamic(program) || !program.text.includes("/") || program.text.endsWith("/")) return undefined;
  return program.text;
}

/** Command-line words with the program normalized, for matching against rules. */
export function normalizedWords(words: readonly ShellWord[]): string[] {
  return words.length === 0 ? [] : [programName(words), ...words.slice(1).map((word) => word.text)];
}

/** The command and each command inside its wrappers, outermost first. */
export function unwrap(words: ShellWord[]): ShellWord[][] {
  const views = [words];
  let current = words;
  for (let step = 0; step < 16; step++) {
    const inner = stripWrapper(current);
    if (inner === undefined || inner.length === 0) break;
    views.push(inner);
    current = inner;
  }
  return views;
}

/** Words that only introduce the next command: `! rm`, `then rm`, `do rm`, `{ rm; }`. */
const RESERVED_PREFIXES = new Set(["!", "if", "then", "elif", "else", "do", "while", "until", "{"]);

function stripWrapper(words: ShellWord[]): ShellWord[] | undefined {
  const name = programName(words);
  if (RESERVED_PREFIXES.has(name) && words[0]!.text === name) return words.slice(1);
  // `coproc rm x`, `coproc NAME { rm x; }`.
  if (name === "coproc" && words[0]!.text === name) return words[2]?.text === "{" ? words.slice(2) : words.slice(1);
  return commandUnderRunner(words);
}

/** Command lines a command hands to a shell as text. */
function nestedCommandLines(command: SimpleCommand, views: ShellWord[][]): string[] {
  const lines = substitutedCommands(command);
  for (const words of views) {
    const name = programName(words);
    const texts = words.map((word) => word.text);
    if (SHELLS.has(name)) {
      const script = shellCommandString(texts);
      if (script !== undefined) lines.push(script);
    }
    if (name === "eval") lines.push(texts.slice(1).join(" "));
    // watch hands its arguments, joined, to `sh -c`; so does `sg GROUP …`; `trap 'cmd' SIGNAL` runs cmd later.
    if (name === "watch") lines.push(texts.slice(watchCommandStart(texts)).join(" "));
    if (name === "sg")
      lines.push(
        texts
          .slice(2)
          .filter((text) => text !== "-c")
          .join(" "),
      );
    if (name === "trap" && texts[1] !== undefined && !texts[1].startsWith("-")) lines.push(texts[1]);
    if (name === "git") lines.push(...gitCommandLines(words));
    lines.push(...optionCommandLines(words));
  }
  return lines;
}

function watchCommandStart(texts: string[]): number {
  let index = 1;
  while (index < texts.length && texts[index]!.startsWith("-")) index += /^(-[nq]|--interval|--equexit)$/.test(texts[index]!) ? 2 : 1;
  return index;
}

/** `bash -lc 'cmd'` → `cmd`: with `-c`, the first operand is the command line. */
function shellCommandString(texts: string[]): string | undefined {
  let sawC = false;
  for (let index = 1; index < texts.length; index++) {
    const text = texts[index]!;
    if (!/^[-+]./.test(text)) return sawC ? text : undefined;
    if (/^[-+][A-Za-z]*c/.test(text) && !text.startsWith("--")) sawC = true;
    // `-o pipefail`, `-eo pipefail`, `-O extglob`: the option name is the next word.
    if (/^[-+][A-Za-z]*[oO]$/.test(text)) index++;
  }
  return undefined;
}

/**
 * Later words of a program that may run them, as possible commands: `ionice -c3 rm x` → `rm x`,
 * `mytool run rm x` → `run rm x`, `rm x`, `x`. Words that are options or only known at run time
 * are skipped; programs in DATA_ONLY_PROGRAMS get none.
 */
function guessedPrograms(words: ShellWord[]): ShellWord[][] {
  if (DATA_ONLY_PROGRAMS.has(programName(words))) return [];
  const guesses: ShellWord[][] = [];
  for (let index = 1; index < words.length && guesses.length <= MAX_GUESSED_PROGRAMS; index++) {
    const word = words[index]!;
    if (!isDynamic(word) && /^[\w@%+:,./=-]+$/.test(word.text) && !word.text.startsWith("-")) guesses.push(words.slice(index));
  }
  return guesses;
}

/**
 * Arguments of a program that may run them that read as command lines: words with blanks or
 * substitutions in them (`tmux new 'rm x'`, `sops exec-env f 'rm x'`, `test -v 'a[$(rm x)]'`) and
 * the values of `--name=value` and `NAME=value` (`tar --to-command='rm x'`, `ssh -o ProxyCommand=…`).
 * `codeTexts` are words already read as another language's code.
 */
function guessedCommandLines(views: ShellWord[][], codeTexts: ReadonlySet<string>): string[] {
  return views.flatMap((words) => {
    const name = programName(words);
    if (DATA_ONLY_PROGRAMS.has(name)) return [];
    return words.slice(1).flatMap((word) => {
      const text = word.text;
      // Code (`awk '/x/ {print}'`) is read as code, not as a command line.
      if (codeTexts.has(text)) return [];
      const lines = /\s|\$\(|`/.test(text) ? [text] : [];
      const assigned = /^(--[\w-]+|[A-Za-z_][\w.-]*)=(.+)$/s.exec(text);
      if (assigned) lines.push(assigned[2]!);
      return lines;
    });
  });
}

/**
 * Programs a command copies or links under another name, which the line may then run by that
 * name: `cp /bin/rm del`, `ln -s "$(which rm)" del` → `rm`. Only sources that name a program by
 * path or through `which`/`command -v`/`type -P` count; an absolute pattern (`/usr/bin/r[m]`)
 * counts as every file it matches.
 */
function copiedPrograms(words: ShellWord[]): string[] {
  if (!["cp", "ln", "install", "mv", "rsync", "link"].includes(programName(words))) return [];
  return words.slice(1).flatMap((word) => {
    if (
      !word.text.startsWith("-") &&
      word.text.includes("/") &&
      word.segments.every((segment) => segment.kind === "plain" || segment.kind === "quoted")
    )
      return [programName([word])];
    if (word.text.startsWith("/") && word.segments.every((segment) => segment.kind !== "parameter" && segment.kind !== "substitution")) {
      const matches = expandGlob(patternCharacters(word), "/")?.matches ?? [];
      return matches.slice(0, MAX_GUESSED_PROGRAMS).map((match) => path.posix.basename(match));
    }
    return word.segments.flatMap((segment) =>
      (segment.commands ?? []).flatMap((line) =>
        parseShell(line).commands.flatMap((inner) =>
          /^(which|whereis|type|command)$/.test(programName(inner.words))
            ? inner.words
                .slice(1)
                .filter((arg) => !arg.text.startsWith("-"))
                .map((arg) => arg.text)
            : [],
        ),
      ),
    );
  });
}

/** `find … -exec rm {} ;` → `rm {}`. */
function findExecCommands(words: ShellWord[]): ShellWord[][] {
  if (programName(words) !== "find") return [];
  const commands: ShellWord[][] = [];
  words.forEach((word, index) => {
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(word.text)) return;
    const end = words.findIndex((candidate, position) => position > index && (candidate.text === ";" || candidate.text === "+"));
    commands.push(words.slice(index + 1, end === -1 ? words.length : end));
  });
  return commands.filter((command) => command.length > 0);
}
