import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gitConfigKeys, type GitConfigKey } from "./git-config-keys.js";
import { commandsOf, programName } from "./shell-commands.js";
import { directoryAfter, resolveWordPath } from "./delete-risks.js";
import { readGit } from "./git-options.js";
import { isDynamic } from "./shell-syntax.js";

/**
 * Git runs programs named in a repository's own configuration: an fsmonitor hook on `git
 * status`, clean filters and textconv drivers on `git diff`, pagers, signature checkers,
 * aliases, included files. A repository unpacked from an archive brings its `.git/config` with
 * it, so a `git status` judged read-only could run whatever that file names. The Bash tool
 * overrides the keys it can name in the environment of such commands (git-hardening.ts), but
 * filters and drivers are keyed by names nobody can list in advance, and older git ignores the
 * override: a repository whose configuration sets any key that runs code takes the question
 * back from the read-only judgement.
 */

/** Sections every key of which runs a program or pulls in more configuration. */
const CODE_SECTIONS = new Set(["filter", "alias", "pager", "gpg", "include", "includeif", "difftool", "mergetool", "browser", "man"]);

/** `section.key` (no subsection) that run a program. */
const CODE_KEYS = new Set([
  "core.fsmonitor",
  "core.hookspath",
  "core.pager",
  "core.editor",
  "core.sshcommand",
  "core.askpass",
  "core.gitproxy",
  "core.alternaterefscommand",
  "diff.external",
  "sequence.editor",
  "web.browser",
  "uploadpack.packobjectshook",
]);

/** Key names that run a program in any section (`diff.<driver>.textconv`, `merge.<driver>.driver`, `sendemail.tocmd`, …). */
const CODE_KEY_NAMES = /^(textconv|command|program|helper|driver|uploadpack|receivepack|.*cmd)$/;

/** Whether a key makes git run a program (or read configuration from another file). */
export function runsCode(key: GitConfigKey): boolean {
  if (CODE_SECTIONS.has(key.section) || CODE_KEY_NAMES.test(key.name)) return true;
  return key.subsection === undefined && CODE_KEYS.has(`${key.section}.${key.name}`);
}

/**
 * Why the git a shell command line runs could run a program a repository's configuration names,
 * or undefined (also when it runs no git). Every folder git may start in is checked: `cwd`, each
 * place `cd`/`pushd` leads (wherever in the line), and what git's own `-C`, `--git-dir` and
 * `--work-tree` name; a folder only known when the line runs asks.
 */
export function lineGitRisk(command: string, cwd: string): string | undefined {
  const views = commandsOf(command).flatMap((forms) => forms.views);
  if (!views.some((view) => programName(view) === "git")) return undefined;
  const directories = [cwd];
  let current: string | undefined = cwd;
  for (const view of views) {
    const name = programName(view);
    if (name === "cd" || name === "pushd" || name === "popd") {
      current = directoryAfter(view, current);
      if (current === undefined) return UNKNOWN_FOLDER;
      directories.push(current);
    }
    if (name !== "git") continue;
    for (const option of readGit(view).globals) {
      if (option.name !== "-C" && option.name !== "--git-dir" && option.name !== "--work-tree") continue;
      const named: string | undefined =
        option.value === undefined || isDynamic(option.value) ? undefined : resolveWordPath(option.value, current);
      if (named === undefined) return UNKNOWN_FOLDER;
      directories.push(named);
      if (option.name === "-C") current = named;
    }
  }
  for (const directory of new Set(directories)) {
    const risk = gitConfigRisk(directory);
    if (risk !== undefined) return risk;
  }
  return undefined;
}

const UNKNOWN_FOLDER = "The command runs git in a folder only known when it runs, so that repository's configuration cannot be checked";

/**
 * Why git, started in `directory`, could run a program its repository's configuration names, or
 * undefined when it cannot. The repository is found as git finds it: the nearest folder upward
 * with a `.git` folder or `gitdir:` file, or that is itself a repository (a bare one). Read: its
 * `config`, its worktree's `config.worktree`, the shared repository's `config` of a linked
 * worktree (`commondir`), and the same of its submodules, since `git status` and `git diff` run
 * git inside each one: those under `modules/` of the git directory, and those `.gitmodules`
 * places in the working tree with a git directory of their own. A file that cannot be read or
 * parsed counts as one that runs code. Contract: never throws.
 */
export function gitConfigRisk(directory: string): string | undefined {
  const repository = findRepository(directory);
  if (repository === undefined) return undefined;
  return repositoryRisk(repository.gitDirectory) ?? submodulesRisk(repository);
}

interface Repository {
  gitDirectory: string;
  /** The folder holding `.git`; undefined for a bare repository. */
  workTree: string | undefined;
}

function repositoryRisk(gitDirectory: string): string | undefined {
  const common = commonDirectory(gitDirectory);
  if (typeof common === "object") return common.problem;
  for (const file of [path.join(gitDirectory, "config"), path.join(gitDirectory, "config.worktree"), path.join(common, "config")]) {
    const risk = configFileRisk(file);
    if (risk) return risk;
  }
  return undefined;
}

/** The repository a linked worktree shares (`commondir`), or the git directory itself. */
function commonDirectory(gitDirectory: string): string | { problem: string } {
  const common = readSmallFile(path.join(gitDirectory, "commondir"));
  if (typeof common === "string") return path.resolve(gitDirectory, common.trim());
  if (common.problem === "missing") return gitDirectory;
  return { problem: `git's repository at ${gitDirectory} has a commondir file that cannot be read (${common.problem})` };
}

