import path from "node:path";
import { programName } from "./command-runners.js";
import { scanArguments, optionValues, type LenientGrammar } from "./lenient-options.js";
import { isPrintOnlySedScript } from "./sed-script.js";
import { isDynamic, parseShell, type ShellWord, type SimpleCommand } from "./shell-syntax.js";

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

interface Interpreter {
  grammar: LenientGrammar;
  /** Options whose value is code. */
  codeOptions: readonly string[];
  /** Options that name a file of code (then the first operand is data, not code). */
  fileOptions?: readonly string[];
  /** The first operand is the program text (awk, sed) rather than a script file. */
  programIsFirstOperand?: boolean;
  /** Words starting with `+` are commands (vim, less). */
  plusCommands?: boolean;
  /** Whether a program text runs or writes anything; texts that cannot are dropped (`sed s/a/b/`, `awk '{print $1}'`). */
  mayAct?: (code: string) => boolean;
  /** Operands after the first are commands (sqlite3 DB '.shell rm x'). */
  operandsAfterFirstAreCode?: boolean;
  /**
   * When it reads its program on stdin: `withoutScript` when given neither code nor a script file
   * (python, perl); `withoutCode` when given no code, its operands being data (sqlite3's database).
   */
  readsCodeOnStdin?: "withoutScript" | "withoutCode";
}

// `-m module` runs a module, as a script file would.
const PYTHON: Interpreter = {
  grammar: { shortWithValue: "cmWXQ" },
  codeOptions: ["-c"],
  fileOptions: ["-m"],
  readsCodeOnStdin: "withoutScript",
};
const NODE: Interpreter = {
  grammar: {
    shortWithValue: "eprC",
    longWithValue: ["--eval", "--print", "--require", "--import", "--input-type", "--loader", "--experimental-loader", "--conditions"],
  },
  codeOptions: ["-e", "-p", "--eval", "--print"],
  readsCodeOnStdin: "withoutScript",
};
/**
 * sed runs commands with `e` (and the `e` flag of `s`), and reads or writes files with `r`, `R`,
 * `w`, `W`. Either its own parser says so, or one of those letters stands alone where a command or
 * flag may (after a blank, `;`, `{`, `}`, `!`, an address or a delimiter): the union errs toward acting.
 */
const sedMayAct = (code: string): boolean => !isPrintOnlySedScript(code) || /(^|[\s;{}!0-9$/,])[eEwWrR](\s|$)/.test(code);
/** awk runs programs through `system()` and pipes, and writes files with `>`. */
const awkMayAct = (code: string): boolean => /system|getline|[|>]/.test(code);
const AWK_GRAMMAR: LenientGrammar = {
  shortWithValue: "vfFeEilW",
  longWithValue: ["--assign", "--file", "--field-separator", "--source", "--exec", "--include", "--load"],
};
const AWK: Interpreter = {
  grammar: AWK_GRAMMAR,
  codeOptions: ["-e", "--source"],
  mayAct: awkMayAct,
  fileOptions: ["-f", "--file", "-E", "--exec"],
  programIsFirstOperand: true,
};
const VIM: Interpreter = {
  grammar: { shortWithValue: "cSsTuUiwWtq", longWithValue: ["--cmd"] },
  codeOptions: ["-c", "--cmd"],
  plusCommands: true,
};
const PAGER: Interpreter = {
  grammar: { shortWithValue: "bhjkoOpPTxyz", longWithValue: ["--log-file", "--LOG-FILE", "--pattern", "--tag", "--prompt"] },
  codeOptions: [],
  plusCommands: true,
};

