import { hasOption, literalWord, optionValues, scanArguments, type LenientGrammar } from "./lenient-options.js";
import { writes, type ChangedPath } from "./path-change.js";
import type { PathReader } from "./path-readers.js";
import type { ShellWord } from "./shell-syntax.js";

/*
 * The files editors and text-processing programs change from the scripts they are given, for the
 * tables of changed paths (file-tool-changes.ts).
 */

/**
 * `sed -i`, `perl -pi`, `ruby -i`: the files after the program text (all operands once `-e`/`-f`
 * gives it). sed's `w FILE`, `W FILE` and `s///w FILE` write too: the file name runs to the end of
 * the line. Rather than parse the script, every `w`/`W` where a command or a flag may stand (after
 * a blank, `;`, `{`, `}`, `!`, an address or a delimiter) is read as one — a guess that can only
 * add a question.
 */
export function inPlaceEdits(program: "sed" | "perl" | "ruby"): PathReader {
  const grammar: LenientGrammar =
    program === "sed"
      ? {
          shortWithValue: "efl",
          shortWithAttachedValue: "i",
          longWithValue: ["--expression", "--file", "--line-length"],
          longWithAttachedValue: ["--in-place"],
        }
      : { shortWithValue: "eEIrCEKTF", shortWithAttachedValue: "iMmxl0dD" };
  return (words) => {
    const scanned = scanArguments(words, grammar);
    const scripts = optionValues(scanned, ["-e", "--expression", "-E"]);
    const programGiven = scripts.length > 0 || hasOption(scanned, ["-f", "--file"]);
    const script = programGiven ? undefined : scanned.operands[0];
    const inPlace = hasOption(scanned, ["-i", "--in-place"]);
    const edited = inPlace ? (programGiven ? scanned.operands : scanned.operands.slice(1)) : [];
    const scriptTexts = [...scripts, ...(script ? [script] : [])].map((word) => word.text);
    const sedWrites = program === "sed" ? scriptTexts.flatMap(sedWrittenFiles).map(literalWord) : [];
    return [...edited, ...sedWrites].map((word) => writes(word));
  };
}

function sedWrittenFiles(script: string): string[] {
  return [...script.matchAll(/(?:^|[\s;{}!0-9$/,gpiImM])[wW][ \t]*([^\n]+)/g)]
    .map((match) => match[1]!.trim())
    .filter((file) => file !== "" && file !== "/dev/stdout" && file !== "/dev/stderr");
}

/** gawk's in-place edit (`-i inplace`) and files its debugging options write (`-o[file]`, `--profile=file`). */
export function awkOutputs(words: ShellWord[]): ChangedPath[] {
  const scanned = scanArguments(words, {
    shortWithValue: "vfFeEilW",
    shortWithAttachedValue: "dop",
    longWithValue: ["--assign", "--file", "--field-separator", "--source", "--exec", "--include", "--load"],
    longWithAttachedValue: ["--dump-variables", "--pretty-print", "--profile"],
  });
  const debugFiles = optionValues(scanned, ["-d", "-o", "-p", "--dump-variables", "--pretty-print", "--profile"]);
  const inPlace = optionValues(scanned, ["-i", "--include"]).some((word) => word.text === "inplace");
  const programGiven = hasOption(scanned, ["-f", "--file", "-e", "--source", "-E", "--exec"]);
  const edited = inPlace ? (programGiven ? scanned.operands : scanned.operands.slice(1)) : [];
  return [...debugFiles, ...edited].map((word) => writes(word));
}

/**
 * `vim -w FILE` (keys typed go there), `:w FILE`-like commands in `-c`/`+`, and — once it is
 * given commands to run (`-c`, `+`, `-s`, `-S`) — the files it edits, which `:x` or `:wq` save.
 */
export function vimOutputs(words: ShellWord[]): ChangedPath[] {
  const scanned = scanArguments(words, { shortWithValue: "cSsTuUiwWtq", longWithValue: ["--cmd"] });
  const plusCommands = scanned.operands.filter((word) => word.text.startsWith("+"));
  const commands = [...optionValues(scanned, ["-c", "--cmd"]).map((word) => word.text), ...plusCommands.map((word) => word.text.slice(1))];
  const written = commands.flatMap((text) =>
    [...text.matchAll(/(?:^|\|)\s*(?:w|wq|x|write|wall|sav|saveas|up|update)!?\s*(?:>>)?\s*([^\s|]+)/g)].map((match) =>
      literalWord(match[1]!),
    ),
  );
  const scripted = commands.length > 0 || hasOption(scanned, ["-s", "-S"]);
  const edited = scripted ? scanned.operands.filter((word) => !word.text.startsWith("+")) : [];
  return [...optionValues(scanned, ["-w", "-W"]), ...written, ...edited].map((word) => writes(word));
}
