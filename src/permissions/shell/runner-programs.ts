import type { LenientGrammar } from "./lenient-options.js";

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

/** sort's options that take a value: where its output goes, and the program `--compress-program` runs. */
export const SORT_GRAMMAR: LenientGrammar = {
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
};

/** gdb's options that take a value: the runner table reads past them, the interpreter table looks for code in them. */
export const GDB_GRAMMAR: LenientGrammar = {
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
};

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
    grammar: GDB_GRAMMAR,
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