const INTERPRETERS: Readonly<Record<string, Interpreter>> = {
  python: PYTHON,
  python2: PYTHON,
  python3: PYTHON,
  pypy: PYTHON,
  pypy3: PYTHON,
  perl: {
    grammar: { shortWithValue: "eE", shortWithAttachedValue: "iIMmxl0dDC" },
    codeOptions: ["-e", "-E"],
    readsCodeOnStdin: "withoutScript",
  },
  ruby: { grammar: { shortWithValue: "eIrCEKTF", shortWithAttachedValue: "ix0l" }, codeOptions: ["-e"], readsCodeOnStdin: "withoutScript" },
  node: NODE,
  nodejs: NODE,
  bun: NODE,
  php: {
    grammar: { shortWithValue: "rBREFfdcz" },
    codeOptions: ["-r", "-B", "-R", "-E"],
    fileOptions: ["-f", "-F"],
    readsCodeOnStdin: "withoutScript",
  },
  lua: { grammar: { shortWithValue: "el" }, codeOptions: ["-e"], readsCodeOnStdin: "withoutScript" },
  luajit: { grammar: { shortWithValue: "elj" }, codeOptions: ["-e"], readsCodeOnStdin: "withoutScript" },
  Rscript: { grammar: { shortWithValue: "e" }, codeOptions: ["-e"], readsCodeOnStdin: "withoutScript" },
  R: { grammar: { shortWithValue: "e" }, codeOptions: ["-e"], readsCodeOnStdin: "withoutScript" },
  osascript: { grammar: { shortWithValue: "els" }, codeOptions: ["-e"], readsCodeOnStdin: "withoutScript" },
  pwsh: {
    grammar: { shortWithValue: "cf", singleDashWithValue: ["-Command", "-command", "-EncodedCommand", "-ec", "-File", "-file"] },
    codeOptions: ["-c", "-Command", "-command", "-EncodedCommand", "-ec"],
    readsCodeOnStdin: "withoutScript",
  },
  expect: { grammar: { shortWithValue: "cfD" }, codeOptions: ["-c"], fileOptions: ["-f"], readsCodeOnStdin: "withoutScript" },
  tclsh: { grammar: {}, codeOptions: [], readsCodeOnStdin: "withoutScript" },
  wish: { grammar: {}, codeOptions: [], readsCodeOnStdin: "withoutScript" },
  awk: AWK,
  gawk: AWK,
  mawk: AWK,
  nawk: AWK,
  sed: {
    grammar: {
      shortWithValue: "efl",
      shortWithAttachedValue: "i",
      longWithValue: ["--expression", "--file", "--line-length"],
      longWithAttachedValue: ["--in-place"],
    },
    codeOptions: ["-e", "--expression"],
    fileOptions: ["-f", "--file"],
    programIsFirstOperand: true,
    mayAct: sedMayAct,
  },
  vim: VIM,
  vi: VIM,
  nvim: VIM,
  ex: VIM,
  view: VIM,
  gvim: VIM,
  rvim: VIM,
  vimdiff: VIM,
  evim: VIM,
  less: PAGER,
  more: PAGER,
  most: PAGER,
  ed: { grammar: { shortWithValue: "p" }, codeOptions: [], readsCodeOnStdin: "withoutCode" },
  gdb: {
    grammar: {
      singleDashWithValue: [
        "-ex",
        "-iex",
        "-x",
        "-ix",
        "-eval-command",
        "-init-eval-command",
        "-command",
        "-init-command",
        "-cd",
        "-d",
        "-directory",
        "-p",
        "-pid",
        "-c",
        "-core",
        "-s",
        "-symbols",
        "-e",
        "-exec",
        "-se",
        "-b",
        "-D",
        "-data-directory",
        "-tty",
      ],
    },
    codeOptions: ["-ex", "-iex", "-eval-command", "-init-eval-command"],
    fileOptions: ["-x", "-ix", "-command", "-init-command"],
  },
  make: {
    grammar: {
      shortWithValue: "fCIlWoE",
      longWithValue: [
        "--file",
        "--makefile",
        "--directory",
        "--include-dir",
        "--load-average",
        "--what-if",
        "--old-file",
        "--assume-old",
        "--new-file",
        "--assume-new",
        "--eval",
      ],
    },
    codeOptions: ["-E", "--eval"],
    fileOptions: ["-f", "--file", "--makefile"],
  },
  sqlite3: {
    grammar: { singleDashWithValue: ["-cmd", "-separator", "-newline", "-nullvalue", "-init", "-vfs", "-mmap", "-maxsize"] },
    codeOptions: ["-cmd"],
    operandsAfterFirstAreCode: true,
    readsCodeOnStdin: "withoutCode",
  },
  psql: {
    grammar: {
      shortWithValue: "cdfhpUvTLoPFR",
      longWithValue: ["--command", "--dbname", "--file", "--host", "--port", "--username", "--set", "--variable", "--output", "--log-file"],
    },
    codeOptions: ["-c", "--command"],
    fileOptions: ["-f", "--file"],
    readsCodeOnStdin: "withoutCode",
  },
  mysql: {
    grammar: { shortWithValue: "eDhPpuS", longWithValue: ["--execute", "--database", "--host", "--port", "--user", "--socket"] },
    codeOptions: ["-e", "--execute"],
    readsCodeOnStdin: "withoutCode",
  },
};

