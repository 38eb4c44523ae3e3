import { arChanges, cpioChanges, patchChanges, sevenZipChanges, tarChanges, unzipChanges } from "./archive-paths.js";
import { awkOutputs, inPlaceEdits, vimOutputs } from "./editor-writes.js";
import { hasOption, literalWord, optionValues, scanArguments, withoutPrefix, type LenientGrammar } from "./lenient-options.js";
import { writes, type ChangedPath } from "./path-change.js";
import { allOperands, byOptions, copyDestinations, deletions, permissionChanges, type PathReader } from "./path-readers.js";
import { SORT_GRAMMAR } from "./runner-programs.js";
import type { ShellWord } from "./shell-syntax.js";

/**
 * What the file and text tools change: coreutils, editors and pagers, archivers and compressors,
 * converters. One part of the table changed-paths.ts reads.
 */

const COPY_GRAMMAR: LenientGrammar = {
  shortWithValue: "St",
  longWithValue: ["--suffix", "--target-directory"],
  longWithAttachedValue: ["--backup", "--reflink", "--sparse", "--preserve", "--no-preserve", "--update", "--context"],
};
const INSTALL_GRAMMAR: LenientGrammar = {
  shortWithValue: "StmogC",
  longWithValue: ["--suffix", "--target-directory", "--mode", "--owner", "--group", "--strip-program", "--context"],
  longWithAttachedValue: ["--backup"],
};
const COMPRESSOR: PathReader = (words) => {
  const scanned = scanArguments(words, { shortWithValue: "oSbBLTM", longWithValue: ["--suffix", "--output", "--threads", "--memory"] });
  if (hasOption(scanned, ["-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list"])) return [];
  return [...optionValues(scanned, ["-o", "--output"]), ...scanned.operands, ...scanned.operands.map((word) => withoutSuffix(word))].map(
    (word) => writes(word),
  );
};

/** `x.gz` → `x`: the file a decompressor writes beside the one it reads. */
function withoutSuffix(word: ShellWord): ShellWord {
  return literalWord(word.text.replace(/\.(gz|bz2|xz|lzma|zst|lz4|Z|tgz)$/, ""));
}

