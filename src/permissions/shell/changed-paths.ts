import path from "node:path";
import { arChanges, cpioChanges, patchChanges, sevenZipChanges, tarChanges, unzipChanges } from "./archive-paths.js";
import { DATA_ONLY_PROGRAMS, RUNNERS, programName } from "./command-runners.js";
import { SHELLS } from "./embedded-code.js";
import { gitWrittenPaths, readGit } from "./git-options.js";
import {
  hasOption,
  literalWord,
  optionValues,
  scanArguments,
  withoutPrefix,
  type LenientGrammar,
  type ScannedArguments,
} from "./lenient-options.js";
import { writes, type ChangedPath } from "./path-change.js";
import { isDynamic, type ShellWord } from "./shell-syntax.js";

/**
 * The files and directories a command changes through its options and operands, per program:
 * `sort -o F`, `git log --output=F`, `cp a F`, `tee -a F`, `dd of=F`, `sed -i`/`w F`, `chmod … F`,
 * `tar -C D -x`, `rsync … D`, and so on. Redirections are the caller's. For programs not in the
 * table, long options named like an output (`--output`, `--log-file`, `--outdir`, …) and `-o`
 * count. Best effort in the safe direction: a word taken for a path by mistake can only add a
 * question.
 */

type PathReader = (words: ShellWord[]) => ChangedPath[];

export function changedPaths(words: ShellWord[]): ChangedPath[] {
  const name = programName(words);
  const reader = PROGRAM_CHANGES[name];
  if (reader) return reader(words);
  if (DATA_ONLY_PROGRAMS.has(name) || RUNNERS[name] || SHELLS.has(name)) return [];
  return outputsByName(words, NO_SHORT_OUTPUT.has(name));
}

/** A reader for programs whose written paths are option values, and maybe some operands. */
function byOptions(
  written: readonly string[],
  grammar: LenientGrammar,
  operands?: (operands: ShellWord[], scanned: ScannedArguments) => ShellWord[],
): PathReader {
  return (words) => {
    const scanned = scanArguments(words, grammar);
    return [...optionValues(scanned, written), ...(operands?.(scanned.operands, scanned) ?? [])].map((word) => writes(word));
  };
}

const allOperands = (grammar: LenientGrammar): PathReader => byOptions([], grammar, (operands) => operands);

/** Output-looking long options of programs not in the table (`--output`, `--out-dir`, `--log-file`, …). */
const OUTPUT_LONG_OPTION =
  /^--(out(put)?([-_]?(file|dir|directory|document|path))?|outfile|outdir|log[-_]?file|dump[-_]?file|save[-_]?file|write[-_]?file|export[-_]?file|report[-_]?file|target[-_]?dir(ectory)?|dest(ination)?([-_]?dir)?)$/i;
/** Programs whose `-o` is not an output file (a format, a flag, a mount option, a shell option). */
const NO_SHORT_OUTPUT = new Set([
  "ps",
  "pgrep",
  "pkill",
  "mount",
  "umount",
  "ssh",
  "scp",
  "sftp",
  "set",
  "shopt",
  "lsof",
  "ss",
  "netstat",
  "ip",
  "top",
  "htop",
  "lsblk",
  "findmnt",
  "blkid",
  "journalctl",
  "systemctl",
  "kubectl",
  "helm",
  "iostat",
  "readelf",
  "nm",
  "objdump",
  "pr",
  "free",
  "vmstat",
  "fuser",
  "dig",
  "host",
  "nslookup",
  "ping",
  "mtr",
]);

function outputsByName(words: ShellWord[], skipShortO: boolean): ChangedPath[] {
  const found: ChangedPath[] = [];
  words.forEach((word, index) => {
    if (index === 0) return;
    const text = word.text;
    const next = words[index + 1];
    const equals = text.indexOf("=");
    const name = equals === -1 ? text : text.slice(0, equals);
    if (OUTPUT_LONG_OPTION.test(name)) {
      if (equals !== -1) found.push(writes(withoutPrefix(word, text.slice(0, equals + 1))));
      else if (next && !next.text.startsWith("-")) found.push(writes(next));
    } else if (!skipShortO && text === "-o" && next && !next.text.startsWith("-")) found.push(writes(next));
    else if (!skipShortO && /^-o[^-=]/.test(text) && /[/~.]/.test(text)) found.push(writes(withoutPrefix(word, "-o")));
  });
  return found;
}

