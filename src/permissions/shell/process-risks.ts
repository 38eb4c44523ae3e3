import { programName } from "./command-runners.js";
import { hasOption, optionValues, scanArguments } from "./lenient-options.js";
import type { ShellWord } from "./shell-syntax.js";

/**
 * Commands that reach past the task's own processes or past the session: signals to every
 * process of the user, to whole process groups, to agentwire or its host, or to processes chosen
 * by a broad pattern; and commands scheduled to run later (`crontab`, `at`). Returns the reason,
 * or undefined.
 */
export function assessProcessCommand(words: readonly ShellWord[]): string | undefined {
  switch (programName(words)) {
    case "kill":
      return assessKill(words);
    case "pkill":
      return assessPatternKill(words, "pkill");
    case "killall":
      return assessPatternKill(words, "killall");
    case "crontab":
      return words.slice(1).some((word) => /^-[^-]*l/.test(word.text)) && !words.slice(1).some((word) => /^-[^-]*[re]/.test(word.text))
        ? undefined
        : "This command changes your crontab: the commands in it run on a schedule, outside this session.";
    case "at":
    case "batch":
      return words.slice(1).some((word) => /^-[^-]*[lrdc]/.test(word.text))
        ? undefined
        : "This command schedules commands to run later, outside this session.";
    default:
      return undefined;
  }
}

/**
 * `kill -9 -1` signals every process the user owns; `kill -- -PGID` a whole process group, which
 * can hold agentwire and its host; `$PPID` is agentwire itself.
 */
function assessKill(words: readonly ShellWord[]): string | undefined {
  const args = words.slice(1).map((word) => word.text);
  let index = 0;
  // The first word may name the signal (`-9`, `-KILL`, `-s KILL`, `-n 9`); the rest are processes.
  if (args[0] === "-s" || args[0] === "-n") index = 2;
  else if (args[0] !== undefined && /^-[A-Za-z0-9+]+$/.test(args[0]) && args[0] !== "-l" && args[0] !== "-L") index = 1;
  if (args[index] === "--") index++;
  const targets = args.slice(index);
  // `kill -1` alone names signal 1, but which `-1` is which depends on the kill; any `-1` asks.
  if (args.includes("-1")) return "This command signals every process you own (kill -1), agentwire and your other programs included.";
  if (targets.some((text) => /^-[0-9]+$/.test(text)))
    return "This command signals a whole process group, which may include agentwire and the program running it.";
  if (targets.some((text) => /\$\{?PPID\b/.test(text))) return "This command signals the process that runs it: agentwire.";
  return undefined;
}

/** Processes agentwire depends on or a person is likely using; a pattern that matches one is too broad. */
const ESSENTIAL_PROCESSES = [
  "node",
  "agentwire",
  "bash",
  "sh",
  "zsh",
  "fish",
  "sshd",
  "ssh",
  "systemd",
  "init",
  "login",
  "tmux",
  "screen",
  "code",
  "claude",
  "Xorg",
  "Xwayland",
  "gnome-shell",
  "plasmashell",
  "dbus-daemon",
  "containerd",
  "dockerd",
];

function assessPatternKill(words: readonly ShellWord[], program: "pkill" | "killall"): string | undefined {
  const grammar =
    program === "pkill"
      ? {
          shortWithValue: "sFgGPtuUc",
          longWithValue: [
            "--signal",
            "--pidfile",
            "--pgroup",
            "--group",
            "--parent",
            "--terminal",
            "--euid",
            "--uid",
            "--session",
            "--ns",
            "--nslist",
          ],
        }
      : { shortWithValue: "oysuVnZ", longWithValue: ["--older-than", "--younger-than", "--signal", "--user", "--context", "--ns"] };
  // A signal written as an option (`pkill -9 x`, `killall -USR1 x`) is not a cluster of letters.
  const withoutSignal = words.filter((word, index) => !(index === 1 && /^-([0-9]+|[A-Z][A-Z0-9+-]*)$/.test(word.text)));
  const scanned = scanArguments(withoutSignal, grammar);
  const selectors =
    program === "pkill"
      ? ["-u", "--euid", "-U", "--uid", "-g", "--pgroup", "-G", "--group", "-s", "--session", "-t", "--terminal", "-P", "--parent"]
      : ["-u", "--user"];
  const selected = scanned.options.find((option) => selectors.includes(option.name));
  if (selected)
    return (
      `This command signals every process chosen by ${selected.name} ${selected.value?.text ?? ""}`.trimEnd() +
      ", which can include agentwire and your other programs."
    );
  const patterns = scanned.operands.map((word) => word.text);
  if (patterns.length === 0) return program === "killall" ? undefined : "This command signals processes without naming them.";
  const regex = program === "pkill" || hasOption(scanned, ["-r", "--regexp"]);
  const exact = program === "killall" ? !regex : hasOption(scanned, ["-x", "--exact"]);
  const ignoreCase = hasOption(scanned, ["-i", "--ignore-case", "-I"]);
  const fullLine = program === "pkill" && hasOption(scanned, ["-f", "--full"]);
  for (const pattern of patterns) {
    const matched = essentialMatch(pattern, { regex, exact, ignoreCase, fullLine });
    if (matched)
      return `This command signals every process matching "${pattern}", which includes ${matched} — agentwire or programs you are using.`;
  }
  return optionValues(scanned, ["-F", "--pidfile"]).length > 0
    ? "This command signals the processes a pid file names, which cannot be checked beforehand."
    : undefined;
}

function essentialMatch(
  pattern: string,
  how: { regex: boolean; exact: boolean; ignoreCase: boolean; fullLine: boolean },
): string | undefined {
  const candidates = how.fullLine ? [...ESSENTIAL_PROCESSES, `${process.execPath} ${process.argv[1] ?? "agentwire"}`] : ESSENTIAL_PROCESSES;
  let test: (name: string) => boolean;
  if (how.regex) {
    let compiled: RegExp;
    try {
      compiled = new RegExp(how.exact ? `^(?:${pattern})$` : pattern, how.ignoreCase ? "i" : "");
    } catch {
      return "everything (the pattern cannot be read)";
    }
    test = (name) => compiled.test(name);
  } else {
    test = (name) => (how.ignoreCase ? name.toLowerCase() === pattern.toLowerCase() : name === pattern);
  }
  return candidates.find(test);
}
