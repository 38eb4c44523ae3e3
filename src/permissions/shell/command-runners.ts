import path from "node:path";
import { hasOption, scanArguments, optionValues, type LenientGrammar } from "./lenient-options.js";
import type { ShellWord } from "./shell-syntax.js";

/**
 * Programs that run another program given as their remaining words (`nice rm x`, `flock f rm x`,
 * `strace -f rm x`), with how their own options read so the command after them is found, and the
 * options that carry a whole shell command line (`su -c "rm x"`, `flock f -c "rm x"`).
 *
 * This table gives the certain reading. Programs missing from it are still covered: any program
 * not in DATA_ONLY_PROGRAMS is assumed to perhaps run its later words (see shell-commands.ts), so
 * the table decides how precisely, not whether, a wrapped command is seen.
 */
export interface Runner {
  grammar: LenientGrammar;
  /** Operands between the options and the command (`timeout 5`, `flock FILE`, `chroot DIR`). */
  operandsBeforeCommand?: number;
  /** `NAME=value` words after the options are settings, not the command (`env`, `sudo`). */
  skipsAssignments?: boolean;
  /** Options whose value is a shell command line. */
  commandLineOptions?: readonly string[];
  /** The command line of these options is their value followed by the rest of the words (`env -S`). */
  commandLineTakesRest?: boolean;
  /** Whether the command comes only after `--args` (gdb) rather than after the options. */
  commandAfter?: string;
  /** Options without which the words after the options are not a command (`runuser -u`; `su` has none). */
  commandNeedsOption?: readonly string[];
}

const SUDO_OPTIONS = [
  "--user",
  "--group",
  "--close-from",
  "--chdir",
  "--host",
  "--prompt",
  "--role",
  "--type",
  "--other-user",
  "--command-timeout",
  "--chroot",
];

