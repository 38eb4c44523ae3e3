import os from "node:os";
import path from "node:path";
import { assessDeleteTarget, resolveWordPath, type DeleteContext } from "./delete-risks.js";
import { isConfigRead } from "./git-read-only.js";
import { assessWrite } from "./protected-paths.js";
import { commandsOf, programName, skipOptions, unwrap, type CommandForms } from "./shell-commands.js";
import { isDynamic, type ShellWord } from "./shell-syntax.js";

/**
 * Shell commands that can do lasting damage beyond the task. Every command the line runs is
 * checked — after `&&`, inside `$(…)` and `sh -c "…"`, behind `env`/`sudo`/`xargs` and `/bin/`
 * — so quoting or wrapping a program does not hide it. Returns the first reason found.
 */
export function assessCommand(command: string, roots: readonly string[]): string | undefined {
  const context: DeleteContext = { cwd: roots[0], roots };
  for (const found of commandsOf(command)) {
    const reason = assessOne(found, context);
    if (reason) return reason;
    // `cd / && rm -rf etc`: later relative paths start where cd went (nested commands run in a subshell).
    if (!found.nested) context.cwd = directoryAfter(found.views.at(-1)!, context.cwd);
  }
  if (FORK_BOMB.test(command)) return "This command is a fork bomb.";
  return undefined;
}

const FORK_BOMB = /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/;
const ROOT_RUNNERS = new Set(["sudo", "doas", "su", "pkexec", "run0"]);
const DOWNLOADERS = new Set(["curl", "wget"]);
const INTERPRETERS = /^(sh|bash|zsh|dash|ksh|ash|fish|python[0-9.]*|perl[0-9.]*|ruby|node|nodejs|php|deno|bun|eval|source|\.)$/;
const FORMATTERS = /^(mkfs(\..+)?|mke2fs|mkswap)$/;
const DISK_ERASERS = new Set(["wipefs", "blkdiscard"]);
/** Programs that destroy a disk's contents when given a device (`shred file` is only a delete). */
const DEVICE_WRITERS: Record<string, string> = { fdisk: "repartitions", sfdisk: "repartitions", gdisk: "repartitions", sgdisk: "repartitions", cfdisk: "repartitions", parted: "repartitions", shred: "overwrites" };
const DELETING_PROGRAMS = new Set(["rm", "rmdir", "shred", "unlink"]);

function assessOne(found: CommandForms, context: DeleteContext): string | undefined {
  if (found.unfollowed) return "This command nests command lines too deeply to check what it runs.";
  const runner = found.views.map(programName).find((name) => ROOT_RUNNERS.has(name));
  if (runner) return `This command runs a command as root with ${runner}.`;
  const words = found.views.at(-1)!;
  if (words[0]?.segments.some((segment) => segment.kind === "substitution" || (segment.kind === "parameter" && segment.name === undefined))) {
    return `This command computes the name of the program it runs (${words[0].text}), so what it runs cannot be checked.`;
  }
  const name = programName(words);
  const operands = words.slice(1).filter((word) => !word.text.startsWith("-"));
  const expandedWords = [...found.command.words, ...found.command.redirections.map((redirection) => redirection.target)];
  if (INTERPRETERS.test(name) && (downloadsInto(found) || expandedWords.some(substitutesDownload))) {
    return `This command pipes a download straight into a shell or interpreter (${name}).`;
  }
  if (FORMATTERS.test(name)) return `This command formats a filesystem (${name}).`;
  if (DISK_ERASERS.has(name)) return `This command erases a disk (${name}).`;
  const deviceVerb = DEVICE_WRITERS[name];
  if (deviceVerb && operands.some((word) => word.text.startsWith("/dev/")) && !words.some((word) => word.text === "-l" || word.text === "--list")) {
    return `This command ${deviceVerb} a disk (${name}).`;
  }
  if (name === "chmod" && operands.some((word) => /^[0-7]*777$/.test(word.text)) && operands.some((word) => word.text === "/")) {
    return "This command opens permissions on the filesystem root.";
  }
  if (name === "git") return assessGit(words);
  if (name === "rm" && isRecursiveRemove(words)) {
    for (const target of rmOperands(words)) {
      const reason = assessDeleteTarget(target, context, { rootMayBeTarget: false, verb: "recursively deletes" });
      if (reason) return reason;
    }
  }
  if (name === "find" && findDeletes(words)) {
    for (const start of findStartPaths(words)) {
      const reason = assessDeleteTarget(start, context, { rootMayBeTarget: true, verb: "deletes files under" });
      if (reason) return reason;
    }
  }
  for (const target of writeTargets(found, words)) {
    const resolved = resolveWordPath(target, context.cwd);
    const reason = resolved === undefined ? undefined : assessWrite(resolved, context.cwd ?? "/");
    if (reason) return reason.replace(/^This writes/, "This command writes");
  }
  return undefined;
}

