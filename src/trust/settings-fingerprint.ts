import { parseShell, type ShellWord } from "../permissions/shell/shell-syntax.js";
import { expandBraces, expandGlob, hasWildcard, textOf, type PatternCharacter } from "../permissions/shell/word-expansion.js";
import { withNamedFiles } from "./fingerprint.js";

// Apart from fingerprint.ts: reading hook commands takes the shell grammar, which a run loads only
// when the project has a settings file to check (it is not on the way to the first output line).

/**
 * The fingerprint of a project's settings file (`.claude/settings.json`, `.claude/settings.local.json`):
 * its bytes, and the content of every file inside the project a hook's command names
 * (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`, `python3 scripts/check.py`), as for `.mcp.json`:
 * trusting the hooks trusts those scripts as they are now. Hooks run in `directory` (the project
 * directory, also `$CLAUDE_PROJECT_DIR`); words that hold other variables or substitutions are
 * not followed (see SECURITY.md). Undefined when its commands name more than can be followed.
 */
export function settingsFingerprint(bytes: Uint8Array, directory: string, root: string): string | undefined {
  const words: string[] = [];
  for (const command of hookCommands(bytes)) {
    const named = commandWords(command, directory);
    if (named === undefined) return undefined;
    words.push(...named);
  }
  return withNamedFiles(
    bytes,
    words.map((word) => ({ word, base: directory })),
    root,
  );
}

/** The `command` of every hook in a settings document; none when the text is not one. */
function hookCommands(bytes: Uint8Array): string[] {
  try {
    const hooks = (JSON.parse(Buffer.from(bytes).toString("utf8")) as { hooks?: unknown }).hooks;
    if (typeof hooks !== "object" || hooks === null) return [];
    return Object.values(hooks).flatMap((groups) =>
      (Array.isArray(groups) ? groups : []).flatMap((group: unknown) => {
        const entries = (group as { hooks?: unknown } | null)?.hooks;
        return (Array.isArray(entries) ? entries : []).flatMap((hook: unknown) => {
          const command = (hook as { command?: unknown } | null)?.command;
          return typeof command === "string" ? [command] : [];
        });
      }),
    );
  } catch {
    return [];
  }
}

/** Shell text inside a hook's words (`bash -c '…'`, `$(…)`) is read this many levels deep. */
const MAX_NESTED_SHELL = 4;
/** More words than this from one settings file: it is not hashed, so it cannot be trusted. */
const MAX_COMMAND_WORDS = 2_000;

/**
 * The words of a hook's command that could name a file, as bash reads them: quotes and escapes
 * removed (`"a b.sh"`, `a\ b.sh` name one file), braces and globs expanded against the folder as
 * it is now (so a file that later matches `*.sh` changes the fingerprint), `$CLAUDE_PROJECT_DIR`
 * replaced by `projectDirectory`, and shell text inside a word (`bash -c '…'`, `$(…)`) read as
 * commands too. A word with any other expansion is left out: what it names is decided when it
 * runs. Undefined when the words are too many to follow (the file then cannot be trusted).
 */
function commandWords(command: string, projectDirectory: string): string[] | undefined {
  const found: string[] = [];
  const visit = (source: string, depth: number): boolean => {
    for (const simple of parseShell(source).commands) {
      for (const word of [...simple.words, ...simple.redirections.map((redirection) => redirection.target)]) {
        const inner = [
          ...word.segments.flatMap((segment) => segment.commands ?? []),
          ...(/[\s;&|()<>`$]/.test(word.text) ? [word.text] : []),
        ];
        if (depth < MAX_NESTED_SHELL && !inner.every((text) => visit(text, depth + 1))) return false;
        const named = pathsOfWord(word, projectDirectory);
        if (named === undefined) return false;
        found.push(...named);
        if (found.length > MAX_COMMAND_WORDS) return false;
      }
    }
    return true;
  };
  return visit(command, 0) ? found : undefined;
}

/** The paths one word stands for (see commandWords); undefined when they are too many. */
function pathsOfWord(word: ShellWord, projectDirectory: string): string[] | undefined {
  const characters: PatternCharacter[] = [];
  for (const segment of word.segments) {
    if (segment.kind === "parameter" && segment.name === "CLAUDE_PROJECT_DIR")
      characters.push(...[...projectDirectory].map((character) => ({ character, active: false })));
    else if (segment.kind === "parameter" || segment.kind === "substitution") return [];
    else characters.push(...[...segment.text].map((character) => ({ character, active: segment.kind !== "quoted" })));
  }
  const alternatives = expandBraces(characters);
  if (alternatives === undefined) return undefined;
  const paths: string[] = [];
  for (const alternative of alternatives) {
    paths.push(textOf(alternative));
    if (!hasWildcard(alternative)) continue;
    const glob = expandGlob(alternative, projectDirectory);
    if (glob === undefined) return undefined;
    paths.push(...glob.matches);
  }
  return paths;
}
