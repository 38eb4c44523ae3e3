import { READ_ONLY_PROGRAMS } from "./read-only-programs.js";
import { isDynamic, parseShell, type Redirection, type SimpleCommand } from "./shell-syntax.js";

/**
 * Decides whether a shell command only reads. Conservative by construction: the command is
 * tokenized like bash does it, and anything the tokenizer reports as not understood
 * (substitutions, `${…}` operators, `$'…'`, backslash-newline, a lone `&`, subshells, syntax
 * errors) means "not read-only", as does any assignment prefix, any redirection other than
 * `>/dev/null`, `2>&1` and `<file`, and any program, option or form not on an allowlist
 * (read-only-programs.ts). A wrong "no" costs a permission question; a wrong "yes" runs code.
 */
export function isReadOnlyCommand(command: string): boolean {
  const script = parseShell(command);
  return script.hazards.size === 0 && script.commands.every(isReadOnlySimpleCommand);
}

/** One command of a parsed script; the script's hazards are the caller's to check. */
export function isReadOnlySimpleCommand(command: SimpleCommand): boolean {
  if (command.assignments.length > 0 || !command.redirections.every(isHarmlessRedirection)) return false;
  const [program, ...args] = command.words;
  if (!program) return true;
  if (isDynamic(program)) return false;
  const check = READ_ONLY_PROGRAMS.get(program.text);
  return check?.(args) === true;
}

/**
 * Redirections that neither create nor change a file: output thrown away (`>/dev/null`,
 * `2>/dev/null`, `&>/dev/null`), one descriptor copied to another (`2>&1`, `>&2`), and input read
 * from a file or a here-document. `<>` opens for writing and `>&name` writes to the file `name`.
 */
export function isHarmlessRedirection(redirection: Redirection): boolean {
  const { operator, target } = redirection;
  if (isDynamic(target)) return false;
  switch (operator) {
    case ">":
    case ">>":
    case ">|":
    case "&>":
    case "&>>":
      return target.text === "/dev/null";
    case ">&":
    case "<&":
      return /^[0-9]+$/.test(target.text);
    case "<":
    case "<<":
    case "<<-":
      return true;
    default:
      return false;
  }
}
