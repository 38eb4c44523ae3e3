import { isDynamic, type ShellWord } from "./shell-syntax.js";

/**
 * Whether a `test` / `[` expression only looks at strings and files. Bash evaluates array
 * subscripts as arithmetic, command substitutions included, wherever it looks up a variable by a
 * name the expression gives: `test -v 'x[$(CMD)]'` runs CMD even in single quotes, and so does
 * `-R`. ksh and zsh (which agentwire also runs as the user's shell) evaluate the operands of
 * `-eq` and friends as arithmetic. So: no `-v`/`-R`, and arithmetic comparisons only between
 * integers written out.
 *
 * A word whose value is only known at run time (`"$x"`, `"$_"`) can become an operator, and which
 * words bash reads as operators depends on the values; so such words are allowed only where the
 * POSIX rules by argument count make them operands whatever they hold: the one argument of a
 * one-word test, the operand of a written unary operator, the sides of a written binary operator.
 * `[[ … ]]` is a shell keyword with its own arithmetic; it is not on the list at all.
 */

/** Unary tests of a file (stat it). `-t fd` is left out: zsh reads its operand as arithmetic. */
const FILE_TESTS = ["-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p", "-r", "-s", "-u", "-w", "-x", "-G", "-L", "-N", "-O", "-S"];
const UNARY_OPERATORS = new Set([...FILE_TESTS, "-n", "-z", "-o"]);
const BINARY_OPERATORS = new Set(["=", "==", "!=", "<", ">", "-nt", "-ot", "-ef", "-a", "-o"]);
/** Operators that look at files (stat them); the others compare strings and numbers. */
const FILE_OPERATORS = new Set([...FILE_TESTS, "-nt", "-ot", "-ef"]);
const ARITHMETIC_OPERATORS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
/** Operators that look a variable up by name (evaluating subscripts), or read a number as arithmetic in zsh. */
const NAME_OPERATORS = new Set(["-v", "-R", "-t"]);
const INTEGER = /^[+-]?[0-9]+$/;

/** `args` are the words after `test` or `[`; `bracketed` says the last must be `]`. */
export function isHarmlessTestExpression(args: readonly ShellWord[], bracketed: boolean): boolean {
  if (bracketed && (args.length === 0 || isDynamic(args.at(-1)!) || args.at(-1)!.text !== "]")) return false;
  const words = bracketed ? args.slice(0, -1) : args;
  if (words.some(maySplit)) return false;
  const texts = words.map((word) => word.text);
  const literal = words.map((word) => !isDynamic(word));
  if (texts.some((text, index) => literal[index] && NAME_OPERATORS.has(text))) return false;
  if (!arithmeticOperandsAreIntegers(texts, literal)) return false;
  if (literal.every(Boolean)) return true;
  switch (words.length) {
    case 1:
      return true;
    case 2:
      return literal[0]! && UNARY_OPERATORS.has(texts[0]!);
    case 3:
      return literal[1]! && (BINARY_OPERATORS.has(texts[1]!) || ARITHMETIC_OPERATORS.has(texts[1]!));
    default:
      return false;
  }
}

/** Each word beside an arithmetic operator is an integer written out (a string `-eq` is refused too). */
function arithmeticOperandsAreIntegers(texts: readonly string[], literal: readonly boolean[]): boolean {
  return texts.every((text, index) => {
    if (!literal[index] || !ARITHMETIC_OPERATORS.has(text)) return true;
    return [index - 1, index + 1].every((side) => literal[side] === true && INTEGER.test(texts[side] ?? ""));
  });
}

/** Whether the shell may make several words (or none) of it: a pattern, or an unquoted expansion. */
function maySplit(word: ShellWord): boolean {
  return word.segments.some(
    (segment) =>
      segment.kind === "glob" ||
      ((segment.kind === "parameter" || segment.kind === "substitution") &&
        (!segment.inQuotes || segment.name === "@" || segment.name === "*")),
  );
}

/**
 * Whether a test expression may look at a file: any file operator among its words (`-a` counts,
 * being both "exists" and "and"). `[ -n "$X" ]` and `[ "$a" = b ]` open nothing.
 */
export function testLooksAtFiles(texts: readonly string[]): boolean {
  return texts.some((text) => FILE_OPERATORS.has(text));
}
