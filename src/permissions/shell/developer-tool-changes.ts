import { gitWrittenPaths, readGit } from "./git-options.js";
import { hasOption, literalWord, optionValues, scanArguments, withoutPrefix } from "./lenient-options.js";
import { writes } from "./path-change.js";
import { byOptions, type PathReader } from "./path-readers.js";
import { RUNNERS } from "./runner-programs.js";
import type { ShellWord } from "./shell-syntax.js";

/**
 * What developers' tools change: git, settings and keyrings in the home directory that run or
 * fetch code later, the logs of tracers and runners, compilers' outputs. One part of the table
 * changed-paths.ts reads.
 */

const COMPILER_OUTPUT = byOptions(["-o"], { shortWithValue: "oIlLDUxeWTuz", longWithValue: [] });

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

export const DEVELOPER_TOOL_CHANGES: Readonly<Record<string, PathReader>> = {
  git: (words) => {
    const git = readGit(words);
    return gitWrittenPaths(git).map((word) => writes(word, git.directory));
  },
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
  go: (words) =>
    words[1]?.text === "build" || words[1]?.text === "test"
      ? byOptions(["-o"], { singleDashWithValue: ["-o", "-tags", "-ldflags", "-gcflags", "-p", "-run", "-mod", "-C"] })(words)
      : [],
  javac: byOptions(["-d", "-h", "-s"], {
    singleDashWithValue: ["-d", "-h", "-s", "-cp", "-classpath", "-sourcepath", "-source", "-target", "--release", "-encoding"],
  }),
};
