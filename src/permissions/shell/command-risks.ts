import { assessChange, assessProtected, type ChangeContext } from "./change-risks.js";
import { changedPaths } from "./changed-paths.js";
import type { ChangedPath } from "./path-change.js";
import { assessDeleteTarget, directoryAfter, resolveWordPath } from "./delete-risks.js";
import { pathsInCode } from "./names-in-code.js";
import { assessAssignments, assessGit } from "./git-risks.js";
import { literalWord } from "./lenient-options.js";
import { assessProcessCommand } from "./process-risks.js";
import { commandsOf, programName, unwrap, type CommandForms } from "./shell-commands.js";
import type { ShellWord } from "./shell-syntax.js";
import { ownEntry } from "../../validation/own-entry.js";

/**
 * Shell commands that can do lasting damage beyond the task. Every command the line runs is
 * checked — after `&&`, inside `$(…)` and `sh -c "…"`, behind wrappers such as `env`, `sudo`,
 * `xargs`, `flock` or `strace`, in code given to interpreters, and behind `/bin/` — so quoting
 * or wrapping a program does not hide it. Returns the first reason found.
 */
export function assessCommand(command: string, roots: readonly string[], agentwireHome?: string): string | undefined {
  const context: ChangeContext = { cwd: roots[0], roots, agentwireHome };
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
const DEVICE_WRITERS: Record<string, string> = {
  fdisk: "repartitions",
  sfdisk: "repartitions",
  gdisk: "repartitions",
  sgdisk: "repartitions",
  cfdisk: "repartitions",
  parted: "repartitions",
  shred: "overwrites",
};
/** Programs that set variables for the rest of the line (`export GIT_PAGER=…; git log`). */
const ASSIGNING_PROGRAMS = new Set(["env", "export", "declare", "typeset", "local", "readonly"]);

function assessOne(found: CommandForms, context: ChangeContext): string | undefined {
  // A guess that could not be followed is not a reason; a command line that could not be is.
  if (found.unfollowed && !found.possible) return "This command nests command lines too deeply to check what it runs.";
  const runner = found.views.map(programName).find((name) => ROOT_RUNNERS.has(name));
  if (runner) return `This command runs a command as root with ${runner}.`;
  const words = found.views.at(-1)!;
  if (!found.possible && words[0] !== undefined && computesProgram(words[0])) {
    return `This command computes the name of the program it runs (${words[0].text}), so what it runs cannot be checked.`;
  }
  const name = programName(words);
  const expandedWords = [...found.command.words, ...found.command.redirections.map((redirection) => redirection.target)];
  if (INTERPRETERS.test(name) && (downloadsInto(found) || expandedWords.some(substitutesDownload))) {
    return `This command pipes a download straight into a shell or interpreter (${name}).`;
  }
  return (
    assessProgram(words, context) ??
    assessAssignments([...found.command.assignments, ...found.views.flatMap(assignmentsOf)], context.cwd, context.roots) ??
    assessChanges(found, context) ??
    assessNamedPaths(found, context)
  );
}

function assessProgram(words: ShellWord[], context: ChangeContext): string | undefined {
  const name = programName(words);
  const operands = words.slice(1).filter((word) => !word.text.startsWith("-"));
  if (FORMATTERS.test(name)) return `This command formats a filesystem (${name}).`;
  if (DISK_ERASERS.has(name)) return `This command erases a disk (${name}).`;
  const deviceVerb = ownEntry(DEVICE_WRITERS, name);
  if (
    deviceVerb &&
    operands.some((word) => word.text.startsWith("/dev/")) &&
    !words.some((word) => word.text === "-l" || word.text === "--list")
  ) {
    return `This command ${deviceVerb} a disk (${name}).`;
  }
  if (name === "git") return assessGit(words, context.cwd, context.roots);
  if (name === "find" && findDeletes(words)) {
    for (const start of findStartPaths(words)) {
      // `find . -delete` deletes matches under the workspace, not the workspace itself.
      const verb = "deletes files under";
      const reason =
        assessDeleteTarget(start, context, { rootMayBeTarget: true, verb }) ??
        assessProtected(resolveWordPath(start, context.cwd), verb, false, context.agentwireHome);
      if (reason) return reason;
    }
  }
  return assessProcessCommand(words);
}

/**
 * A program word only the shell can resolve: `$(…)`, `$CMD`, a pattern or brace list (`/bin/r?`,
 * `{rm,-rf,~}` is three words). `$HOME/…` and `$PWD/…` name a known place and are fine.
 */
function computesProgram(word: ShellWord): boolean {
  const [first, ...rest] = word.segments;
  const knownPlace =
    first?.kind === "parameter" && (first.name === "HOME" || first.name === "PWD") && rest[0]?.text.startsWith("/") === true;
  return word.segments.some(
    (segment, index) =>
      segment.kind === "substitution" || segment.kind === "glob" || (segment.kind === "parameter" && !(index === 0 && knownPlace)),
  );
}

/** `NAME=value` words a view sets: `env X=1 cmd`, `export X=1`. */
function assignmentsOf(words: ShellWord[]): ShellWord[] {
  if (!ASSIGNING_PROGRAMS.has(programName(words))) return [];
  return words.slice(1).filter((word) => /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(word.text));
}

/** Every path the command changes: redirections, then each view's own options and operands. */
function assessChanges(found: CommandForms, context: ChangeContext): string | undefined {
  const redirections = found.command.redirections.filter(
    (redirection) =>
      /^(>|>>|>\||&>|&>>|<>)$/.test(redirection.operator) || (redirection.operator === ">&" && !/^[0-9-]+$/.test(redirection.target.text)),
  );
  const changes: ChangedPath[] = [
    ...redirections.map((redirection) => ({ word: redirection.target, change: "writes" as const })),
    ...found.views.flatMap(changedPaths),
  ];
  for (const change of changes) {
    const reason = assessChange(change, context);
    if (reason) return reason;
  }
  return undefined;
}

/**
 * Code given as text (`python3 -c "open('/home/u/.bashrc','a')"`) can write anything it names;
 * a protected path in its literals asks. Paths merely outside the workspace do not, as code
 * names system paths for reading all the time.
 */
function assessNamedPaths(found: CommandForms, context: ChangeContext): string | undefined {
  for (const named of found.code.flatMap(pathsInCode)) {
    const reason = assessProtected(resolveWordPath(literalWord(named), context.cwd), "runs code that names", false, context.agentwireHome);
    if (reason) return reason;
  }
  return undefined;
}

/** A downloader earlier in the same pipeline (`curl … | tee f | sh`). */
function downloadsInto(found: CommandForms): boolean {
  const pipeline = found.script.commands.filter((command) => command.pipeline === found.command.pipeline);
  const position = pipeline.indexOf(found.command);
  return pipeline
    .slice(0, Math.max(position, 0))
    .some((command) => unwrap(command.words).some((view) => DOWNLOADERS.has(programName(view))));
}

/** `bash <(curl …)`, `sh -c "$(curl …)"`. */
function substitutesDownload(word: ShellWord): boolean {
  return word.segments.some((segment) =>
    (segment.commands ?? []).some((inner) =>
      commandsOf(inner).some((found) => found.views.some((view) => DOWNLOADERS.has(programName(view)))),
    ),
  );
}

function findDeletes(words: ShellWord[]): boolean {
  return words.some(
    (word, index) =>
      word.text === "-delete" ||
      (/^-(exec|execdir|ok|okdir)$/.test(word.text) &&
        ["rm", "rmdir", "shred", "unlink"].includes(programName(unwrap(words.slice(index + 1)).at(-1)!))),
  );
}

function findStartPaths(words: ShellWord[]): ShellWord[] {
  let index = 1;
  while (["-H", "-L", "-P"].includes(words[index]?.text ?? "")) index++;
  const starts: ShellWord[] = [];
  while (index < words.length && !/^[-(!),]/.test(words[index]!.text)) starts.push(words[index++]!);
  return starts.length > 0 ? starts : [{ text: ".", segments: [{ kind: "plain", text: "." }] }];
}