/** Shells, which read their stdin as a command line when given no command or script. */
export const SHELLS: ReadonlySet<string> = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "yash", "tcsh", "csh"]);

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
  const interpreter = INTERPRETERS[name];
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

/** Programs whose arguments can be code: shells, interpreters, `eval`, `source`. */
export function takesCodeAsArguments(name: string): boolean {
  return SHELLS.has(name) || INTERPRETERS[interpreterName(name)] !== undefined || ["eval", "source", "."].includes(name);
}

/** `python3.12` → `python3`, `perl5.36` → `perl`. */
function interpreterName(name: string): string {
  return name.replace(/^(python[0-9]?|pypy[0-9]?|perl|ruby|lua|php)[0-9.]*$/, "$1");
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

/**
 * Command lines that may hide in code: its string literals (`os.system('rm x')`, `system("rm x")`),
 * the literals of a list joined (`['rm', '-rf', '/']`), and shell escapes of editors, pagers and
 * debuggers (`!rm x`, `shell rm x`). Guesses, so callers only ever add matches from them.
 */
export function commandLinesInCode(code: string): string[] {
  const literals = stringLiterals(code);
  const escapes = [...code.matchAll(/(?:^|[\s;|:'"])(?:!|shell\s+|silent!?\s*!|system\s+|\\!\s*|\.shell\s+|\.system\s+)([^\n'"]+)/g)].map(
    (match) => match[1]!,
  );
  // sed's `e command`, and the pieces of `s/…/…/e`, whose replacement is what runs.
  const sedCommands = [...code.matchAll(/(?:^|[\s;{}0-9$/!])e\s+([^\n]+)/g)].map((match) => match[1]!);
  const lines = [...literals, ...escapes, ...sedCommands, ...code.split("\n"), ...code.split("/")];
  if (literals.length > 1) lines.push(literals.join(" "));
  return [...new Set(lines.map((line) => line.trim()).filter((line) => line !== ""))];
}

/**
 * Paths a piece of code names: in its literals (`open('/home/u/.bashrc', 'a')`, Perl's
 * `">>~/.bashrc"`) and as bare words (sqlite's `.output /etc/x`, ed's `w ~/.bashrc`).
 */
export function pathsInCode(code: string): string[] {
  const bareWords = code.split(/[\s;|&(){}<>,'"`=]+/).filter((word) => /^(\/[^/]|~\/|\$HOME\/)/.test(word));
  return [...stringLiterals(code).map((literal) => literal.replace(/^\s*(\+?[<>]{1,2}|\|)\s*/, "").trim()), ...bareWords].filter(
    (literal) =>
      /^(\/|~|\.\.?\/|\$HOME\/)/.test(literal) ||
      /(^|\/)\.(git|ssh|bashrc|zshrc|profile|claude|agentwire|mcp\.json|envrc)(\/|$)/.test(literal),
  );
}

/** Text between matching quotes of any kind the common languages use. */
function stringLiterals(code: string): string[] {
  const literals: string[] = [];
  const quote = /(["'`])((?:\\.|(?!\1)[^\\])*)\1/gs;
  for (const match of code.matchAll(quote)) literals.push(match[2]!.replace(/\\(.)/g, "$1"));
  return literals;
}
