import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isSameOrInside, realPathOfNearestAncestor } from "../../paths/real-path.js";
import { followsLinksWhileWalking, isDirectory, linkLeadingOut, walksCwdByDefault } from "./link-following-walks.js";
import { parseShell, type ShellWord, type SimpleCommand } from "./shell-syntax.js";
import { testLooksAtFiles } from "./test-expression.js";
import { expandBraces, expandGlob, hasWildcard, patternCharacters, textOf, type PatternCharacter } from "./word-expansion.js";

/**
 * What a read-only command would read outside the workspace roots, so that it asks like the Read
 * tool does for the same file. Every word after the program counts, and every value attached to
 * an option (`-f/x`, `--file=/x`), and every `<` input, seen the way the program will get it:
 *
 * - braces and globs are expanded against the filesystem as bash will (`{/x,a}`, `lnk/sec*`), and
 *   a glob that must list a folder outside (through a symlink, or by its fixed prefix) counts too;
 * - a word whose value is only known at run time (`$HOME`, `"$D"/x`, `~user`) counts as outside,
 *   except for programs that never open what they are given (echo, printf, …);
 * - each path is resolved as the kernel resolves it, symlinks before `..` (`lnk/../x`);
 * - a brace or glob expansion that makes a word starting with `-` counts, as the program would
 *   read an option the classifier never saw (`grep x {-R,.}`, a file named `--files0-from=x`);
 * - a recursive read that follows symlinks (`grep -R`, `rg -L`, `find -L`) counts when a link under
 *   the folders it walks leads out (see link-following-walks.ts).
 *
 * Reads the filesystem (it is a check of what is there now). Contract: never throws.
 */
export function pathsOutsideRoots(command: string, roots: readonly string[]): string[] {
  return parseShell(command).commands.flatMap((simple) => commandPathsOutsideRoots(simple, roots));
}

/** The same for one command of a parsed line: each offending path as the command names it. */
export function commandPathsOutsideRoots(command: SimpleCommand, roots: readonly string[]): string[] {
  const [programWord, ...args] = command.words;
  const program = path.posix.basename(programWord?.text ?? "");
  const texts = args.map((word) => word.text);
  const opensOperands = !NAMES_ONLY_PROGRAMS.has(program) && !((program === "test" || program === "[") && !testLooksAtFiles(texts));
  const context: CheckContext = { cwd: roots[0]!, realRoots: roots.map((root) => realPathOfNearestAncestor(root)), opensOperands };
  const inputs = command.redirections.filter((redirection) => redirection.operator === "<").map((redirection) => redirection.target);
  const outside = [
    ...args.map((word) => wordReadsOutside(word, context)),
    ...inputs.map((word) => wordReadsOutside(word, { ...context, opensOperands: true })),
  ];
  if (followsLinksWhileWalking(program, texts))
    outside.push(linkLeadingOut(walkedFolders(args, context, walksCwdByDefault(program)), context.realRoots, context.cwd));
  return outside.filter((shown): shown is string => shown !== undefined);
}

/** Programs that print their arguments or names, never opening them as files (and test/[ comparing strings). */
const NAMES_ONLY_PROGRAMS = new Set([
  "echo",
  "printf",
  "true",
  "false",
  "pwd",
  "basename",
  "dirname",
  "seq",
  "sleep",
  "uname",
  "whoami",
  "nproc",
  "uptime",
  "free",
  "type",
  "which",
  "id",
  "tr",
]);

interface CheckContext {
  cwd: string;
  realRoots: string[];
  /** Whether the program may open the words it is given (false for echo and the like). */
  opensOperands: boolean;
}

/** What to show of a word that reads outside (the word, or the path in it), or undefined. */
function wordReadsOutside(word: ShellWord, context: CheckContext): string | undefined {
  const dynamic = word.segments.some((segment) => segment.kind === "parameter" || segment.kind === "substitution");
  // The value is unknown: it may name anything, and a glob in it lists a folder that may be anywhere.
  if (dynamic) return context.opensOperands || word.segments.some((segment) => segment.kind === "glob") ? word.text : undefined;
  const alternatives = expandBraces(patternCharacters(word));
  if (alternatives === undefined) return word.text;
  for (const alternative of alternatives) {
    // `{-R,.}` hands the program an option the classifier never saw.
    if (alternative[0]?.character === "-" && !word.text.startsWith("-")) return textOf(alternative);
    const shown = alternativeReadsOutside(alternative, context, word.text);
    if (shown !== undefined) return shown;
  }
  return undefined;
}

