import path from "node:path";
import { parseShell, substitutedCommands, type ShellScript, type ShellWord, type SimpleCommand } from "./shell-syntax.js";

/**
 * Sees through the ways one command can run another, for deny rules and the risk sentinel:
 * wrappers (`env rm`, `sudo -u x rm`, `xargs rm`, `nohup`, `time`, …), directory prefixes
 * (`/bin/rm`), and command lines handed over as text (`$(…)`, `sh -c "…"`, `eval`, `find -exec`,
 * a here-document fed to a shell). Best effort by design: it can only add matches, never hide one.
 */

/** How deep command lines inside command lines are followed (`sh -c "bash -c '…'"`). */
const MAX_NESTING = 6;

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
}

/** Every command `source` runs, nested ones after the command that runs them. Contract: never throws. */
export function commandsOf(source: string, nested = false, depth = 0): CommandForms[] {
  const script = parseShell(source);
  const found: CommandForms[] = [];
  for (const command of script.commands) {
    const views = unwrap(command.words);
    const innerLines = nestedCommandLines(command, views);
    const unfollowed = script.hazards.has("depth") || (depth >= MAX_NESTING && innerLines.length > 0);
    found.push({ views, command, script, nested, unfollowed });
    if (depth >= MAX_NESTING) continue;
    for (const inner of innerLines) found.push(...commandsOf(inner, true, depth + 1));
    for (const execWords of findExecCommands(views.at(-1)!)) {
      found.push({ views: unwrap(execWords), command: { ...command, words: execWords }, script, nested: true, unfollowed: false });
    }
  }
  return found;
}

/** The program's name as rules know it: `/usr/bin/rm` → `rm`; zsh's `=rm` → `rm`. */
export function programName(words: readonly ShellWord[]): string {
  const text = words[0]?.text ?? "";
  return path.posix.basename(text.replace(/^=/, ""));
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

/** Per wrapper, how its options read: short letters that take a value, long names that take one. */
interface WrapperOptions {
  shortWithValue: string;
  longWithValue: string[];
  /** Words after the options that are not the command (timeout's duration). */
  operandsBeforeCommand?: number;
  /** `NAME=value` words are settings, not the command (env, sudo). */
  skipsAssignments?: boolean;
}

const WRAPPERS: Record<string, WrapperOptions> = {
  env: { shortWithValue: "uCS", longWithValue: ["--unset", "--chdir", "--split-string"], skipsAssignments: true },
  command: { shortWithValue: "", longWithValue: [] },
  builtin: { shortWithValue: "", longWithValue: [] },
  exec: { shortWithValue: "a", longWithValue: [] },
  nohup: { shortWithValue: "", longWithValue: [] },
  time: { shortWithValue: "fo", longWithValue: ["--format", "--output"] },
  nice: { shortWithValue: "n", longWithValue: ["--adjustment"] },
  timeout: { shortWithValue: "sk", longWithValue: ["--signal", "--kill-after"], operandsBeforeCommand: 1 },
  stdbuf: { shortWithValue: "ioe", longWithValue: ["--input", "--output", "--error"] },
  sudo: { shortWithValue: "ugCDhprtUTR", longWithValue: ["--user", "--group", "--close-from", "--chdir", "--host", "--prompt", "--role", "--type", "--other-user", "--command-timeout", "--chroot"], skipsAssignments: true },
  doas: { shortWithValue: "uC", longWithValue: [] },
  busybox: { shortWithValue: "", longWithValue: [] },
  setsid: { shortWithValue: "", longWithValue: [] },
  xargs: { shortWithValue: "adEILnPs", longWithValue: ["--arg-file", "--delimiter", "--eof", "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"] },
};

function stripWrapper(words: ShellWord[]): ShellWord[] | undefined {
  const name = programName(words);
  if (RESERVED_PREFIXES.has(name) && words[0]!.text === name) return words.slice(1);
  const options = WRAPPERS[name];
  if (!options) return undefined;
  let index = skipOptions(words, 1, options);
  while (options.skipsAssignments && index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index]!.text)) index++;
  return words.slice(index + (options.operandsBeforeCommand ?? 0));
}

/** Index of the first word after the options that start at `from`; `--` ends them. */
export function skipOptions(words: readonly ShellWord[], from: number, options: Pick<WrapperOptions, "shortWithValue" | "longWithValue">): number {
  let index = from;
  while (index < words.length) {
    const text = words[index]!.text;
    if (text === "--") return index + 1;
    if (!text.startsWith("-") || text === "-") return index;
    if (text.startsWith("--")) {
      index += options.longWithValue.includes(text) ? 2 : 1;
      continue;
    }
    // In a cluster like `-un` the first letter that takes a value ends it; the value is the rest or the next word.
    const letters = text.slice(1);
    const valueAt = [...letters].findIndex((letter) => options.shortWithValue.includes(letter));
    index += valueAt !== -1 && valueAt === letters.length - 1 ? 2 : 1;
  }
  return index;
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash", "fish"]);

/** Command lines a command hands to a shell as text. */
function nestedCommandLines(command: SimpleCommand, views: ShellWord[][]): string[] {
  const lines = substitutedCommands(command);
  for (const words of views) {
    const name = programName(words);
    const texts = words.map((word) => word.text);
    if (SHELLS.has(name)) {
      const script = shellCommandString(texts);
      if (script !== undefined) lines.push(script);
      else if (texts.slice(1).every((text) => text.startsWith("-"))) lines.push(...command.hereDocuments.map((body) => body.text));
    }
    if (name === "eval") lines.push(texts.slice(1).join(" "));
    // watch hands its arguments, joined, to `sh -c`.
    if (name === "watch") lines.push(texts.slice(skipOptions(words, 1, { shortWithValue: "nq", longWithValue: ["--interval", "--equexit"] })).join(" "));
    if (name === "env" || name === "su") lines.push(...optionValues(texts, name === "env" ? ["-S", "--split-string"] : ["-c", "--command"]));
  }
  return lines;
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

/** Values of `-S x`, `-Sx`, `--split-string=x`, `--split-string x`. */
function optionValues(texts: string[], names: [string, string]): string[] {
  const [short, long] = names;
  const values: string[] = [];
  texts.forEach((text, index) => {
    const next = texts[index + 1];
    if ((text === short || text === long) && next !== undefined) values.push(texts.slice(index + 1).join(" "));
    else if (text.startsWith(short) && text.length > short.length && !text.startsWith("--")) values.push(text.slice(short.length));
    else if (text.startsWith(`${long}=`)) values.push(text.slice(long.length + 1));
  });
  return values;
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