export const RUNNERS: Readonly<Record<string, Runner>> = {
  env: {
    grammar: {
      shortWithValue: "uCS",
      longWithValue: ["--unset", "--chdir", "--split-string"],
      longWithAttachedValue: ["--default-signal", "--ignore-signal", "--block-signal"],
    },
    skipsAssignments: true,
    commandLineOptions: ["-S", "--split-string"],
    commandLineTakesRest: true,
  },
  command: { grammar: {} },
  builtin: { grammar: {} },
  exec: { grammar: { shortWithValue: "a" } },
  nohup: { grammar: {} },
  time: { grammar: { shortWithValue: "fo", longWithValue: ["--format", "--output"] } },
  nice: { grammar: { shortWithValue: "n", longWithValue: ["--adjustment"] } },
  timeout: { grammar: { shortWithValue: "sk", longWithValue: ["--signal", "--kill-after"] }, operandsBeforeCommand: 1 },
  stdbuf: { grammar: { shortWithValue: "ioe", longWithValue: ["--input", "--output", "--error"] } },
  sudo: { grammar: { shortWithValue: "ugCDhprtUTR", longWithValue: SUDO_OPTIONS }, skipsAssignments: true },
  doas: { grammar: { shortWithValue: "uC" } },
  pkexec: { grammar: { longWithValue: ["--user"] } },
  run0: {
    grammar: {
      shortWithValue: "ugDp",
      longWithValue: [
        "--user",
        "--group",
        "--chdir",
        "--property",
        "--description",
        "--slice",
        "--nice",
        "--setenv",
        "--unit",
        "--machine",
      ],
    },
    skipsAssignments: true,
  },
  busybox: { grammar: {} },
  toybox: { grammar: {} },
  setsid: { grammar: {} },
  xargs: {
    grammar: {
      shortWithValue: "adEILnPs",
      shortWithAttachedValue: "eil",
      longWithValue: [
        "--arg-file",
        "--delimiter",
        "--eof",
        "--replace",
        "--max-lines",
        "--max-args",
        "--max-procs",
        "--max-chars",
        "--process-slot-var",
      ],
    },
  },
  ionice: { grammar: { shortWithValue: "cnpPu", longWithValue: ["--class", "--classdata", "--pid", "--pgid", "--uid"] } },
  flock: {
    grammar: { shortWithValue: "wEc", longWithValue: ["--timeout", "--conflict-exit-code", "--command"] },
    operandsBeforeCommand: 1,
    commandLineOptions: ["-c", "--command"],
  },
  chroot: { grammar: { longWithValue: ["--userspec", "--groups"] }, operandsBeforeCommand: 1 },
  strace: {
    grammar: {
      shortWithValue: "abeEIoOpPsSuUX",
      longWithValue: [
        "--output",
        "--attach",
        "--trace-path",
        "--string-limit",
        "--user",
        "--env",
        "--summary-sort-by",
        "--columns",
        "--trace",
        "--signal",
        "--status",
        "--const-print-style",
      ],
    },
  },
  ltrace: { grammar: { shortWithValue: "aAeDlnopsuwxF", longWithValue: ["--output", "--library", "--align", "--indent"] } },
  taskset: { grammar: {}, operandsBeforeCommand: 1 },
  chrt: {
    grammar: { shortWithValue: "TPD", longWithValue: ["--sched-runtime", "--sched-period", "--sched-deadline"] },
    operandsBeforeCommand: 1,
  },
  nsenter: {
    grammar: { shortWithValue: "tSG", shortWithAttachedValue: "mutinpUCTrw", longWithValue: ["--target", "--setuid", "--setgid", "--env"] },
  },
  unshare: {
    grammar: {
      shortWithValue: "SGRw",
      shortWithAttachedValue: "mutinpUCT",
      longWithValue: [
        "--setuid",
        "--setgid",
        "--root",
        "--wd",
        "--propagation",
        "--setgroups",
        "--map-user",
        "--map-group",
        "--map-users",
        "--map-groups",
        "--load-interp",
      ],
    },
  },
  setpriv: {
    grammar: {
      longWithValue: [
        "--reuid",
        "--regid",
        "--ruid",
        "--rgid",
        "--euid",
        "--egid",
        "--groups",
        "--inh-caps",
        "--ambient-caps",
        "--bounding-set",
        "--securebits",
        "--pdeathsig",
        "--selinux-label",
        "--apparmor-profile",
        "--landlock-access",
        "--landlock-rule",
      ],
    },
  },
  runuser: {
    grammar: {
      shortWithValue: "ugGcsw",
      longWithValue: ["--user", "--group", "--supp-group", "--command", "--session-command", "--shell", "--whitelist-environment"],
    },
    commandLineOptions: ["-c", "--command", "--session-command"],
    // `runuser -u USER cmd` runs cmd; `runuser USER -c cmd` passes its words to a shell.
    commandNeedsOption: ["-u", "--user"],
  },
  su: {
    grammar: {
      shortWithValue: "gGcsw",
      longWithValue: ["--group", "--supp-group", "--command", "--session-command", "--shell", "--whitelist-environment"],
    },
    commandLineOptions: ["-c", "--command", "--session-command"],
    // The words after the options are a user and a login shell's arguments; only -c runs a command.
    commandNeedsOption: [],
  },
  prlimit: {
    grammar: {
      shortWithValue: "po",
      shortWithAttachedValue: "cdefilmnqrstuvxy",
      longWithValue: ["--pid", "--output"],
      longWithAttachedValue: [
        "--as",
        "--core",
        "--cpu",
        "--data",
        "--fsize",
        "--locks",
        "--memlock",
        "--msgqueue",
        "--nice",
        "--nofile",
        "--nproc",
        "--rss",
        "--rtprio",
        "--rttime",
        "--sigpending",
        "--stack",
      ],
    },
  },
  "systemd-run": {
    grammar: {
      shortWithValue: "pEMHu",
      longWithValue: [
        "--unit",
        "--property",
        "--description",
        "--slice",
        "--uid",
        "--gid",
        "--nice",
        "--working-directory",
        "--setenv",
        "--on-active",
        "--on-boot",
        "--on-startup",
        "--on-unit-active",
        "--on-unit-inactive",
        "--on-calendar",
        "--timer-property",
        "--path-property",
        "--socket-property",
        "--machine",
        "--host",
        "--service-type",
      ],
    },
  },
  firejail: { grammar: {} },
  fakeroot: { grammar: { shortWithValue: "lfsib", longWithValue: ["--lib", "--faked", "--fd-base"] } },
  proot: {
    grammar: {
      shortWithValue: "rbmqwkvi",
      longWithValue: ["--rootfs", "--bind", "--mount", "--qemu", "--pwd", "--cwd", "--kernel-release", "--verbose", "--change-id"],
    },
  },
  torsocks: { grammar: { shortWithValue: "upaP", longWithValue: ["--user", "--pass", "--address", "--port"] } },
  valgrind: { grammar: {} },
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
    commandAfter: "--args",
  },
  "xvfb-run": {
    grammar: {
      shortWithValue: "nsfepw",
      longWithValue: ["--server-num", "--server-args", "--auth-file", "--error-file", "--xauth-protocol", "--wait"],
    },
  },
  "dbus-run-session": { grammar: { longWithValue: ["--config-file", "--dbus-daemon"] } },
  script: {
    grammar: {
      shortWithValue: "cEIOBTmo",
      longWithValue: ["--command", "--echo", "--log-in", "--log-out", "--log-io", "--log-timing", "--logging-format", "--output-limit"],
    },
    commandLineOptions: ["-c", "--command"],
  },
  catchsegv: { grammar: {} },
  eatmydata: { grammar: {} },
  nocache: { grammar: {} },
  unbuffer: { grammar: {} },
  faketime: { grammar: {}, operandsBeforeCommand: 1 },
  setarch: { grammar: {}, operandsBeforeCommand: 1 },
  linux32: { grammar: {} },
  linux64: { grammar: {} },
  cgexec: { grammar: { shortWithValue: "g" } },
  "aa-exec": { grammar: { shortWithValue: "pn", longWithValue: ["--profile", "--namespace"] } },
  numactl: {
    grammar: {
      shortWithValue: "CNmMlpPiw",
      longWithValue: ["--physcpubind", "--cpunodebind", "--membind", "--preferred", "--interleave", "--localalloc"],
    },
  },
  chpst: { grammar: { shortWithValue: "uUbeP/nlLmdofpc" } },
  setuidgid: { grammar: {}, operandsBeforeCommand: 1 },
  envdir: { grammar: {}, operandsBeforeCommand: 1 },
  proxychains: { grammar: { shortWithValue: "f" } },
  proxychains4: { grammar: { shortWithValue: "f" } },
  tsocks: { grammar: {} },
  "dumb-init": { grammar: { shortWithValue: "r", longWithValue: ["--rewrite"] } },
  tini: { grammar: { shortWithValue: "pel" } },
};