/** A downloader earlier in the same pipeline (`curl … | tee f | sh`). */
function downloadsInto(found: CommandForms): boolean {
  const pipeline = found.script.commands.filter((command) => command.pipeline === found.command.pipeline);
  const position = pipeline.indexOf(found.command);
  return pipeline.slice(0, Math.max(position, 0)).some((command) => unwrap(command.words).some((view) => DOWNLOADERS.has(programName(view))));
}

/** `bash <(curl …)`, `sh -c "$(curl …)"`. */
function substitutesDownload(word: ShellWord): boolean {
  return word.segments.some((segment) => (segment.commands ?? []).some((inner) => commandsOf(inner).some((found) => found.views.some((view) => DOWNLOADERS.has(programName(view))))));
}

const GIT_GLOBAL_OPTIONS = { shortWithValue: "Cc", longWithValue: ["--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env"] };
/**
 * Settings that only change how git behaves, not what it runs. Others (`core.fsmonitor`,
 * `core.pager`, `diff.external`, `alias.*`, `filter.*`, `include.path`, …) can make later,
 * read-only-looking git commands run programs.
 */
const HARMLESS_GIT_SETTINGS = /^(user\.(name|email)|init\.defaultbranch|pull\.(rebase|ff)|push\.(default|autosetupremote)|fetch\.prune|rebase\.autostash|merge\.conflictstyle|color\..+|advice\..+|core\.(autocrlf|filemode|ignorecase|quotepath|safecrlf|eol)|(commit|tag)\.gpgsign)$/i;
const FORCE_OPTIONS = ["--force", "--force-with-lease", "--force-if-includes"];
const REMOTE_DELETING_OPTIONS = ["--mirror", "--delete", "--prune"];

function assessGit(words: ShellWord[]): string | undefined {
  const texts = words.map((word) => word.text);
  const subcommandAt = skipOptions(words, 1, GIT_GLOBAL_OPTIONS);
  const args = texts.slice(subcommandAt + 1);
  if (texts[subcommandAt] === "config") return assessGitConfig(args);
  if (texts[subcommandAt] !== "push") return undefined;
  const settings = texts.slice(1, subcommandAt).join(" ");
  const longNames = args.filter((text) => text.startsWith("--")).map((text) => text.split("=", 1)[0]!);
  // git accepts unambiguous abbreviations (`--forc`), so a prefix of a dangerous option counts.
  const abbreviates = (options: string[]) => longNames.some((name) => name.length > 3 && options.some((option) => option.startsWith(name)));
  const shortClusters = args.filter((text) => /^-[^-]/.test(text));
  if (abbreviates(FORCE_OPTIONS) || shortClusters.some((text) => text.includes("f")) || args.some((text) => text.startsWith("+"))) {
    return "This command force-pushes, which can destroy remote history.";
  }
  if (abbreviates(REMOTE_DELETING_OPTIONS) || shortClusters.some((text) => text.includes("d")) || args.some((text) => text.startsWith(":")) || /mirror/i.test(settings)) {
    return "This command deletes or overwrites branches on the remote (git push --delete/--mirror/--prune or :branch).";
  }
  return undefined;
}

function assessGitConfig(args: string[]): string | undefined {
  if (isConfigRead(args)) return undefined;
  const operands = args.filter((text) => !text.startsWith("-"));
  const key = ["set", "unset"].includes(operands[0] ?? "") ? operands[1] : operands[0];
  if (key !== undefined && HARMLESS_GIT_SETTINGS.test(key) && !args.some((text) => /^(-e|--edit|--file|-f|--blob)/.test(text))) return undefined;
  return `This command changes git configuration (${key ?? args.join(" ")}), which can make later git commands run programs.`;
}

function isRecursiveRemove(words: ShellWord[]): boolean {
  return splitAtDoubleDash(words).options.some((text) => text === "--recursive" || /^-[^-]*[rR]/.test(text));
}

function rmOperands(words: ShellWord[]): ShellWord[] {
  return splitAtDoubleDash(words).operands;
}

/** GNU rm takes options anywhere before `--`; everything after it is a file. */
function splitAtDoubleDash(words: ShellWord[]): { options: string[]; operands: ShellWord[] } {
  const doubleDash = words.findIndex((word, index) => index > 0 && word.text === "--");
  const before = doubleDash === -1 ? words.slice(1) : words.slice(1, doubleDash);
  const after = doubleDash === -1 ? [] : words.slice(doubleDash + 1);
  const isOption = (word: ShellWord) => word.text.startsWith("-") && word.text !== "-";
  return { options: before.filter(isOption).map((word) => word.text), operands: [...before.filter((word) => !isOption(word)), ...after] };
}