function alternativeReadsOutside(characters: PatternCharacter[], context: CheckContext, wordText: string): string | undefined {
  const expanded = expandTilde(characters);
  if (expanded === undefined) return wordText;
  if (!hasWildcard(expanded)) {
    const shown = context.opensOperands ? textReadsOutside(textOf(expanded), context) : undefined;
    // `~/x` is shown as written, not with the home folder filled in.
    return shown !== undefined && expanded !== characters ? wordText : shown;
  }
  const glob = expandGlob(expanded, context.cwd);
  if (glob === undefined) return wordText;
  if (glob.listedFolders.some((folder) => !isInside(realPathOfNearestAncestor(folder), context))) return wordText;
  // No match: bash passes the word on as it is.
  if (glob.matches.length === 0) return context.opensOperands ? textReadsOutside(textOf(expanded), context) : undefined;
  for (const match of glob.matches) {
    // A file named like an option (`--files0-from=x`) would reach the program as one.
    if (match.startsWith("-")) return match;
    const shown = context.opensOperands ? textReadsOutside(match, context) : undefined;
    if (shown !== undefined) return shown;
  }
  return undefined;
}

/** `~` and `~/x` become HOME; `~user` is someone else's home, somewhere unknown (undefined). */
function expandTilde(characters: PatternCharacter[]): PatternCharacter[] | undefined {
  if (characters[0]?.character !== "~" || !characters[0].active) return characters;
  const slash = characters.findIndex((entry) => entry.character === "/");
  const user = characters.slice(1, slash === -1 ? characters.length : slash);
  if (user.length > 0) return undefined;
  const home = [...os.homedir()].map((character) => ({ character, active: false }));
  return [...home, ...(slash === -1 ? [] : characters.slice(slash))];
}

/** The word itself, or a value an option carries in it (`--file=x`, `-fx`, `-f/x`), that lies outside. */
function textReadsOutside(text: string, context: CheckContext): string | undefined {
  return candidatePaths(text).find((candidate) => candidateIsOutside(candidate, context));
}

function candidatePaths(text: string): string[] {
  const equals = text.indexOf("=");
  const afterEquals = equals === -1 ? [] : [text.slice(equals + 1)];
  if (text.startsWith("--")) return afterEquals;
  // A short option's value may start after any number of flag letters: `-nf/x` is `-n -f /x`.
  // A lone `/` there is a delimiter (`cut -d/`), not the root folder.
  if (text.startsWith("-"))
    return [
      ...Array.from({ length: text.length - 1 }, (_, index) => text.slice(index + 1)).filter((value) => value !== "/"),
      ...afterEquals,
    ];
  return [text, ...afterEquals];
}

function candidateIsOutside(candidate: string, context: CheckContext): boolean {
  if (candidate === "" || candidate === "-" || candidate === "/dev/null") return false;
  const tilde = candidate === "~" || candidate.startsWith("~/");
  if (candidate.startsWith("~") && !tilde) return true;
  const written = tilde ? os.homedir() + candidate.slice(1) : candidate;
  const named = path.isAbsolute(written) || written.split("/").includes("..");
  // A plain relative word is only a path if it exists; through a symlink it may still lead out.
  if (!named && !existsSync(path.join(context.cwd, written))) return false;
  // Joined, not resolved: the kernel follows `lnk` in `lnk/../x` before applying `..`.
  return !isInside(realPathOfNearestAncestor(path.isAbsolute(written) ? written : `${context.cwd}/${written}`), context);
}

function isInside(realPath: string, context: CheckContext): boolean {
  return context.realRoots.some((root) => isSameOrInside(realPath, root));
}

/**
 * The folders a recursive read may walk: every word that names a folder, and the working
 * directory too for programs that walk it by default — which word is an operand is not known
 * here (`grep -R src` searches the working directory for "src"; `tree -l -I src` ignores it) —
 * or when a pattern among the words could name any folder in it.
 */
function walkedFolders(args: readonly ShellWord[], context: CheckContext, walksCwd: boolean): string[] {
  const folders = args.flatMap((word) => {
    const absolute = path.resolve(context.cwd, word.text);
    return word.text !== "" && isDirectory(absolute) ? [absolute] : [];
  });
  const patterned = args.some((word) => word.segments.some((segment) => segment.kind === "glob"));
  return walksCwd || patterned ? [...folders, context.cwd] : folders;
}