/**
 * Programs whose words are only data: they never run a program named by an argument, an option
 * value or a file they read — or only in a way read precisely elsewhere (`find -exec`,
 * COMMAND_OPTIONS, the `+` commands of less in embedded-code.ts). Being missing here is the safe default — a program not listed is
 * assumed to maybe run any of its later words. `git` is handled on its own (git-options.ts).
 * `printf -v`, `test -v`, `[`, `unset` and `let` are missing on purpose: bash evaluates array
 * subscripts in their arguments, and `'a[$(rm x)]'` runs `rm x` even from single quotes.
 */
export const DATA_ONLY_PROGRAMS: ReadonlySet<string> = new Set([
  "echo",
  "true",
  "false",
  ":",
  "pwd",
  "cd",
  "pushd",
  "popd",
  "dirs",
  "ls",
  "dir",
  "vdir",
  "cat",
  "tac",
  "head",
  "tail",
  "wc",
  "grep",
  "egrep",
  "fgrep",
  "cut",
  "paste",
  "tr",
  "nl",
  "fold",
  "fmt",
  "column",
  "uniq",
  "comm",
  "join",
  "cmp",
  "file",
  "stat",
  "du",
  "df",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "date",
  "id",
  "whoami",
  "groups",
  "uname",
  "hostname",
  "mkdir",
  "rmdir",
  "touch",
  "cp",
  "mv",
  "ln",
  "chmod",
  "chown",
  "chgrp",
  "which",
  "type",
  "whereis",
  "whatis",
  "apropos",
  "seq",
  "sleep",
  "yes",
  "expr",
  "base64",
  "base32",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "cksum",
  "jq",
  "tee",
  "mkfifo",
  "truncate",
  "rm",
  "unlink",
  "shred",
  "diff",
  "od",
  "hexdump",
  "xxd",
  "strings",
  "find",
  "git",
  // Searching and reading about programs names them without running them (`rg sudo`, `man crontab`).
  "rg",
  "ag",
  "ack",
  "man",
  "info",
  "tldr",
  "bat",
  "tree",
  "less",
  "more",
  "most",
  // Their program-running options are read precisely (COMMAND_OPTIONS, embedded-code.ts, archive-paths.ts).
  "sort",
  "tar",
  "zip",
  "unzip",
  "rsync",
  "scp",
  "split",
  "csplit",
  "gzip",
  "gunzip",
  "bzip2",
  "xz",
  "zstd",
  "curl",
  "wget",
]);

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
    grammar: {
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
      ],
    },
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
  const runner: Runner | undefined = RUNNERS[name] ?? COMMAND_OPTIONS[name];
  if (!runner?.commandLineOptions) return [];
  // GNU programs take options after operands too (`su user -c …`, `flock FILE -c …`), so the whole line is read.
  const scanned = scanArguments(words, { ...runner.grammar, stopAtOperand: runner.commandLineTakesRest === true });
  const values = optionValues(scanned, runner.commandLineOptions).map((value) => value.text);
  if (!runner.commandLineTakesRest) return values;
  const rest = words.slice(scanned.end).map((word) => word.text);
  return values.map((value) => [value, ...rest].join(" "));
}
