import path from "node:path";
import { programName } from "./command-runners.js";
import { INTERPRETERS, SHELLS, interpreterName, type Interpreter } from "./interpreters.js";
import { optionValues, scanArguments } from "./lenient-options.js";
import { isDynamic, parseShell, type ShellWord, type SimpleCommand } from "./shell-syntax.js";
import { ownEntry } from "../../validation/own-entry.js";

/**
 * Code a command runs that is not a shell command line and cannot be read here: a Python, Perl,
 * awk or sed program given as text, editor and pager commands (`vim -c '!rm x'`, `less +!…`),
 * debugger commands, text a shell or interpreter reads on stdin (`echo rm x | sh`,
 * `bash <<< "rm x"`), and script files — known when the same line wrote them (`echo … > s.sh;
 * bash s.sh`), unknown otherwise. Such code can run any program, so the checks treat it as a set
 * of guesses: its string literals and shell escapes are examined as command lines, and a deny
 * rule matches when the line names the program the rule denies.
 */
export interface EmbeddedCode {
  /** Shell command lines read on stdin and known: here-documents, here-strings, echoed text. */
  commandLines: string[];
  /** Programs in other languages given as text (Python, awk, editor commands, …). */
  code: string[];
  /** Whether it also runs code or commands whose text is not on the command line (`cat x | sh`). */
  unknown: boolean;
}

const NO_CODE: EmbeddedCode = { commandLines: [], code: [], unknown: false };

/** Programs that read commands on stdin: shells without a script, `at`, `batch`. */
const STDIN_COMMAND_READERS = new Set(["at", "batch", "source", "."]);

/**
 * The code `command` runs besides shell command lines. `producer` is the command before it in a
 * pipeline, whose output is its stdin. Contract: never throws.
 */
export function embeddedCode(
  words: ShellWord[],
  command: SimpleCommand,
  producer: SimpleCommand | undefined,
  written: WrittenScripts,
): EmbeddedCode {
  const name = interpreterName(programName(words));
  const interpreter = ownEntry(INTERPRETERS, name);
  if (interpreter) return interpreterCode(words, interpreter, command, producer, written);
  if (!SHELLS.has(name) && !STDIN_COMMAND_READERS.has(name)) return NO_CODE;
  if (readsCommandsOnStdin(words, name)) {
    const given = stdinText(command, producer);
    return { commandLines: given ?? [], code: [], unknown: given === undefined };
  }
  // `bash script.sh`, `source env.sh`: a file of commands, known only if this line wrote it.
  const script =
    SHELLS.has(name) && words.slice(1).some((word) => /^-[A-Za-z]*c/.test(word.text))
      ? undefined
      : words.slice(1).find((word) => !/^[-+]/.test(word.text));
  if (script === undefined) return NO_CODE;
  const known = written.get(scriptKey(script.text));
  return { commandLines: known ?? [], code: [], unknown: known === undefined };
}

/**
 * Text the line writes to files with `echo`, `printf` or `cat <<EOF` and a redirection
 * (`echo 'rm x' > s.sh`), by file name, so that running the file later in the same line
 * (`bash s.sh`, `./s.sh`, `python3 s.py`) is read like the text itself.
 */
export type WrittenScripts = ReadonlyMap<string, string[]>;

export function scriptsWritten(commands: readonly SimpleCommand[]): WrittenScripts {
  const written = new Map<string, string[]>();
  for (const command of commands) {
    const text = producedText(command);
    if (text === undefined) continue;
    for (const redirection of command.redirections) {
      if (!/^(>|>>|>\|)$/.test(redirection.operator) || isDynamic(redirection.target)) continue;
      const key = scriptKey(redirection.target.text);
      written.set(key, [...(written.get(key) ?? []), ...text]);
    }
  }
  return written;
}

/** `./s.sh` and `s.sh` are one file. */
export function scriptKey(text: string): string {
  return path.posix.normalize(text);
}

