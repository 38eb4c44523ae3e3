import os from "node:os";
import path from "node:path";
import { isSameOrInside, realPathOfNearestAncestor } from "../../paths/real-path.js";
import type { ChangedPath } from "./path-change.js";
import { assessDeleteTarget, resolveWordPath } from "./delete-risks.js";
import { literalWord } from "./lenient-options.js";
import { assessAgentwireHome, assessProtectedPath, assessWrite } from "../protected-paths.js";
import type { ShellWord } from "./shell-syntax.js";
import { charactersOfText, expandBraces, expandGlob, hasWildcard, textOf } from "./word-expansion.js";

/**
 * Whether a path a command changes stays where the task lives. A change asks for approval when
 * the path is protected (assessWrite: git's internals, agent settings, shell startup files,
 * credentials, system files, raw disks), when it lies outside the workspace roots — in every mode
 * the sentinel guards, auto included, and under allow rules such as `Bash(sort:*)` — or when only
 * the running shell knows where it is (`> "$OUT"`). The temporary directory is outside too: a
 * session that needs it can be given it with --add-dir. Device files that are not disks
 * (`/dev/null`, `/dev/stderr`) are fine.
 */
export interface ChangeContext {
  /** Where relative paths start; undefined after `cd -` or `cd $X`. */
  cwd: string | undefined;
  roots: readonly string[];
  /** The agentwire home, protected like ~/.agentwire wherever AGENTWIRE_HOME puts it. */
  agentwireHome?: string | undefined;
}

const VERBS: Record<ChangedPath["change"], string> = {
  writes: "writes to",
  deletes: "deletes",
  permissions: "changes the permissions or owner of",
  extracts: "unpacks files into",
  links: "links to",
};

/** More paths than this from one changed word (`touch f{1..100}`): the change asks rather than check each. */
const MAX_CHANGED_ALTERNATIVES = 64;

export function assessChange(change: ChangedPath, context: ChangeContext): string | undefined {
  const verb = change.change === "deletes" && change.recursive ? "recursively deletes" : VERBS[change.change];
  if (change.remote) return `This command ${verb} ${change.word.text}, on another machine.`;
  const tooMany = `This command ${verb} ${change.word.text}, which expands into too many paths to check.`;
  // `{~/.bashrc,x}` changes both; `.g?t/config` changes whatever it matches, and the literal name
  // if nothing does. Quoted `{` and `*` count too: erring toward more paths only asks more often.
  const alternatives = braceAlternatives(change.word);
  if (alternatives === undefined) return tooMany;
  const base = change.base === undefined ? context.cwd : resolveWordPath(change.base, context.cwd);
  for (const word of alternatives) {
    const pattern = resolveWordPath(word, base);
    const characters = pattern === undefined ? [] : charactersOfText(pattern);
    if (hasWildcard(characters)) {
      const glob = expandGlob(characters, "/", { keepMissing: true });
      if (glob === undefined) return tooMany;
      for (const match of glob.matches) {
        const reason = assessPath({ ...change, word: literalWord(match), base: undefined }, verb, context);
        if (reason) return reason;
      }
    }
    const reason = assessPath({ ...change, word }, verb, context);
    if (reason) return reason;
  }
  return undefined;
}

/** The words `word` stands for after brace expansion (itself when it has none); undefined when too many. */
function braceAlternatives(word: ShellWord): ShellWord[] | undefined {
  const alternatives = expandBraces(charactersOfText(word.text));
  if (alternatives === undefined || alternatives.length > MAX_CHANGED_ALTERNATIVES) return undefined;
  const texts = alternatives.map(textOf);
  if (texts.length === 1 && texts[0] === word.text) return [word];
  // An alternative holding `$` or a backquote is only known at run time.
  return texts.map((text) => ({
    text,
    segments: [/[$`]/.test(text) ? { kind: "parameter" as const, text } : { kind: "quoted" as const, text }],
  }));
}

/** The reason changing one path (after expansion) needs approval. */
function assessPath(change: ChangedPath, verb: string, context: ChangeContext): string | undefined {
  const text = change.word.text;
  const base = change.base === undefined ? context.cwd : resolveWordPath(change.base, context.cwd);
  if (change.change === "deletes") {
    return (
      assessDeleteTarget(change.word, { cwd: base, roots: context.roots }, { rootMayBeTarget: false, verb }) ??
      assessProtected(resolveWordPath(change.word, base), verb, false, context.agentwireHome)
    );
  }
  const resolved = resolveWordPath(change.word, base);
  if (resolved === undefined) return `This command ${verb} ${text}, a path only known when it runs (it may be outside the workspace).`;
  // Without a trailing slash, so `~/` is the home directory itself.
  const target = path.resolve(resolved);
  const shown = path.isAbsolute(text) && path.resolve(text) === target ? text : `${text} (${target})`;
  if (change.change === "extracts") {
    return `This command ${verb} ${shown} under names only the archive or patch knows, which cannot be checked beforehand and may overwrite protected files such as .git/hooks.`;
  }
  const protectedReason = assessProtected(
    target,
    verb,
    change.change === "writes" || change.change === "permissions",
    context.agentwireHome,
  );
  if (protectedReason || change.change === "links") return protectedReason;
  if (target.startsWith("/dev/")) return undefined;
  if (change.change === "permissions") {
    const whole =
      target === "/"
        ? "the filesystem root"
        : target === os.homedir()
          ? "your home directory"
          : context.roots.some((root) => path.resolve(root) === target)
            ? "the whole workspace"
            : undefined;
    if (whole) return `This command ${verb} ${shown}, ${whole}.`;
  }
  if (!isInsideRoots(target, context.roots)) return `This command ${verb} ${shown}, outside the workspace.`;
  return undefined;
}

/**
 * Why changing `target` (absolute) needs approval wherever it is, worded with `verb` ("writes to",
 * "deletes"). `content`: the change reaches the file itself (a write, a mode change), so a file
 * with several hard links asks too; deleting or linking a name does not reach the others.
 */
export function assessProtected(target: string | undefined, verb: string, content = false, agentwireHome?: string): string | undefined {
  if (target === undefined) return undefined;
  // Both look at where the links lead too, dangling ones included.
  const home = agentwireHome === undefined ? undefined : assessAgentwireHome(target, "/", agentwireHome);
  return (content ? assessWrite(target, "/", agentwireHome) : (assessProtectedPath(target, "/") ?? home))
    ?.replace(/^This writes to/, `This command ${verb}`)
    .replace(/^This writes raw data to/, `This command ${verb}`);
}

/** Inside a root both as named and with symlinks resolved, a dangling final link included. */
function isInsideRoots(target: string, roots: readonly string[]): boolean {
  const real = realPathOfNearestAncestor(target);
  return (
    roots.some((root) => isSameOrInside(target, path.resolve(root))) &&
    roots.some((root) => isSameOrInside(real, realPathOfNearestAncestor(path.resolve(root))))
  );
}
