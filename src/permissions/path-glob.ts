/**
 * A path rule's glob, matched in time proportional to the path times the pattern. A regular
 * expression built from the glob (`**a**a**…` → `.*a.*a…`) backtracks exponentially on a path
 * that does not match, and deny rules come from the repository's own settings file without trust:
 * `Read(**a**a**a**a**a**a**a**a**a**a**z)` hung agentwire at the model's first Read. This runs the
 * glob as a set of positions advanced one character at a time instead.
 *
 * Meaning, as before: `**` spans directories (but, like the expression's `.`, no line break),
 * `*` and `?` stay within one name, a trailing `/**` also covers the directory itself, and every
 * other character stands for itself. Characters are UTF-16 code units on both sides.
 */

type GlobToken =
  | { kind: "character"; character: string }
  /** `?`: one character other than `/`. */
  | { kind: "one" }
  /** `*`: any run of characters other than `/`. */
  | { kind: "name" }
  /** `**`: any run of characters but line breaks. */
  | { kind: "path" }
  /** A final `/**`: nothing more, or `/` and anything after it. */
  | { kind: "subtree" };

export type CompiledGlob = readonly GlobToken[];

const LINE_BREAKS = "\n\r\u2028\u2029";

export function compileGlob(glob: string): CompiledGlob {
  const tokens: GlobToken[] = [];
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index]!;
    if (character === "/" && glob.slice(index, index + 3) === "/**" && index + 3 === glob.length) {
      tokens.push({ kind: "subtree" });
      break;
    }
    if (character === "*" && glob[index + 1] === "*") {
      tokens.push({ kind: "path" });
      index++;
      if (glob[index + 1] === "/") index++;
    } else if (character === "*") tokens.push({ kind: "name" });
    else if (character === "?") tokens.push({ kind: "one" });
    else tokens.push({ kind: "character", character });
  }
  return tokens;
}

/** Whether the whole of `text` matches the glob. Pure. */
export function globMatches(glob: CompiledGlob, text: string): boolean {
  const end = glob.length;
  // Tokens that may match nothing lead on to the next one; edges only go forward, so one pass suffices.
  const close = (states: Uint8Array): void => {
    for (let index = 0; index < end; index++)
      if (states[index] === 1 && glob[index]!.kind !== "character" && glob[index]!.kind !== "one") states[index + 1] = 1;
  };
  let lastLineBreak = -1;
  for (let position = 0; position < text.length; position++) if (LINE_BREAKS.includes(text[position]!)) lastLineBreak = position;
  let current = new Uint8Array(end + 1);
  current[0] = 1;
  close(current);
  for (let position = 0; position < text.length; position++) {
    const character = text[position]!;
    const next = new Uint8Array(end + 1);
    let any = false;
    for (let index = 0; index < end; index++) {
      if (current[index] !== 1) continue;
      const token = glob[index]!;
      switch (token.kind) {
        case "character":
          if (character === token.character) next[index + 1] = 1;
          break;
        case "one":
          if (character !== "/") next[index + 1] = 1;
          break;
        case "name":
          if (character !== "/") next[index] = 1;
          break;
        case "path":
          if (!LINE_BREAKS.includes(character)) next[index] = 1;
          break;
        case "subtree":
          // `/` and then anything but a line break: decided by the rest of the text alone.
          if (character === "/" && lastLineBreak <= position) return true;
          break;
      }
      any ||= next[index] === 1 || next[index + 1] === 1;
    }
    if (!any) return false;
    close(next);
    current = next;
  }
  return current[end] === 1;
}