/** `cp a b dir/`, `cp -t dir a b`: the destination, and what each source becomes inside it. */
function copyDestinations(grammar: LenientGrammar, sourcesChange?: ChangedPath["change"]): PathReader {
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
const COMPILER_OUTPUT = byOptions(["-o"], { shortWithValue: "oIlLDUxeWTuz", longWithValue: [] });
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

const GPG_OUTPUTS = byOptions(["-o", "--output", "--logger-file", "--status-file"], {
  shortWithValue: "oruk",
  longWithValue: [
    "--output",
    "--recipient",
    "--local-user",
    "--homedir",
    "--default-key",
    "--keyserver",
    "--logger-file",
    "--status-file",
    "--passphrase-file",
  ],
});

/** npm's `--location=project` writes the project's .npmrc, otherwise the user's. */
function configLocation(words: ShellWord[], userFile: string): string {
  return words.some((word) => /^--location=project$|^-L=?project$/.test(word.text)) ? ".npmrc" : userFile;
}

const PROGRAM_CHANGES: Readonly<Record<string, PathReader>> = {
  sort: byOptions(["-o", "--output"], {
    shortWithValue: "oktTS",
    longWithValue: [
      "--output",
      "--key",
      "--field-separator",
      "--temporary-directory",
      "--buffer-size",
      "--parallel",
      "--batch-size",
      "--compress-program",
      "--files0-from",
      "--random-source",
      "--sort",
    ],
  }),
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
  git: (words) => {
    const git = readGit(words);
    return gitWrittenPaths(git).map((word) => writes(word, git.directory));
  },
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
  "ssh-keygen": (words) => {
    const scanned = scanArguments(words, { shortWithValue: "abCEfFGIJjKmMnNOrRsStVwYZzP" });
    // Showing, converting to stdout and searching only read the file named by -f.
    if (hasOption(scanned, ["-l", "-y", "-B", "-F", "-e", "-D"]) && !hasOption(scanned, ["-R", "-H"])) return [];
    const files = optionValues(scanned, ["-f"]);
    // -R and -H rewrite known_hosts, ~/.ssh's by default.
    if (files.length === 0 && hasOption(scanned, ["-R", "-H"])) files.push(literalWord("~/.ssh/known_hosts"));
    return files.map((word) => writes(word));
  },
  // Settings in the home directory that run or fetch code later: npm's script-shell, pip's index, systemd user units, a keyring.
  npm: (words) => {
    const changesConfig =
      (/^(config|c)$/.test(words[1]?.text ?? "") && /^(set|delete|edit)$/.test(words[2]?.text ?? "")) || words[1]?.text === "set";
    return changesConfig ? [writes(literalWord(configLocation(words, "~/.npmrc")))] : [];
  },
  pnpm: (words) =>
    words[1]?.text === "config" && /^(set|delete)$/.test(words[2]?.text ?? "")
      ? [writes(literalWord(configLocation(words, "~/.npmrc")))]
      : [],
  yarn: (words) =>
    words[1]?.text === "config" && /^(set|delete|unset)$/.test(words[2]?.text ?? "") ? [writes(literalWord("~/.yarnrc"))] : [],
  pip: (words) =>
    words[1]?.text === "config" && /^(set|unset|edit)$/.test(words[2]?.text ?? "") ? [writes(literalWord("~/.config/pip/pip.conf"))] : [],
  systemctl: (words) => {
    const texts = words.map((word) => word.text);
    const changing = texts.some((text) =>
      /^(enable|link|edit|preset|preset-all|mask|add-wants|add-requires|set-environment|import-environment|revert)$/.test(text),
    );
    if (!changing) return [];
    return [writes(literalWord(texts.includes("--user") ? "~/.config/systemd/user" : "/etc/systemd/system"))];
  },
  gpg: (words) => {
    const changesKeyring = words.some((word) =>
      /^--(import|recv-keys?|receive-keys|fetch-keys|gen-key|generate-key|full-gen-key|full-generate-key|quick-[a-z-]+|delete-[a-z-]+|edit-key|import-ownertrust|update-trustdb|sign-key|lsign-key|refresh-keys)$/.test(
        word.text,
      ),
    );
    return [...GPG_OUTPUTS(words), ...(changesKeyring ? [writes(literalWord("~/.gnupg/pubring.kbx"))] : [])];
  },
  gpg2: byOptions(["-o", "--output"], { shortWithValue: "oruk", longWithValue: ["--output", "--recipient", "--local-user", "--homedir"] }),
  openssl: byOptions(["-out", "-keyout"], {
    singleDashWithValue: [
      "-out",
      "-keyout",
      "-in",
      "-inkey",
      "-passin",
      "-passout",
      "-config",
      "-key",
      "-signkey",
      "-CA",
      "-CAkey",
      "-days",
      "-subj",
      "-newkey",
    ],
  }),
  curl: (words) => {
    const scanned = scanArguments(words, {
      shortWithValue: "oDcdHuXAbeEFKrTwxYyzm",
      longWithValue: [
        "--output",
        "--dump-header",
        "--cookie-jar",
        "--trace",
        "--trace-ascii",
        "--stderr",
        "--etag-save",
        "--hsts",
        "--alt-svc",
        "--libcurl",
        "--output-dir",
        "--data",
        "--header",
        "--user",
        "--request",
        "--config",
        "--upload-file",
        "--form",
      ],
    });
    return optionValues(scanned, [
      "-o",
      "--output",
      "-D",
      "--dump-header",
      "-c",
      "--cookie-jar",
      "--trace",
      "--trace-ascii",
      "--stderr",
      "--etag-save",
      "--hsts",
      "--alt-svc",
      "--libcurl",
      "--output-dir",
    ]).map((word) => writes(word));
  },
  wget: byOptions(
    [
      "-O",
      "--output-document",
      "-o",
      "--output-file",
      "-a",
      "--append-output",
      "-P",
      "--directory-prefix",
      "--save-cookies",
      "--warc-file",
    ],
    {
      shortWithValue: "OoaPiBeUtTwQ",
      longWithValue: [
        "--output-document",
        "--output-file",
        "--append-output",
        "--directory-prefix",
        "--save-cookies",
        "--warc-file",
        "--input-file",
        "--base",
        "--user-agent",
        "--tries",
        "--timeout",
        "--wait",
        "--quota",
        "--header",
        "--post-data",
        "--user",
        "--password",
      ],
    },
  ),
  time: byOptions(["-o", "--output"], { ...RUNNERS.time!.grammar, stopAtOperand: true }),
  strace: byOptions(["-o", "--output"], { ...RUNNERS.strace!.grammar, stopAtOperand: true }),
  ltrace: byOptions(["-o", "--output"], { ...RUNNERS.ltrace!.grammar, stopAtOperand: true }),
  valgrind: (words) =>
    words.flatMap((word) =>
      /^--(log-file|xml-file)=/.test(word.text) ? [writes(withoutPrefix(word, word.text.slice(0, word.text.indexOf("=") + 1)))] : [],
    ),
  script: byOptions(["-O", "--log-out", "-I", "--log-in", "-B", "--log-io", "-T", "--log-timing"], RUNNERS.script!.grammar, (operands) =>
    operands.slice(0, 1),
  ),
  "xvfb-run": byOptions(["-e", "--error-file", "-f", "--auth-file"], { ...RUNNERS["xvfb-run"]!.grammar, stopAtOperand: true }),
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
  rsync: rsyncChanges,
  scp: (words) => {
    const operands = scanArguments(words, { shortWithValue: "cFiJloPSDX" }).operands;
    const destination = operands.length >= 2 ? operands.at(-1) : undefined;
    return destination ? [{ word: destination, change: "writes", remote: isRemote(destination.text) }] : [];
  },
  ssh: byOptions(["-E"], { shortWithValue: "BbcDEeFIiJLlmOopQRSWw", stopAtOperand: true }),
  yq: (words) =>
    words.some((word) => /^(-i|--inplace)$/.test(word.text))
      ? scanArguments(words, { shortWithValue: "epIo" })
          .operands.slice(1)
          .map((word) => writes(word))
      : [],
  nmap: (words) => words.flatMap((word, index) => (/^-o[NXSGA]$/.test(word.text) && words[index + 1] ? [writes(words[index + 1]!)] : [])),
  tcpdump: byOptions(["-w"], { shortWithValue: "wrciCEFGmMsTVWyzZ" }),
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
  gcc: COMPILER_OUTPUT,
  "g++": COMPILER_OUTPUT,
  cc: COMPILER_OUTPUT,
  "c++": COMPILER_OUTPUT,
  clang: COMPILER_OUTPUT,
  "clang++": COMPILER_OUTPUT,
  ld: COMPILER_OUTPUT,
  "ld.lld": COMPILER_OUTPUT,
  "ld.gold": COMPILER_OUTPUT,
  as: COMPILER_OUTPUT,
  nasm: COMPILER_OUTPUT,
  gfortran: COMPILER_OUTPUT,
  tcc: COMPILER_OUTPUT,
  rustc: COMPILER_OUTPUT,
  iconv: byOptions(["-o", "--output"], { shortWithValue: "oft", longWithValue: ["--output", "--from-code", "--to-code"] }),
  pandoc: byOptions(["-o", "--output"], {
    shortWithValue: "oftdMVA",
    longWithValue: ["--output", "--from", "--to", "--template", "--metadata", "--variable"],
  }),
  uudecode: byOptions(["-o", "--output-file"], { shortWithValue: "o", longWithValue: ["--output-file"] }),
  go: (words) =>
    words[1]?.text === "build" || words[1]?.text === "test"
      ? byOptions(["-o"], { singleDashWithValue: ["-o", "-tags", "-ldflags", "-gcflags", "-p", "-run", "-mod", "-C"] })(words)
      : [],
  javac: byOptions(["-d", "-h", "-s"], {
    singleDashWithValue: ["-d", "-h", "-s", "-cp", "-classpath", "-sourcepath", "-source", "-target", "--release", "-encoding"],
  }),
};

function deletions(grammar: LenientGrammar): PathReader {
  return (words) => {
    const scanned = scanArguments(words, grammar);
    const recursive = hasOption(scanned, ["-r", "-R", "--recursive"]);
    return scanned.operands.map((word) => ({ word, change: "deletes", recursive }));
  };
}

/** chmod's mode, chown's owner: the first operand, unless `--reference` gives it (or chmod's mode looks like `-w`). */
function permissionChanges(modeMayLookLikeOption: boolean): PathReader {
  return (words) => {
    const scanned = scanArguments(words, { longWithValue: ["--reference", "--from"] });
    const modeAsOption = modeMayLookLikeOption && words.slice(1).some((word) => /^-[rwxXst]+$/.test(word.text));
    const targets = hasOption(scanned, ["--reference"]) || modeAsOption ? scanned.operands : scanned.operands.slice(1);
    return targets.map((word) => ({ word, change: "permissions" }));
  };
}

/**
 * `sed -i`, `perl -pi`, `ruby -i`: the files after the program text (all operands once `-e`/`-f`
 * gives it). sed's `w FILE`, `W FILE` and `s///w FILE` write too: the file name runs to the end of
 * the line. Rather than parse the script, every `w`/`W` where a command or a flag may stand (after
 * a blank, `;`, `{`, `}`, `!`, an address or a delimiter) is read as one — a guess that can only
 * add a question.
 */
function inPlaceEdits(program: "sed" | "perl" | "ruby"): PathReader {
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
function awkOutputs(words: ShellWord[]): ChangedPath[] {
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
function vimOutputs(words: ShellWord[]): ChangedPath[] {
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

/** rsync: the destination (the last operand), where backups and logs go, and sources it removes. */
function rsyncChanges(words: ShellWord[]): ChangedPath[] {
  const scanned = scanArguments(words, {
    shortWithValue: "efBTM",
    longWithValue: [
      "--rsh",
      "--rsync-path",
      "--filter",
      "--exclude",
      "--include",
      "--exclude-from",
      "--include-from",
      "--files-from",
      "--block-size",
      "--max-size",
      "--min-size",
      "--timeout",
      "--contimeout",
      "--port",
      "--sockopts",
      "--chmod",
      "--chown",
      "--remote-option",
      "--compare-dest",
      "--copy-dest",
      "--link-dest",
      "--suffix",
      "--bwlimit",
      "--out-format",
      "--log-file-format",
      "--password-file",
      "--usermap",
      "--groupmap",
      "--iconv",
      "--checksum-choice",
      "--compress-choice",
      "--compress-level",
      "--skip-compress",
      "--read-batch",
      "--protocol",
      "--info",
      "--debug",
      "--stop-after",
      "--stop-at",
      "--outbuf",
      "--modify-window",
      "--max-delete",
      "--max-alloc",
      "--address",
      "--backup-dir",
      "--log-file",
      "--write-batch",
      "--only-write-batch",
      "--partial-dir",
      "--temp-dir",
    ],
  });
  const found: ChangedPath[] = optionValues(scanned, [
    "--backup-dir",
    "--log-file",
    "--write-batch",
    "--only-write-batch",
    "--partial-dir",
    "--temp-dir",
    "-T",
  ]).map((word) => writes(word));
  const destination = scanned.operands.length >= 2 ? scanned.operands.at(-1) : undefined;
  if (destination) found.push({ word: destination, change: "writes", remote: isRemote(destination.text) });
  if (hasOption(scanned, ["--remove-source-files"]))
    found.push(...scanned.operands.slice(0, -1).map((word) => ({ word, change: "deletes" as const })));
  return found;
}

/** `host:path`, `user@host:path`, `rsync://…` (a `:` before any `/`). */
function isRemote(text: string): boolean {
  return /^[^/]*:/.test(text) && !/^[A-Za-z]:[\\/]/.test(text);
}
