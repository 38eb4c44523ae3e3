/**
 * A small shell tokenizer for permission checks. It follows bash's rules for the parts that decide
 * what runs — quotes, backslash escapes, comments, `;` `&` `&&` `||` `|` and newlines, redirections,
 * here-documents, `$…` expansions and substitutions — and records everything it does not model
 * as a hazard, so callers can refuse instead of guessing. It never executes or expands anything.
 * This is its face; the tokenizer is shell-parser.ts, the tree and its helpers shell-ast.ts.
 */

import { ShellParser } from "./shell-parser.js";
import type { ShellScript } from "./shell-ast.js";

export type { Redirection, SegmentKind, ShellHazard, ShellScript, ShellWord, SimpleCommand, WordSegment } from "./shell-ast.js";
export { isDynamic, mayInjectArguments, substitutedCommands } from "./shell-ast.js";

/** Contract: never throws; anything it cannot follow shows up in `hazards`. */
export function parseShell(source: string): ShellScript {
  return new ShellParser(source).parse();
}
