/**
 * Decides whether a shell command only reads. Conservative: anything it cannot see through
 * (substitutions, redirections to files, unknown programs, in-place flags) counts as mutating,
 * which at worst costs a permission question.
 */
const READ_ONLY_PROGRAMS = new Set([
  "ls", "cat", "head", "tail", "wc", "echo", "printf", "pwd", "whoami", "id", "date", "uname", "hostname",
  "which", "type", "file", "stat", "du", "df", "tree", "grep", "egrep", "fgrep", "rg", "ag", "diff", "cmp",
  "sort", "uniq", "cut", "tr", "column", "nl", "less", "more", "basename", "dirname", "realpath", "readlink",
  "env", "printenv", "true", "false", "test", "[", "seq", "jq", "md5sum", "sha1sum", "sha256sum", "cksum",
  "ps", "uptime", "free", "nproc", "lsof", "sleep",
]);

/** Sub-commands of version-control and package tools that only read. */
const READ_ONLY_SUBCOMMANDS: Record<string, Set<string>> = {
  git: new Set(["status", "log", "diff", "show", "branch", "rev-parse", "ls-files", "blame", "remote", "describe", "shortlog", "grep", "config"]),
  npm: new Set(["ls", "list", "view", "outdated", "--version", "-v"]),
  node: new Set(["--version", "-v"]),
};

export function isReadOnlyCommand(command: string): boolean {
  if (/[`]|\$\(|<\(|>\(/.test(command)) return false;
  return splitCommands(command).every(isReadOnlySimpleCommand);
}

/** Splits on `;`, `&&`, `||`, `|` and newlines outside quotes. */
function splitCommands(command: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quote: string | undefined;
  for (let index = 0; index < command.length; index++) {
    const character = command[index]!;
    if (quote) {
      if (character === quote) quote = undefined;
      current += character;
    } else if (character === "'" || character === '"') {
      quote = character;
      current += character;
    } else if (character === ";" || character === "\n" || character === "|" || (character === "&" && command[index + 1] === "&")) {
      parts.push(current);
      current = "";
      if (command[index + 1] === character) index++;
    } else current += character;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

function isReadOnlySimpleCommand(command: string): boolean {
  // Output redirection writes a file (2>&1 and >/dev/null do not).
  const withoutHarmless = command.replace(/\d?>&\d/g, "").replace(/\d?>>?\s*\/dev\/null/g, "");
  if (/>/.test(withoutHarmless.replace(/'[^']*'|"[^"]*"/g, ""))) return false;
  if (/&\s*$/.test(command)) return false;
  const words = withoutHarmless.split(/\s+/).filter((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  const [program, subcommand] = words;
  if (!program) return true;
  if (program === "find") return !words.some((word) => ["-delete", "-exec", "-execdir", "-ok", "-fprint", "-fls"].includes(word));
  if (program === "sed") return !words.some((word) => word.startsWith("-i") || word === "--in-place");
  if (program === "sort") return !words.some((word) => word === "-o" || word.startsWith("--output"));
  const readOnlySubcommands = READ_ONLY_SUBCOMMANDS[program];
  if (readOnlySubcommands) {
    if (program === "git" && subcommand === "branch" && words.some((word) => /^-[dDmM]$|^--delete|^--move/.test(word))) return false;
    if (program === "git" && subcommand === "config" && !words.includes("--get") && !words.includes("--list") && !words.includes("-l")) return false;
    return subcommand !== undefined && readOnlySubcommands.has(subcommand);
  }
  return READ_ONLY_PROGRAMS.has(program);
}
