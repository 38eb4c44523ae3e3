import path from "node:path";
import { hasOption, optionValues, scanArguments } from "./lenient-options.js";
import { RUNNERS, SORT_GRAMMAR, type Runner } from "./runner-programs.js";
import type { ShellWord } from "./shell-syntax.js";
import { ownEntry } from "../../validation/own-entry.js";

/**
 * Reading a command that runs another: the program's name, the command a runner (runner-programs.ts)
 * runs, and the command lines an option carries, a runner's or that of a program whose words are
 * otherwise data.
 */

/** The program's name as rules know it: `/usr/bin/rm` → `rm`; zsh's `=rm` → `rm`. A directory (`/rm/`) names none. */
export function programName(words: readonly ShellWord[]): string {
  const text = words[0]?.text ?? "";
  return text.endsWith("/") ? text : path.posix.basename(text.replace(/^=/, ""));
}

/** The command a runner runs, or undefined when `words` is not a runner (or runs nothing). */
export function commandUnderRunner(words: ShellWord[]): ShellWord[] | undefined {
  const runner = RUNNERS[programName(words)];
  if (!runner) return undefined;
  if (runner.commandAfter !== undefined) {
    const at = words.findIndex((word, index) => index > 0 && word.text === runner.commandAfter);
    return at === -1 ? undefined : words.slice(at + 1);
  }
  const scanned = scanArguments(words, { ...runner.grammar, stopAtOperand: true });
  if (runner.commandNeedsOption && !hasOption(scanned, runner.commandNeedsOption)) return undefined;
  let index = scanned.end;
  while (runner.skipsAssignments && index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index]!.text)) index++;
  if (!runner.operandsBeforeCommand) return words.slice(index);
  // Options may follow those operands too (`flock FILE -c …`).
  return words.slice(scanArguments(words, { ...runner.grammar, stopAtOperand: true }, index + runner.operandsBeforeCommand).end);
}

/**
 * Programs whose words are otherwise data but which run a program named by an option: its value
 * is a command line (`rg --pre CMD`, `tar --to-command=CMD`, `rsync -e CMD`, `man -P CMD`).
 */
const COMMAND_OPTIONS: Readonly<Record<string, Pick<Runner, "grammar" | "commandLineOptions">>> = {
  rg: {
    grammar: {
      longWithValue: [
        "--pre",
        "--pre-glob",
        "--type-add",
        "--glob",
        "--iglob",
        "--regexp",
        "--file",
        "--max-count",
        "--context",
        "--after-context",
        "--before-context",
      ],
      shortWithValue: "egfmACBtTjM",
    },
    commandLineOptions: ["--pre"],
  },
  sort: {
    grammar: SORT_GRAMMAR,
    commandLineOptions: ["--compress-program"],
  },
  tar: {
    grammar: {
      shortWithValue: "bCfFgHIKLNTVX",
      longWithValue: [
        "--to-command",
        "--use-compress-program",
        "--rsh-command",
        "--info-script",
        "--new-volume-script",
        "--file",
        "--directory",
        "--files-from",
        "--exclude",
      ],
    },
    commandLineOptions: ["--to-command", "--use-compress-program", "-I", "--rsh-command", "--info-script", "-F", "--new-volume-script"],
  },
  zip: {
    grammar: { shortWithValue: "bOnitxTD", longWithValue: ["--unzip-command", "--output-file", "--temp-path"] },
    commandLineOptions: ["--unzip-command"],
  },
  rsync: {
    grammar: { shortWithValue: "efBTM", longWithValue: ["--rsh", "--rsync-path", "--filter", "--exclude", "--include"] },
    commandLineOptions: ["-e", "--rsh", "--rsync-path"],
  },
  scp: { grammar: { shortWithValue: "cFiJloPSDX" }, commandLineOptions: ["-S"] },
  split: {
    grammar: {
      shortWithValue: "abClnt",
      longWithValue: ["--filter", "--additional-suffix", "--suffix-length", "--lines", "--bytes", "--line-bytes", "--number"],
    },
    commandLineOptions: ["--filter"],
  },
  man: {
    grammar: {
      shortWithValue: "PHCMSsLmepRE",
      longWithValue: ["--pager", "--html", "--config-file", "--manpath", "--sections", "--locale", "--preprocessor"],
    },
    commandLineOptions: ["-P", "--pager", "-H", "--html"],
  },
  wget: {
    grammar: {
      shortWithValue: "OoaPiBeUtTwQ",
      longWithValue: ["--use-askpass", "--output-document", "--output-file", "--directory-prefix", "--execute"],
    },
    commandLineOptions: ["--use-askpass"],
  },
};

/**
 * Shell command lines an option carries: a runner's (`su -c "rm x"`, `env -S "rm x"`) or that of
 * a program in COMMAND_OPTIONS (`rg --pre CMD`).
 */
export function optionCommandLines(words: ShellWord[]): string[] {
  const name = programName(words);
  const runner: Runner | undefined = ownEntry(RUNNERS, name) ?? ownEntry(COMMAND_OPTIONS, name);
  if (!runner?.commandLineOptions) return [];
  // GNU programs take options after operands too (`su user -c …`, `flock FILE -c …`), so the whole line is read.
  const scanned = scanArguments(words, { ...runner.grammar, stopAtOperand: runner.commandLineTakesRest === true });
  const values = optionValues(scanned, runner.commandLineOptions).map((value) => value.text);
  if (!runner.commandLineTakesRest) return values;
  const rest = words.slice(scanned.end).map((word) => word.text);
  return values.map((value) => [value, ...rest].join(" "));
}