function interpreterCode(
  words: ShellWord[],
  interpreter: Interpreter,
  command: SimpleCommand,
  producer: SimpleCommand | undefined,
  written: WrittenScripts,
): EmbeddedCode {
  const scanned = scanArguments(words, interpreter.grammar);
  const texts = optionValues(scanned, interpreter.codeOptions).map((word) => word.text);
  if (interpreter.plusCommands)
    texts.push(
      ...words
        .slice(1)
        .filter((word) => word.text.startsWith("+"))
        .map((word) => word.text.replace(/^\++/, "")),
    );
  const codeFiles = optionValues(scanned, interpreter.fileOptions ?? []);
  const [first, ...rest] = scanned.operands;
  if (interpreter.programIsFirstOperand && texts.length === 0 && codeFiles.length === 0 && first) texts.push(first.text);
  if (interpreter.operandsAfterFirstAreCode) texts.push(...rest.map((word) => word.text));
  if (interpreter.mayAct && texts.length > 0 && !texts.some(interpreter.mayAct)) return NO_CODE;
  const noCode = texts.length === 0 && codeFiles.length === 0;
  const codeFromStdin =
    codeFiles.some(isTextGivenAsFile) ||
    (interpreter.readsCodeOnStdin === "withoutCode" && noCode) ||
    (interpreter.readsCodeOnStdin === "withoutScript" && noCode && (first === undefined || isTextGivenAsFile(first)));
  if (!codeFromStdin) {
    // A script file (`python3 s.py`, `awk -f prog.awk`): its code is known only if this line wrote it.
    const scriptFiles = [...codeFiles, ...(interpreter.readsCodeOnStdin === "withoutScript" && noCode && first ? [first] : [])];
    const known = scriptFiles.flatMap((file) => written.get(scriptKey(file.text)) ?? []);
    const unseen = scriptFiles.some((file) => !written.has(scriptKey(file.text)));
    return { commandLines: [], code: [...texts, ...known], unknown: unseen };
  }
  const given = stdinText(command, producer);
  return { commandLines: [], code: [...texts, ...(given ?? [])], unknown: given === undefined };
}

/** `-`, `/dev/stdin`, `<(…)`: a file name standing for text the command line supplies. */
function isTextGivenAsFile(word: ShellWord): boolean {
  return isStdinName(word.text) || word.segments.some((segment) => segment.kind === "substitution");
}

/** Whether a shell (or `source`, `at`) takes its commands from stdin or a file the line supplies. */
function readsCommandsOnStdin(words: ShellWord[], name: string): boolean {
  const operands = words.slice(1).filter((word) => !/^[-+]/.test(word.text));
  if (name === "at" || name === "batch") return !words.some((word) => /^-[^-]*[lrdcf]/.test(word.text));
  if (name === "source" || name === ".") return operands[0] !== undefined && isTextGivenAsFile(operands[0]);
  // `bash -c …` is a command line, read elsewhere; `bash script` runs a file, like any program;
  // `bash -s args` and `bash -i` read stdin whatever follows.
  const options = words
    .slice(1)
    .filter((word) => /^-[A-Za-z]+$/.test(word.text))
    .map((word) => word.text);
  if (options.some((text) => text.includes("c"))) return false;
  return options.some((text) => /[si]/.test(text)) || operands.length === 0 || isTextGivenAsFile(operands[0]!);
}

/**
 * What the command reads on stdin, when the line shows it: here-strings, here-documents, the
 * output of `echo`/`printf`/`cat <<EOF` piped in or produced in `<(…)`. Undefined when the input
 * is something else (another program's output, a file).
 */
function stdinText(command: SimpleCommand, producer: SimpleCommand | undefined): string[] | undefined {
  const given = [
    ...command.redirections.filter((redirection) => redirection.operator === "<<<").map((redirection) => redirection.target.text),
    ...command.hereDocuments.map((body) => body.text),
  ];
  const substituted = [...command.words, ...command.redirections.map((redirection) => redirection.target)].flatMap((word) =>
    word.segments.flatMap((segment) => segment.commands ?? []),
  );
  const produced = [...(producer ? [producer] : []), ...substituted.flatMap((line) => parseShell(line).commands)].map(producedText);
  if (produced.some((text) => text === undefined)) return undefined;
  const texts = [...given, ...produced.flatMap((text) => text ?? [])];
  // Input from a file (`sh < script`) is not on the line.
  if (texts.length === 0 || command.redirections.some((redirection) => redirection.operator === "<")) return undefined;
  return texts;
}

/** Text a command prints that can be known without running it: `echo …`, `printf …`, `cat <<EOF`. */
function producedText(producer: SimpleCommand): string[] | undefined {
  const name = programName(producer.words);
  const args = producer.words.slice(1).map((word) => word.text);
  if (name === "echo") return [args.filter((text, index) => !(index === 0 && /^-[neE]+$/.test(text))).join(" ")];
  if (name === "printf") return [args.join(" ").replace(/\\n/g, "\n")];
  if (name === "cat")
    return [
      ...producer.hereDocuments.map((body) => body.text),
      ...producer.redirections.filter((redirection) => redirection.operator === "<<<").map((redirection) => redirection.target.text),
    ];
  return undefined;
}

/** `-`, `/dev/stdin` and open descriptors (`/dev/fd/3` with `3<<< "…"`): text the line supplies, not a file. */
function isStdinName(text: string): boolean {
  return text === "-" || text === "/dev/stdin" || /^\/(dev|proc\/self)\/fd\/[0-9]+$/.test(text);
}