function findDeletes(words: ShellWord[]): boolean {
  return words.some((word, index) => word.text === "-delete" || (/^-(exec|execdir|ok|okdir)$/.test(word.text) && DELETING_PROGRAMS.has(programName(unwrap(words.slice(index + 1)).at(-1)!))));
}

function findStartPaths(words: ShellWord[]): ShellWord[] {
  let index = 1;
  while (["-H", "-L", "-P"].includes(words[index]?.text ?? "")) index++;
  const starts: ShellWord[] = [];
  while (index < words.length && !/^[-(!),]/.test(words[index]!.text)) starts.push(words[index++]!);
  return starts.length > 0 ? starts : [{ text: ".", segments: [{ kind: "plain", text: "." }] }];
}

/** Files the command writes: redirections, `tee`, the destination of `cp`/`mv`/`install`/`ln`, `dd of=`, `sed -i`, `truncate`. */
function writeTargets(found: CommandForms, words: ShellWord[]): ShellWord[] {
  const targets = found.command.redirections.filter((redirection) => /^(>|>>|>\||&>|&>>|<>)$/.test(redirection.operator) || (redirection.operator === ">&" && !/^[0-9-]+$/.test(redirection.target.text))).map((redirection) => redirection.target);
  const name = programName(words);
  const operands = words.slice(1).filter((word) => !word.text.startsWith("-"));
  if (name === "tee" || name === "truncate") targets.push(...operands);
  if (name === "sed" && words.some((word) => /^(-[^-]*i|--in-place)/.test(word.text))) targets.push(...operands.slice(1));
  if (name === "dd") targets.push(...words.filter((word) => word.text.startsWith("of=")).map((word) => withoutPrefix(word, "of=")));
  if (["cp", "mv", "install", "ln"].includes(name)) targets.push(...copyDestinations(words, operands));
  // A link to a protected file is a way to write it later under another name.
  if (name === "ln") targets.push(...operands.slice(0, -1));
  if (name === "curl") targets.push(...optionValues(words, ["-o", "--output"]));
  if (name === "wget") targets.push(...optionValues(words, ["-O", "--output-document"]));
  return targets;
}

/** Values of `-o x`, `-ox`, `--output x`, `--output=x`. */
function optionValues(words: ShellWord[], [short, long]: [string, string]): ShellWord[] {
  return words.flatMap((word, index) => {
    const next = words[index + 1];
    if ((word.text === short || word.text === long) && next) return [next];
    if (word.text.startsWith(`${long}=`)) return [withoutPrefix(word, `${long}=`)];
    if (word.text.startsWith(short) && !word.text.startsWith("--") && word.text.length > short.length) return [withoutPrefix(word, short)];
    return [];
  });
}

/** The destination, and the files the sources become inside it if it is a directory. */
function copyDestinations(words: ShellWord[], operands: ShellWord[]): ShellWord[] {
  const optionAt = words.findIndex((word) => word.text === "-t" || word.text.startsWith("--target-directory="));
  const option = words[optionAt];
  const destination = option === undefined ? operands.at(-1) : option.text === "-t" ? words[optionAt + 1] : withoutPrefix(option, "--target-directory=");
  if (!destination) return [];
  const sources = operands.filter((word) => word !== destination && !isDynamic(word));
  return [destination, ...sources.map((source) => ({ text: `${destination.text}/${path.basename(source.text)}`, segments: [...destination.segments, { kind: "quoted" as const, text: `/${path.basename(source.text)}` }] }))];
}

/** The word without its first `length` characters (`of=/dev/sda` → `/dev/sda`), keeping what the rest expands to. */
function withoutPrefix(word: ShellWord, prefix: string): ShellWord {
  let remaining = prefix.length;
  const segments = word.segments.flatMap((segment) => {
    const dropped = Math.min(remaining, segment.text.length);
    remaining -= dropped;
    return dropped === segment.text.length ? [] : [dropped === 0 ? segment : { ...segment, text: segment.text.slice(dropped) }];
  });
  return { text: word.text.slice(prefix.length), segments };
}

/** The working directory after `cd`/`pushd`; undefined when it cannot be known. */
function directoryAfter(words: ShellWord[], cwd: string | undefined): string | undefined {
  const name = programName(words);
  if (name !== "cd" && name !== "pushd" && name !== "popd") return cwd;
  if (name === "popd") return undefined;
  const operand = words.slice(1).find((word) => !/^-[LPe@]+$/.test(word.text));
  if (operand === undefined) return os.homedir();
  if (operand.text === "-") return undefined;
  return resolveWordPath(operand, cwd);
}
