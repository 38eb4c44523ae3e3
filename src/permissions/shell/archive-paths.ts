import { hasOption, literalWord, optionValues, scanArguments, withoutPrefix, type LenientGrammar } from "./lenient-options.js";
import { writes, type ChangedPath } from "./path-change.js";
import type { ShellWord } from "./shell-syntax.js";

/**
 * Archivers and patch: the archive they create or update, and extraction, which writes names
 * only the archive (or the patch) knows into a directory — reported as `extracts`, which always
 * asks, since those names cannot be checked beforehand and may land in protected places.
 */

export function unzipChanges(words: ShellWord[]): ChangedPath[] {
  const scanned = scanArguments(words, { shortWithValue: "dxP" });
  if (hasOption(scanned, ["-l", "-t", "-v", "-Z", "-z", "-p", "-c"])) return [];
  return [{ word: optionValues(scanned, ["-d"])[0] ?? literalWord("."), change: "extracts" }];
}

export function arChanges(words: ShellWord[]): ChangedPath[] {
  const letters = words[1]?.text.replace(/^-/, "") ?? "";
  if (letters.includes("x")) return [{ word: literalWord("."), change: "extracts" }];
  return /[rqdm]/.test(letters) && words[2] ? [writes(words[2])] : [];
}

const TAR_GRAMMAR: LenientGrammar = {
  shortWithValue: "bCfFgHIKLNTVX",
  longWithValue: [
    "--file",
    "--directory",
    "--files-from",
    "--exclude",
    "--exclude-from",
    "--to-command",
    "--use-compress-program",
    "--listed-incremental",
    "--index-file",
    "--info-script",
    "--new-volume-script",
    "--rsh-command",
    "--owner",
    "--group",
    "--mode",
    "--mtime",
    "--newer",
    "--newer-mtime",
    "--after-date",
    "--transform",
    "--xform",
    "--label",
    "--blocking-factor",
    "--record-size",
    "--format",
    "--tape-length",
    "--starting-file",
    "--strip-components",
    "--volno-file",
    "--rmt-command",
    "--exclude-tag",
    "--suffix",
  ],
  longWithAttachedValue: [
    "--backup",
    "--checkpoint",
    "--checkpoint-action",
    "--occurrence",
    "--level",
    "--quoting-style",
    "--sparse-version",
    "--warning",
    "--one-top-level",
  ],
};
/** Letters of tar's first argument that take a value, in the old form `tar xzfC a.tar dir`. */
const TAR_VALUE_LETTERS = new Set([..."bCfFgHIKLNTVX"]);

/**
 * tar: the archive it creates or updates (`-f` with `c`, `r`, `u`, `A`), its snapshot file, and
 * extraction (`x`), which writes names only the archive knows into `-C DIR`.
 */
export function tarChanges(words: ShellWord[]): ChangedPath[] {
  const scanned = scanArguments(expandOldTarOptions(words), TAR_GRAMMAR);
  const has = (names: string[]) => hasOption(scanned, names);
  const found: ChangedPath[] = optionValues(scanned, ["-g", "--listed-incremental", "--index-file"]).map((word) => writes(word));
  if (has(["-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate", "--concatenate", "--delete"]))
    found.push(...optionValues(scanned, ["-f", "--file"]).map((word) => writes(word)));
  if (has(["--remove-files"])) found.push(...scanned.operands.map((word) => ({ word, change: "deletes" as const })));
  if (has(["-x", "--extract", "--get"]) && !has(["-O", "--to-stdout"])) {
    const directories = optionValues(scanned, ["-C", "--directory"]);
    const into = has(["-P", "--absolute-names"]) ? [literalWord("/")] : directories.length > 0 ? directories : [literalWord(".")];
    found.push(...into.map((word) => ({ word, change: "extracts" as const })));
  }
  return found;
}

/** `tar xzf a.tar -C d` → `tar -x -z -f a.tar -C d`. */
function expandOldTarOptions(words: ShellWord[]): ShellWord[] {
  const first = words[1];
  if (!first || first.text.startsWith("-") || !/^[A-Za-z]+$/.test(first.text)) return words;
  const expanded: ShellWord[] = [words[0]!];
  let valueAt = 2;
  for (const letter of first.text) {
    expanded.push(literalWord(`-${letter}`));
    if (TAR_VALUE_LETTERS.has(letter) && words[valueAt]) expanded.push(words[valueAt++]!);
  }
  return [...expanded, ...words.slice(valueAt)];
}

export function sevenZipChanges(words: ShellWord[]): ChangedPath[] {
  const command = words[1]?.text;
  const operands = words.slice(2).filter((word) => !word.text.startsWith("-"));
  const output = words.find((word) => word.text.startsWith("-o"));
  if (command === "x" || command === "e") return [{ word: output ? withoutPrefix(output, "-o") : literalWord("."), change: "extracts" }];
  return ["a", "u", "d", "rn"].includes(command ?? "") && operands[0] ? [writes(operands[0])] : [];
}

export function cpioChanges(words: ShellWord[]): ChangedPath[] {
  const scanned = scanArguments(words, {
    shortWithValue: "DEFHIMORs",
    longWithValue: ["--directory", "--file", "--format", "--pattern-file", "--message", "--owner", "--rsh-command"],
  });
  if (hasOption(scanned, ["-i", "--extract"]))
    return [{ word: optionValues(scanned, ["-D", "--directory"])[0] ?? literalWord("/"), change: "extracts" }];
  if (hasOption(scanned, ["-p", "--pass-through"])) return scanned.operands.slice(0, 1).map((word) => ({ word, change: "extracts" }));
  return optionValues(scanned, ["-O", "-F", "--file"]).map((word) => writes(word));
}

/** patch: the file named, its output and reject files, or — with no file named — names only the patch knows. */
export function patchChanges(words: ShellWord[]): ChangedPath[] {
  const scanned = scanArguments(words, {
    shortWithValue: "BDdFiopYrVzgm",
    longWithValue: [
      "--prefix",
      "--ifdef",
      "--directory",
      "--fuzz",
      "--input",
      "--output",
      "--strip",
      "--basename-prefix",
      "--reject-file",
      "--version-control",
      "--suffix",
      "--get",
      "--quoting-style",
      "--reject-format",
    ],
  });
  const directory = optionValues(scanned, ["-d", "--directory"])[0];
  const written = optionValues(scanned, ["-o", "--output", "-r", "--reject-file"]).map((word) => writes(word, directory));
  if (hasOption(scanned, ["--dry-run", "-C", "--check"])) return [];
  const target = scanned.operands[0];
  return [...written, target ? writes(target, directory) : { word: directory ?? literalWord("."), change: "extracts" }];
}
