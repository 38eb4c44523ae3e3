import type { ShellWord } from "./shell-syntax.js";

/**
 * How a program's options read, for the checks that look for danger rather than prove safety
 * (deny rules, the risk sentinel, and the classifier's search for options it refuses). Unlike
 * option-grammar.ts, nothing here fails: an option that is not listed counts as a flag without a
 * value. That can only make a following word look like an operand, which these checks then
 * examine too — they err toward finding something. option-grammar.ts exists for the opposite
 * job, proving a command only reads, where anything unlisted must fail.
 */
export interface LenientGrammar {
  /** Short options that take a value, attached (`-ofile`) or as the next word. */
  shortWithValue?: string;
  /** Short options whose value can only be attached (`sed -i.bak`, `xargs -i{}`). */
  shortWithAttachedValue?: string;
  /** Long options that take a value (`--name=value` or `--name value`). */
  longWithValue?: readonly string[];
  /** Long options whose value can only follow `=` (`--backup[=control]`). */
  longWithAttachedValue?: readonly string[];
  /** Long option names written with one dash that take the next word (`openssl -out f`, `gdb -ex c`). */
  singleDashWithValue?: readonly string[];
  /** Options end at the first operand, as for programs that run the rest as a command (`env`, `nice`). */
  stopAtOperand?: boolean;
}

export interface ScannedOption {
  /** As the grammar names it (`-o`, `--output`), even when the word abbreviated it or was a cluster. */
  name: string;
  value: ShellWord | undefined;
}

export interface ScannedArguments {
  options: ScannedOption[];
  operands: ShellWord[];
  /** With `stopAtOperand`: the index of the first word that is not an option (or the word count). */
  end: number;
}

/**
 * Reads `words[from…]` (the words after the program). GNU getopt accepts any unambiguous prefix
 * of a long option (`--out` for `--output`), so a prefix of a listed long option counts as that
 * option. Contract: never throws, whatever the words are.
 */
export function scanArguments(words: readonly ShellWord[], grammar: LenientGrammar, from = 1): ScannedArguments {
  const scanned: ScannedArguments = { options: [], operands: [], end: words.length };
  for (let index = from; index < words.length; index++) {
    const word = words[index]!;
    const text = word.text;
    if (text === "--") {
      if (grammar.stopAtOperand) {
        scanned.end = index + 1;
        return scanned;
      }
      scanned.operands.push(...words.slice(index + 1));
      return scanned;
    }
    if (!text.startsWith("-") || text === "-") {
      if (grammar.stopAtOperand) {
        scanned.end = index;
        return scanned;
      }
      scanned.operands.push(word);
      continue;
    }
    const next = words[index + 1];
    if (grammar.singleDashWithValue?.includes(text) || grammar.singleDashWithValue?.includes(text.replace(/^--/, "-"))) {
      scanned.options.push({ name: text.replace(/^--/, "-"), value: next });
      index++;
      continue;
    }
    if (text.startsWith("--")) {
      const equals = text.indexOf("=");
      const written = equals === -1 ? text : text.slice(0, equals);
      const attached = equals === -1 ? undefined : withoutPrefix(word, text.slice(0, equals + 1));
      const name = longOptionNamed(written, grammar);
      const takesNext = name !== undefined && grammar.longWithValue?.includes(name) === true && attached === undefined;
      scanned.options.push({ name: name ?? written, value: takesNext ? next : attached });
      if (takesNext) index++;
      continue;
    }
    for (let position = 1; position < text.length; position++) {
      const letter = text[position]!;
      const name = `-${letter}`;
      const rest = position + 1 < text.length ? withoutPrefix(word, text.slice(0, position + 1)) : undefined;
      if (grammar.shortWithValue?.includes(letter)) {
        scanned.options.push({ name, value: rest ?? next });
        if (rest === undefined) index++;
        break;
      }
      if (grammar.shortWithAttachedValue?.includes(letter)) {
        scanned.options.push({ name, value: rest });
        break;
      }
      scanned.options.push({ name, value: undefined });
    }
  }
  return scanned;
}

/** The listed long option a word names, exactly or as an abbreviation; undefined when none. */
function longOptionNamed(written: string, grammar: LenientGrammar): string | undefined {
  const known = [...(grammar.longWithValue ?? []), ...(grammar.longWithAttachedValue ?? [])];
  if (known.includes(written)) return written;
  if (written.length < 3) return undefined;
  return known.find((option) => option.startsWith(written));
}

/**
 * Whether `text` names one of `options`: a letter in a short cluster (`-rL`), or a long option
 * written out or abbreviated, as GNU getopt and git take any unambiguous prefix (`--deref` for
 * `--dereference`). Whether the prefix is unambiguous is not judged: any prefix counts, and
 * `--=x` names them all. `--` itself names none.
 */
export function namesOption(text: string, options: { letters?: string; longOptions?: readonly string[] }): boolean {
  if (text === "--") return false;
  if (text.startsWith("--")) {
    const name = text.split("=", 1)[0]!;
    return options.longOptions?.some((option) => option.startsWith(name)) ?? false;
  }
  return text.startsWith("-") && [...text.slice(1)].some((letter) => options.letters?.includes(letter) ?? false);
}

/** Values of the named options, in order. */
export function optionValues(scanned: ScannedArguments, names: readonly string[]): ShellWord[] {
  return scanned.options.flatMap((option) => (names.includes(option.name) && option.value !== undefined ? [option.value] : []));
}

export function hasOption(scanned: ScannedArguments, names: readonly string[]): boolean {
  return scanned.options.some((option) => names.includes(option.name));
}

/** The word without its first characters (`of=/dev/sda` → `/dev/sda`), keeping what the rest expands to. */
export function withoutPrefix(word: ShellWord, prefix: string): ShellWord {
  let remaining = prefix.length;
  const segments = word.segments.flatMap((segment) => {
    const dropped = Math.min(remaining, segment.text.length);
    remaining -= dropped;
    return dropped === segment.text.length ? [] : [dropped === 0 ? segment : { ...segment, text: segment.text.slice(dropped) }];
  });
  return { text: word.text.slice(prefix.length), segments };
}

/** A word made of literal text, for paths the checks build themselves. */
export function literalWord(text: string): ShellWord {
  return { text, segments: [{ kind: "quoted", text }] };
}