/** More submodule git directories than this are not read one by one: the repository asks. */
const MAX_SUBMODULES = 200;

function submodulesRisk(repository: Repository): string | undefined {
  const common = commonDirectory(repository.gitDirectory);
  if (typeof common === "object") return common.problem;
  const absorbed = moduleGitDirectories(path.join(common, "modules"));
  if (absorbed === undefined) return `git's repository at ${common} has more than ${MAX_SUBMODULES} submodules to check`;
  for (const gitDirectory of absorbed) {
    const risk = repositoryRisk(gitDirectory);
    if (risk) return risk;
  }
  if (repository.workTree === undefined) return undefined;
  const listing = readSmallFile(path.join(repository.workTree, ".gitmodules"));
  if (typeof listing !== "string")
    return listing.problem === "missing" ? undefined : `the repository's .gitmodules cannot be read (${listing.problem})`;
  const parsed = gitConfigKeys(listing);
  if ("problem" in parsed) return `the repository's .gitmodules is not plain configuration git reads safely (${parsed.problem})`;
  for (const key of parsed.keys) {
    if (key.section !== "submodule" || key.name !== "path" || key.value === undefined) continue;
    const own = gitDirectoryAt(path.resolve(repository.workTree, key.value));
    const risk = own === undefined ? undefined : repositoryRisk(own);
    if (risk) return risk;
  }
  return undefined;
}

/** The git directories under `modules/` (nested submodules' too), or undefined when there are too many. */
function moduleGitDirectories(modules: string): string[] | undefined {
  const found: string[] = [];
  const pending = [modules];
  let visited = 0;
  while (pending.length > 0) {
    const folder = pending.pop()!;
    if (++visited > MAX_SUBMODULES * 4) return undefined;
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    if (entries.some((entry) => entry.name === "HEAD") && entries.some((entry) => entry.name === "config")) {
      // A git directory: its own submodules are under its `modules/`.
      found.push(folder);
      if (found.length > MAX_SUBMODULES) return undefined;
      pending.push(path.join(folder, "modules"));
      continue;
    }
    // A submodule's name may hold slashes, so its git directory can be several folders down.
    for (const entry of entries) if (entry.isDirectory()) pending.push(path.join(folder, entry.name));
  }
  return found;
}

function configFileRisk(file: string): string | undefined {
  const text = readSmallFile(file);
  if (typeof text !== "string")
    return text.problem === "missing" ? undefined : `git's configuration ${file} cannot be read (${text.problem})`;
  const parsed = gitConfigKeys(text);
  if ("problem" in parsed) return `git's configuration ${file} is not plain configuration git reads safely (${parsed.problem})`;
  const risky = parsed.keys.find(runsCode);
  if (risky === undefined) return undefined;
  const name = [risky.section, risky.subsection, risky.name].filter((part) => part !== undefined).join(".");
  return `git's configuration ${file} sets ${name}, which makes git run a program of the repository's choosing`;
}

/** The repository git would use when started in `directory`, or undefined outside any. */
function findRepository(directory: string): Repository | undefined {
  for (let folder = path.resolve(directory); ; folder = path.dirname(folder)) {
    const gitDirectory = gitDirectoryAt(folder);
    if (gitDirectory !== undefined) return { gitDirectory, workTree: folder };
    if (
      kindOf(path.join(folder, "HEAD")) === "file" &&
      kindOf(path.join(folder, "objects")) === "directory" &&
      kindOf(path.join(folder, "refs")) === "directory"
    ) {
      return { gitDirectory: folder, workTree: undefined };
    }
    if (path.dirname(folder) === folder) return undefined;
  }
}

/** The git directory of a working tree's `.git`: the folder, or where a `gitdir:` file points. */
function gitDirectoryAt(folder: string): string | undefined {
  const dotGit = path.join(folder, ".git");
  const kind = kindOf(dotGit);
  if (kind === "directory") return dotGit;
  if (kind !== "file") return undefined;
  // A linked worktree or a submodule: `gitdir: <path>`, relative to the folder holding it.
  const text = readSmallFile(dotGit);
  const match = typeof text === "string" ? /^gitdir: *(.+?)\s*$/m.exec(text) : null;
  // Unreadable or malformed: git stops there with an error; so does the search.
  return match ? path.resolve(folder, match[1]!) : dotGit;
}

function kindOf(candidate: string): "file" | "directory" | "other" | undefined {
  try {
    const stats = statSync(candidate);
    return stats.isFile() ? "file" : stats.isDirectory() ? "directory" : "other";
  } catch {
    return undefined;
  }
}

/** Config files are small; a huge one is not read whole (and is suspicious in itself). */
const MAX_CONFIG_BYTES = 1 << 20;

/**
 * A regular file's text. Opened without blocking and checked after opening, so a FIFO or a
 * device put in the file's place cannot hang the decision or fill memory.
 */
function readSmallFile(file: string): string | { problem: string } {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) return { problem: "not a regular file" };
    if (stats.size > MAX_CONFIG_BYTES) return { problem: "larger than 1 MB" };
    return readFileSync(descriptor, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: code === "ENOENT" || code === "ENOTDIR" ? "missing" : (code ?? (error as Error).message) };
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