export const FILE_TOOL_CHANGES: Readonly<Record<string, PathReader>> = {
  sort: byOptions(["-o", "--output"], SORT_GRAMMAR),
  shuf: byOptions(["-o", "--output"], {
    shortWithValue: "oni",
    longWithValue: ["--output", "--head-count", "--input-range", "--random-source"],
  }),
  uniq: byOptions([], { shortWithValue: "fsw", longWithValue: ["--skip-fields", "--skip-chars", "--check-chars"] }, (operands) =>
    operands.slice(1, 2),
  ),
  xxd: byOptions([], { shortWithValue: "cglosnC" }, (operands) => operands.slice(1, 2)),
  tee: allOperands({ longWithAttachedValue: ["--output-error"] }),
  truncate: allOperands({ shortWithValue: "sr", longWithValue: ["--size", "--reference"] }),
  touch: allOperands({ shortWithValue: "dtr", longWithValue: ["--date", "--reference", "--time"] }),
  mkdir: allOperands({ shortWithValue: "mZ", longWithValue: ["--mode", "--context"] }),
  mkfifo: allOperands({ shortWithValue: "mZ", longWithValue: ["--mode", "--context"] }),
  mknod: byOptions([], { shortWithValue: "mZ", longWithValue: ["--mode", "--context"] }, (operands) => operands.slice(0, 1)),
  sponge: byOptions([], {}, (operands) => operands.slice(0, 1)),
  dd: (words) => words.filter((word) => word.text.startsWith("of=")).map((word) => writes(withoutPrefix(word, "of="))),
  cp: copyDestinations(COPY_GRAMMAR),
  mv: copyDestinations(COPY_GRAMMAR, "deletes"),
  install: (words) => {
    const scanned = scanArguments(words, INSTALL_GRAMMAR);
    return hasOption(scanned, ["-d", "--directory"])
      ? scanned.operands.map((word) => writes(word))
      : copyDestinations(INSTALL_GRAMMAR)(words);
  },
  // A link to a protected file is a way to write it later under another name.
  ln: (words) => [
    ...copyDestinations(COPY_GRAMMAR)(words),
    ...scanArguments(words, COPY_GRAMMAR)
      .operands.slice(0, -1)
      .map((word): ChangedPath => ({ word, change: "links" })),
  ],
  link: allOperands({}),
  rm: deletions({ shortWithValue: "", longWithAttachedValue: ["--interactive", "--preserve-root"] }),
  unlink: deletions({}),
  rmdir: deletions({}),
  shred: (words) =>
    scanArguments(words, { shortWithValue: "ns", longWithValue: ["--iterations", "--size", "--random-source"] }).operands.map((word) =>
      writes(word),
    ),
  chmod: permissionChanges(true),
  chown: permissionChanges(false),
  chgrp: permissionChanges(false),
  sed: inPlaceEdits("sed"),
  perl: inPlaceEdits("perl"),
  ruby: inPlaceEdits("ruby"),
  awk: awkOutputs,
  gawk: awkOutputs,
  tar: tarChanges,
  bsdtar: tarChanges,
  unzip: unzipChanges,
  zip: byOptions(
    ["-O", "--output-file"],
    {
      shortWithValue: "bOnitxTD",
      longWithValue: ["--output-file", "--temp-path", "--suffixes", "--unzip-command", "--exclude", "--include"],
    },
    (operands) => operands.slice(0, 1),
  ),
  "7z": sevenZipChanges,
  "7za": sevenZipChanges,
  "7zr": sevenZipChanges,
  cpio: cpioChanges,
  ar: arChanges,
  patch: patchChanges,
  split: byOptions(
    [],
    {
      shortWithValue: "abClnt",
      longWithValue: [
        "--additional-suffix",
        "--suffix-length",
        "--lines",
        "--bytes",
        "--line-bytes",
        "--number",
        "--separator",
        "--filter",
      ],
    },
    (operands) => operands.slice(1, 2),
  ),
  csplit: byOptions(["-f", "--prefix"], { shortWithValue: "bfn", longWithValue: ["--suffix-format", "--prefix", "--digits"] }),
  less: byOptions(["-o", "-O", "--log-file", "--LOG-FILE"], {
    shortWithValue: "bhjkoOpPTxyz",
    longWithValue: ["--log-file", "--LOG-FILE", "--pattern", "--tag", "--prompt"],
  }),
  vim: vimOutputs,
  vi: vimOutputs,
  nvim: vimOutputs,
  ex: vimOutputs,
  // ed reads its commands on stdin; the file it is given is what they change.
  ed: byOptions([], { shortWithValue: "p" }, (operands) => operands),
  find: (words) =>
    words.flatMap((word, index) =>
      ["-fprint", "-fprint0", "-fls", "-fprintf"].includes(word.text) && words[index + 1] ? [writes(words[index + 1]!)] : [],
    ),
  yq: (words) =>
    words.some((word) => /^(-i|--inplace)$/.test(word.text))
      ? scanArguments(words, { shortWithValue: "epIo" })
          .operands.slice(1)
          .map((word) => writes(word))
      : [],
  gzip: COMPRESSOR,
  gunzip: COMPRESSOR,
  bzip2: COMPRESSOR,
  bunzip2: COMPRESSOR,
  xz: COMPRESSOR,
  unxz: COMPRESSOR,
  lzma: COMPRESSOR,
  unlzma: COMPRESSOR,
  zstd: COMPRESSOR,
  unzstd: COMPRESSOR,
  lz4: COMPRESSOR,
  pigz: COMPRESSOR,
  compress: COMPRESSOR,
  uncompress: COMPRESSOR,
  iconv: byOptions(["-o", "--output"], { shortWithValue: "oft", longWithValue: ["--output", "--from-code", "--to-code"] }),
  pandoc: byOptions(["-o", "--output"], {
    shortWithValue: "oftdMVA",
    longWithValue: ["--output", "--from", "--to", "--template", "--metadata", "--variable"],
  }),
  uudecode: byOptions(["-o", "--output-file"], { shortWithValue: "o", longWithValue: ["--output-file"] }),
};
