/**
 * What the shell tokenizer (shell-parser.ts) produces, and the questions every check asks of it:
 * whether a word is known only at run time, whether it may turn into extra arguments, and which
 * command lines run while a command's words are expanded.
 */

/**
 * How one piece of a word was written. `plain` is unquoted literal text; `quoted` came from quotes
 * or a backslash escape; `glob` is an unquoted `*`, `?`, `[` or `{` (the shell may turn the word into
 * other words); `parameter` is `$NAME`, `${…}`; `substitution` is `$(…)`, `` `…` ``, `<(…)`, `>(…)`.
 */
export type SegmentKind = "plain" | "quoted" | "glob" | "parameter" | "substitution";

export interface WordSegment {
  kind: SegmentKind;
  /** The text as the word shows it: literal characters, or the expansion as written. */
  text: string;
  /** For `$NAME` / `${NAME}`: the name. */
  name?: string;
  /** Command lines the shell runs while expanding this segment (the inside of `$(…)`, …). */
  commands?: string[];
  /** For expansions: written inside double quotes, so the result stays one word. */
  inQuotes?: boolean;
}

export interface ShellWord {
  /** The segments' texts joined: quotes removed, expansions as written. */
  text: string;
  segments: WordSegment[];
}

export interface Redirection {
  /** The file descriptor written before the operator (`2` in `2>&1`), if any. */
  fd: string | undefined;
  /** `<`, `>`, `>>`, `>|`, `<>`, `<&`, `>&`, `&>`, `&>>`, `<<`, `<<-` or `<<<`. */
  operator: string;
  target: ShellWord;
}

export interface SimpleCommand {
  /** `NAME=value` words before the program. */
  assignments: ShellWord[];
  /** The program and its arguments. */
  words: ShellWord[];
  redirections: Redirection[];
  /** Bodies of `<<` here-documents, which the command reads on stdin. */
  hereDocuments: ShellWord[];
  /** Commands joined by `|` share this number. */
  pipeline: number;
}

/**
 * Things the tokenizer recognises but does not see through: `substitution` (`$(…)`, backticks,
 * process substitution), `expansion` (`${x@P}`, `${x:-…}`, `$((…))`, `$'…'`, `$"…"`), `continuation`
 * (backslash-newline), `background` (a lone `&`), `subshell` (`(` or `)`), `syntax` (unterminated
 * quotes, `;;`, a redirection without a target), `depth` (substitutions nested too deeply to follow;
 * the rest of the input was not read).
 */
export type ShellHazard = "substitution" | "expansion" | "continuation" | "background" | "subshell" | "syntax" | "depth";

export interface ShellScript {
  commands: SimpleCommand[];
  hazards: Set<ShellHazard>;
}

export function isDynamic(word: ShellWord): boolean {
  return word.segments.some((segment) => segment.kind === "glob" || segment.kind === "parameter" || segment.kind === "substitution");
}

/** Whether the word's first character is only known at run time, so it could turn into an option such as `--pre=sh`. */
function startsDynamic(word: ShellWord): boolean {
  const first = word.segments[0];
  return first !== undefined && first.kind !== "plain" && first.kind !== "quoted";
}

/**
 * Whether the shell may turn the word into an option or into several words: it starts with an
 * expansion or a pattern (`*`, `$X`, `{-o,f}`), or holds an unquoted expansion, which is split on
 * blanks (`a$X` can become `a --pre=sh`).
 */
export function mayInjectArguments(word: ShellWord): boolean {
  if (startsDynamic(word)) return true;
  return word.segments.some(
    (segment) =>
      (segment.kind === "parameter" || segment.kind === "substitution") &&
      (!segment.inQuotes || segment.name === "@" || segment.name === "*"),
  );
}

/** Command lines the shell runs while expanding the command's words, redirections and here-documents. */
export function substitutedCommands(command: SimpleCommand): string[] {
  const words = [
    ...command.assignments,
    ...command.words,
    ...command.redirections.map((redirection) => redirection.target),
    ...command.hereDocuments,
  ];
  return words.flatMap((word) => word.segments.flatMap((segment) => segment.commands ?? []));
}
