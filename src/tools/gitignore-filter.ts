import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** One compiled line of a .gitignore file (or an LS `ignore` pattern). */
export interface IgnoreRule {
  regex: RegExp;
  negated: boolean;
  directoryOnly: boolean;
  /** The pattern contains a slash (other than a trailing one): it matches from its file's folder only. */
  anchored: boolean;
  /** The glob body (no `!`, no leading or trailing slash), for fast-glob pruning patterns. */
  body: string;
}

/**
 * Compiles one gitignore line; undefined for blank lines and comments. Follows gitignore(5):
 * `!` negates, a trailing `/` matches directories only, a slash elsewhere anchors the pattern to
 * the .gitignore's folder, `*` and `?` stop at `/`, `**` spans folders, `[...]` is a class.
 */
export function compileIgnoreRule(line: string): IgnoreRule | undefined {
  // Trailing spaces are ignored unless escaped with a backslash.
  let pattern = line.replace(/(?<!\\)\s+$/, "");
  if (pattern === "" || pattern.startsWith("#")) return undefined;
  const negated = pattern.startsWith("!");
  if (negated) pattern = pattern.slice(1);
  if (pattern.startsWith("\\#") || pattern.startsWith("\\!")) pattern = pattern.slice(1);
  const directoryOnly = pattern.endsWith("/");
  if (directoryOnly) pattern = pattern.replace(/\/+$/, "");
  const anchored = pattern.includes("/");
  pattern = pattern.replace(/^\//, "");
  if (pattern === "") return undefined;
  const prefix = anchored ? "^" : "^(?:.*/)?";
  return { regex: new RegExp(`${prefix}${globToRegexSource(pattern)}$`), negated, directoryOnly, anchored, body: pattern };
}

function globToRegexSource(glob: string): string {
  let source = "";
  for (let index = 0; index < glob.length; index += 1) {
    const character = glob[index]!;
    if (character === "*" && glob[index + 1] === "*") {
      const atStart = index === 0 || glob[index - 1] === "/";
      const atEnd = index + 2 === glob.length || glob[index + 2] === "/";
      if (atStart && atEnd) {
        // "**/" matches zero or more folders; a final "**" matches everything inside.
        source += index + 2 === glob.length ? ".*" : "(?:.*/)?";
        index += 2;
        continue;
      }
      source += "[^/]*";
      index += 1;
    } else if (character === "*") {
      source += "[^/]*";
    } else if (character === "?") {
      source += "[^/]";
    } else if (character === "[") {
      const close = glob.indexOf("]", index + 2);
      if (close === -1) {
        source += "\\[";
      } else {
        const members = glob.slice(index + 1, close).replace(/^!/, "^").replace(/\\/g, "\\\\");
        source += `[${members}]`;
        index = close;
      }
    } else if (character === "\\" && index + 1 < glob.length) {
      index += 1;
      source += glob[index]!.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    } else {
      source += character.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    }
  }
  return source;
}

/** Whether `relativePath` (posix, relative to the rules' folder) is ignored by `rules`: last match wins. */
export function matchIgnoreRules(rules: readonly IgnoreRule[], relativePath: string, isDirectory: boolean): boolean | undefined {
  let verdict: boolean | undefined;
  for (const rule of rules) {
    if (rule.directoryOnly && !isDirectory) continue;
    if (rule.regex.test(relativePath)) verdict = !rule.negated;
  }
  return verdict;
}

/**
 * Answers "would git ignore this path?" for the tools that walk directories (Glob, Grep without
 * ripgrep, LS), the way ripgrep does: only inside a git repository (a folder with `.git` at or
 * above the search root), from every `.gitignore` between the repository root and the path; a
 * path inside an ignored folder is ignored too, and `.git` itself always is. Global excludes and
 * `.git/info/exclude` are not read.
 *
 * Contract: never throws; unreadable .gitignore files count as empty. Reads are synchronous and
 * cached per folder (a few small files per walk), which keeps per-file checks cheap.
 */
export class GitignoreFilter {
  private readonly rulesByFolder = new Map<string, IgnoreRule[]>();
  private readonly folderVerdicts = new Map<string, boolean>();

  private constructor(private readonly repositoryRoot: string | undefined) {}

  /** Finds the repository that contains `searchRoot` (absolute), if any. */
  static forSearchRoot(searchRoot: string): GitignoreFilter {
    for (let folder = searchRoot; ; folder = path.dirname(folder)) {
      if (existsSync(path.join(folder, ".git"))) return new GitignoreFilter(folder);
      if (path.dirname(folder) === folder) return new GitignoreFilter(undefined);
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
   * walking, so a huge ignored `node_modules` is never read. Only simple, non-negated rules of
   * .gitignore files at or above the search root qualify; `isIgnored` stays the exact check.
   */
  pruningPatterns(searchRoot: string): string[] {
    const patterns = ["**/.git", "**/.git/**"];
    if (this.repositoryRoot === undefined) return patterns;
    for (let folder = searchRoot; ; folder = path.dirname(folder)) {
      const rules = this.rulesOf(folder);
      // A negation may re-include something a broader rule would prune; leave such files to isIgnored.
      if (!rules.some((rule) => rule.negated)) {
        for (const rule of rules) {
          if (/[{}()\\!+@]/.test(rule.body)) continue;
          if (!rule.anchored) patterns.push(`**/${rule.body}/**`);
          else if (folder === searchRoot) patterns.push(`${rule.body}/**`);
        }
      }
      if (folder === this.repositoryRoot || path.dirname(folder) === folder) break;
    }
    return patterns;
  }

  private isFolderIgnored(relativeFolder: string): boolean {
    const cached = this.folderVerdicts.get(relativeFolder);
    if (cached !== undefined) return cached;
    const verdict = this.ignoredByOwnRules(relativeFolder, true);
    this.folderVerdicts.set(relativeFolder, verdict);
    return verdict;
  }

  /** Rules of every .gitignore from the repository root down to the path's parent folder. */
  private ignoredByOwnRules(relative: string, isDirectory: boolean): boolean {
    const segments = relative.split("/");
    let ignored = false;
    for (let depth = 0; depth < segments.length; depth += 1) {
      const folder = path.join(this.repositoryRoot!, ...segments.slice(0, depth));
      const verdict = matchIgnoreRules(this.rulesOf(folder), segments.slice(depth).join("/"), isDirectory);
      if (verdict !== undefined) ignored = verdict;
    }
    return ignored;
  }

  private rulesOf(folder: string): IgnoreRule[] {
    let rules = this.rulesByFolder.get(folder);
    if (rules === undefined) {
      rules = [];
      try {
        for (const line of readFileSync(path.join(folder, ".gitignore"), "utf8").split(/\r?\n/)) {
          const rule = compileIgnoreRule(line);
          if (rule !== undefined) rules.push(rule);
        }
      } catch {
        // No .gitignore here (the common case) or unreadable: no rules.
      }
      this.rulesByFolder.set(folder, rules);
    }
    return rules;
  }
}
