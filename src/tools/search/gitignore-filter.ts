import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Ignore } from "ignore";

type IgnoreFactory = () => Ignore;

/** One folder's .gitignore. */
interface FolderRules {
  matcher: Ignore;
  lines: string[];
  /** Every line is a name rule (see isNameRule), so a path's verdict depends on its last segment only. */
  nameRulesOnly: boolean;
  /** Verdicts by name (with a trailing slash for folders), shared by every folder of a walk when `nameRulesOnly`. */
  verdictsByName: Map<string, ReturnType<Ignore["test"]>>;
}

/**
 * A line without a slash (a trailing one aside) and without `**` matches a name at any depth
 * (gitignore(5)): `*.log`, `node_modules/`, `!keep.log`. Tests of an entry against such rules
 * need not be repeated per folder: trees repeat names (index.ts, package.json) in many folders.
 */
function isNameRule(line: string): boolean {
  const body = line.endsWith("/") ? line.slice(0, -1) : line;
  return !body.includes("/") && !body.includes("**");
}
let ignoreFactory: IgnoreFactory | undefined;

/** The `ignore` package, loaded on the first walk: parsing it cost every start ~7 ms, also runs that never list a folder. */
async function loadIgnore(): Promise<IgnoreFactory> {
  ignoreFactory ??= (await import("ignore")).default;
  return ignoreFactory;
}

/**
 * Answers "would git ignore this path?" for the tools that walk directories (Glob, Grep without
 * ripgrep, LS), the way ripgrep does: only inside a git repository (a folder with `.git` at or
 * above the search root), from every `.gitignore` between the repository root and the path (a
 * deeper file may re-include what a higher one ignores); a path inside an ignored folder is
 * ignored too, and `.git` itself always is. Global excludes and `.git/info/exclude` are not read.
 * The gitignore(5) pattern semantics are the `ignore` package's.
 *
 * Contract: never throws; unreadable .gitignore files count as empty. Reads are synchronous and
 * cached per folder (a few small files per walk), which keeps per-file checks cheap.
 */
export class GitignoreFilter {
  private readonly rulesByFolder = new Map<string, FolderRules>();
  private readonly folderVerdicts = new Map<string, boolean>();

  private constructor(
    private readonly repositoryRoot: string | undefined,
    private readonly ignore: IgnoreFactory,
  ) {}

  /** Finds the repository that contains `searchRoot` (absolute), if any. */
  static async forSearchRoot(searchRoot: string): Promise<GitignoreFilter> {
    const ignore = await loadIgnore();
    for (let folder = searchRoot; ; folder = path.dirname(folder)) {
      if (existsSync(path.join(folder, ".git"))) return new GitignoreFilter(folder, ignore);
      if (path.dirname(folder) === folder) return new GitignoreFilter(undefined, ignore);
    }
  }

  isIgnored(absolutePath: string, isDirectory: boolean): boolean {
    if (this.repositoryRoot === undefined) return path.basename(absolutePath) === ".git";
    const relative = path.relative(this.repositoryRoot, absolutePath).split(path.sep).join("/");
    if (relative === "" || relative.startsWith("../")) return false;
    const segments = relative.split("/");
    if (segments.includes(".git")) return true;
    for (let depth = 1; depth < segments.length; depth += 1) {
      if (this.isFolderIgnored(segments.slice(0, depth).join("/"))) return true;
    }
    return this.ignoredByOwnRules(relative, isDirectory);
  }

