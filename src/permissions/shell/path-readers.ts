import path from "node:path";
import { hasOption, optionValues, scanArguments, type LenientGrammar, type ScannedArguments } from "./lenient-options.js";
import { writes, type ChangedPath } from "./path-change.js";
import { isDynamic, type ShellWord } from "./shell-syntax.js";

/**
 * The building blocks of the per-program tables of changed paths (changed-paths.ts): readers that
 * find the written paths in option values, operands, a copy's destination, the operands of a
 * deletion or of a permission change.
 */

export type PathReader = (words: ShellWord[]) => ChangedPath[];

/** A reader for programs whose written paths are option values, and maybe some operands. */
export function byOptions(
  written: readonly string[],
  grammar: LenientGrammar,
  operands?: (operands: ShellWord[], scanned: ScannedArguments) => ShellWord[],
): PathReader {
  return (words) => {
    const scanned = scanArguments(words, grammar);
    return [...optionValues(scanned, written), ...(operands?.(scanned.operands, scanned) ?? [])].map((word) => writes(word));
  };
}

export const allOperands = (grammar: LenientGrammar): PathReader => byOptions([], grammar, (operands) => operands);

/** `cp a b dir/`, `cp -t dir a b`: the destination, and what each source becomes inside it. */
export function copyDestinations(grammar: LenientGrammar, sourcesChange?: ChangedPath["change"]): PathReader {
  return (words) => {
    const scanned = scanArguments(words, grammar);
    const targetDirectory = optionValues(scanned, ["-t", "--target-directory"])[0];
    const destination = targetDirectory ?? (scanned.operands.length >= 2 ? scanned.operands.at(-1) : undefined);
    if (!destination) return [];
    const sources = scanned.operands.filter((word) => word !== destination);
    const inside = sources.filter((source) => !isDynamic(source)).map((source) => joinWord(destination, path.basename(source.text)));
    const moved: ChangedPath[] = sourcesChange ? sources.map((word) => ({ word, change: sourcesChange })) : [];
    return [writes(destination), ...inside.map((word) => writes(word)), ...moved];
  };
}

function joinWord(directory: ShellWord, name: string): ShellWord {
  return { text: `${directory.text}/${name}`, segments: [...directory.segments, { kind: "quoted", text: `/${name}` }] };
}

export function deletions(grammar: LenientGrammar): PathReader {
  return (words) => {
    const scanned = scanArguments(words, grammar);
    const recursive = hasOption(scanned, ["-r", "-R", "--recursive"]);
    return scanned.operands.map((word) => ({ word, change: "deletes", recursive }));
  };
}

/** chmod's mode, chown's owner: the first operand, unless `--reference` gives it (or chmod's mode looks like `-w`). */
export function permissionChanges(modeMayLookLikeOption: boolean): PathReader {
  return (words) => {
    const scanned = scanArguments(words, { longWithValue: ["--reference", "--from"] });
    const modeAsOption = modeMayLookLikeOption && words.slice(1).some((word) => /^-[rwxXst]+$/.test(word.text));
    const targets = hasOption(scanned, ["--reference"]) || modeAsOption ? scanned.operands : scanned.operands.slice(1);
    return targets.map((word) => ({ word, change: "permissions" }));
  };
}
