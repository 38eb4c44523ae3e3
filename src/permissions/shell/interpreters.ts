import type { LenientGrammar } from "./lenient-options.js";
import { GDB_GRAMMAR } from "./runner-programs.js";
import { isPrintOnlySedScript } from "./sed-script.js";

/**
 * The programs that run code given as text or read from a file (interpreters, editors, pagers,
 * debuggers, database shells), each with where its code comes from; and the shells. embedded-code.ts
 * reads a command with them.
 */

export interface Interpreter {
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
export const INTERPRETERS: Readonly<Record<string, Interpreter>> = {
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
    grammar: GDB_GRAMMAR,
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

/** Programs whose arguments can be code: shells, interpreters, `eval`, `source`. */
export function takesCodeAsArguments(name: string): boolean {
  return SHELLS.has(name) || INTERPRETERS[interpreterName(name)] !== undefined || ["eval", "source", "."].includes(name);
}

/** `python3.12` → `python3`, `perl5.36` → `perl`. */
export function interpreterName(name: string): string {
  return name.replace(/^(python[0-9]?|pypy[0-9]?|perl|ruby|lua|php)[0-9.]*$/, "$1");
}