  /**
   * fast-glob `ignore` patterns (relative to `searchRoot`) that skip whole ignored folders while
   * walking, so a huge ignored `node_modules` is never read. Only plain names and paths of
   * .gitignore files at or above the search root without negations qualify; `isIgnored` stays the
   * exact check for everything else.
   */
  pruningPatterns(searchRoot: string): string[] {
    const patterns = ["**/.git", "**/.git/**"];
    if (this.repositoryRoot === undefined) return patterns;
    for (let folder = searchRoot; ; folder = path.dirname(folder)) {
      const lines = this.rulesOf(path.relative(this.repositoryRoot, folder).split(path.sep).join("/")).lines;
      // A negation may re-include something a broader rule would prune; leave such files to isIgnored.
      if (!lines.some((line) => line.startsWith("!"))) {
        for (const line of lines) {
          const body = line.replace(/\/+$/, "").replace(/^\//, "");
          if (body === "" || /[{}()\\!+@[\]]/.test(body)) continue;
          const anchored = line.replace(/\/+$/, "").includes("/");
          if (!anchored) patterns.push(`**/${body}/**`);
          else if (folder === searchRoot) patterns.push(`${body}/**`);
        }
      }
      if (folder === this.repositoryRoot || path.dirname(folder) === folder) break;
    }
    return patterns;
  }

  /**
   * The check for the entries of one folder, for a walker that never enters an ignored folder:
   * with the ancestors already known to be kept, only the rules of the folders that have a
   * .gitignore need asking, and the path each tests is built once per folder, not per entry.
   * Gives the same verdicts as `isIgnored(path.join(absoluteFolder, name), isDirectory)` for an
   * `absoluteFolder` that is not itself ignored. `hasOwnGitignore` (the walker saw a .gitignore
   * entry in the folder's listing) spares a failed read in every folder without one.
   */
  entryCheck(absoluteFolder: string, hasOwnGitignore: boolean): (name: string, isDirectory: boolean) => boolean {
    if (this.repositoryRoot === undefined) return (name) => name === ".git";
    const relativeFolder = path.relative(this.repositoryRoot, absoluteFolder).split(path.sep).join("/");
    const segments = relativeFolder === "" ? [] : relativeFolder.split("/");
    const scopes: { rules: FolderRules; prefix: string; byName: boolean }[] = [];
    // Each folder from the repository root down to this one, with this folder's path below it.
    for (let depth = 0; depth <= segments.length; depth += 1) {
      const folder = segments.slice(0, depth).join("/");
      const rules = this.rulesOf(folder, depth < segments.length || hasOwnGitignore);
      if (rules.lines.length === 0) continue;
      const below = segments.slice(depth).join("/");
      const prefix = below === "" ? "" : `${below}/`;
      // The name decides alone when the rules are name rules and the folder itself is not ignored
      // by them (`ignore` then answers from the folder's verdict instead of testing the path).
      scopes.push({ rules, prefix, byName: rules.nameRulesOnly && (prefix === "" || !rules.matcher.test(prefix).ignored) });
    }
    return (name, isDirectory) => {
      if (name === ".git") return true;
      const tested = name + (isDirectory ? "/" : "");
      let ignored = false;
      for (const { rules, prefix, byName } of scopes) {
        let verdict = byName ? rules.verdictsByName.get(tested) : undefined;
        if (verdict === undefined) {
          verdict = rules.matcher.test(prefix + tested);
          if (byName) rules.verdictsByName.set(tested, verdict);
        }
        if (verdict.ignored) ignored = true;
        else if (verdict.unignored) ignored = false;
      }
      return ignored;
    };
  }

  private isFolderIgnored(relativeFolder: string): boolean {
    const cached = this.folderVerdicts.get(relativeFolder);
    if (cached !== undefined) return cached;
    const verdict = this.ignoredByOwnRules(relativeFolder, true);
    this.folderVerdicts.set(relativeFolder, verdict);
    return verdict;
  }

  /** Every .gitignore from the repository root down to the path's parent folder; the deepest that decides wins. */
  private ignoredByOwnRules(relative: string, isDirectory: boolean): boolean {
    let ignored = false;
    // Each folder from the root down, found by its slash: this runs per file, so no arrays and no
    // path.join per level. `slash` is -1 for the root (the whole path is relative to it).
    let slash = -1;
    do {
      const { matcher, lines } = this.rulesOf(slash === -1 ? "" : relative.slice(0, slash));
      if (lines.length > 0) {
        // `ignore` marks a directory by its trailing slash (for `build/`-style rules).
        const verdict = matcher.test(relative.slice(slash + 1) + (isDirectory ? "/" : ""));
        if (verdict.ignored) ignored = true;
        else if (verdict.unignored) ignored = false;
      }
      slash = relative.indexOf("/", slash + 1);
    } while (slash !== -1);
    return ignored;
  }

  /**
   * The rules of one folder, by its path relative to the repository root ("" for the root).
   * `mayHaveFile` false: the caller knows there is no .gitignore there, so none is read.
   */
  private rulesOf(relativeFolder: string, mayHaveFile = true): FolderRules {
    let rules = this.rulesByFolder.get(relativeFolder);
    if (rules === undefined) {
      const lines = mayHaveFile ? readRuleLines(path.join(this.repositoryRoot!, relativeFolder, ".gitignore")) : [];
      rules = { matcher: this.ignore().add(lines), lines, nameRulesOnly: lines.every(isNameRule), verdictsByName: new Map() };
      this.rulesByFolder.set(relativeFolder, rules);
    }
    return rules;
  }
}

/** A .gitignore's rule lines; none when there is no such file (the common case) or it is unreadable. */
function readRuleLines(file: string): string[] {
  try {
    return readFileSync(file, "utf8")
      .split(/\r?\n/)
      .map((line) => line.replace(/(?<!\\)\s+$/, ""))
      .filter((line) => line !== "" && !line.startsWith("#"));
  } catch {
    return [];
  }
}

/** Patterns in .gitignore syntax (LS's `ignore` input) as a matcher of relative posix paths. */
export async function ignorePatterns(patterns: readonly string[]): Promise<(relativePath: string, isDirectory: boolean) => boolean> {
  const matcher = (await loadIgnore())().add([...patterns]);
  return (relativePath, isDirectory) => patterns.length > 0 && matcher.ignores(relativePath + (isDirectory ? "/" : ""));
}
