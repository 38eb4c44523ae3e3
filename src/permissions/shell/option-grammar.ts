import { mayInjectArguments, type ShellWord } from "./shell-syntax.js";

/**
 * The options one program accepts, as an allowlist: anything not listed makes the check fail.
 * GNU conventions: short options cluster (`-nE`), a short option with a value takes the rest of
 * its cluster or the next word (`-k2`, `-k 2`), long options take `--name=value` or
 * `--name value`, options may follow operands, and `--` ends them. Abbreviated long options
 * (`--out` for `--output`) are not listed, so they fail too. lenient-options.ts reads the same
 * conventions for the opposite job — finding danger, where a failure would hide it — so it never
 * fails; one shared parser would have to bend each way at every step.
 */
export interface OptionGrammar {
  /** Short options without a value, as one string of letters. */
  flags?: string;
  /** Short options that take a value. */
  withValue?: string;
  /** Short options whose value can only be attached (`date -Ihours`). */
  withAttachedValue?: string;
  longFlags?: readonly string[];
  longWithValue?: readonly string[];
  /** Long options whose value can only be attached (`--color[=when]`). */
  longWithAttachedValue?: readonly string[];
}

export interface ParsedArguments {
  /** Options in order, named as written (`-e`, `--expression`), with their values. */
  options: Array<{ name: string; value: string | undefined }>;
  operands: ShellWord[];
}

/**
 * Contract: returns undefined when an option is not in the grammar, a value is missing, or a
 * word could expand into options or several words (`*`, `$X`) — the caller then refuses.
 */
export function parseArguments(args: readonly ShellWord[], grammar: OptionGrammar): ParsedArguments | undefined {
  const parsed: ParsedArguments = { options: [], operands: [] };
  for (let index = 0; index < args.length; index++) {
    const word = args[index]!;
    if (mayInjectArguments(word)) return undefined;
    const text = word.text;
    if (text === "--") {
      const rest = args.slice(index + 1);
      if (rest.some(mayInjectArguments)) return undefined;
      parsed.operands.push(...rest);
      return parsed;
    }
    if (!text.startsWith("-") || text === "-") {
      parsed.operands.push(word);
      continue;
    }
    const next = args[index + 1];
    if (text.startsWith("--")) {
      const equals = text.indexOf("=");
      const name = equals === -1 ? text : text.slice(0, equals);
      const attached = equals === -1 ? undefined : text.slice(equals + 1);
      if (grammar.longFlags?.includes(name) && attached === undefined) parsed.options.push({ name, value: undefined });
      else if (grammar.longWithAttachedValue?.includes(name)) parsed.options.push({ name, value: attached });
      else if (grammar.longWithValue?.includes(name)) {
        if (attached !== undefined) parsed.options.push({ name, value: attached });
        else {
          if (next === undefined || mayInjectArguments(next)) return undefined;
          parsed.options.push({ name, value: next.text });
          index++;
        }
      } else return undefined;
      continue;
    }
    for (let position = 1; position < text.length; position++) {
      const letter = text[position]!;
      const name = `-${letter}`;
      const rest = text.slice(position + 1);
      if (grammar.flags?.includes(letter)) parsed.options.push({ name, value: undefined });
      else if (grammar.withAttachedValue?.includes(letter)) {
        parsed.options.push({ name, value: rest === "" ? undefined : rest });
        break;
      } else if (grammar.withValue?.includes(letter)) {
        if (rest !== "") parsed.options.push({ name, value: rest });
        else {
          if (next === undefined || mayInjectArguments(next)) return undefined;
          parsed.options.push({ name, value: next.text });
          index++;
        }
        break;
      } else return undefined;
    }
  }
  return parsed;
}
