/**
 * What a piece of foreign code (a Python program, an editor's commands, …) names: command lines
 * and paths, guessed from its literals and bare words.
 */

/**
 * Command lines that may hide in code: its string literals (`os.system('rm x')`, `system("rm x")`),
 * the literals of a list joined (`['rm', '-rf', '/']`), and shell escapes of editors, pagers and
 * debuggers (`!rm x`, `shell rm x`). Guesses, so callers only ever add matches from them.
 */
export function commandLinesInCode(code: string): string[] {
  const literals = stringLiterals(code);
  const escapes = [...code.matchAll(/(?:^|[\s;|:'"])(?:!|shell\s+|silent!?\s*!|system\s+|\\!\s*|\.shell\s+|\.system\s+)([^\n'"]+)/g)].map(
    (match) => match[1]!,
  );
  // sed's `e command`, and the pieces of `s/…/…/e`, whose replacement is what runs.
  const sedCommands = [...code.matchAll(/(?:^|[\s;{}0-9$/!])e\s+([^\n]+)/g)].map((match) => match[1]!);
  const lines = [...literals, ...escapes, ...sedCommands, ...code.split("\n"), ...code.split("/")];
  if (literals.length > 1) lines.push(literals.join(" "));
  return [...new Set(lines.map((line) => line.trim()).filter((line) => line !== ""))];
}

/**
 * Paths a piece of code names: in its literals (`open('/home/u/.bashrc', 'a')`, Perl's
 * `">>~/.bashrc"`) and as bare words (sqlite's `.output /etc/x`, ed's `w ~/.bashrc`).
 */
export function pathsInCode(code: string): string[] {
  const bareWords = code.split(/[\s;|&(){}<>,'"`=]+/).filter((word) => /^(\/[^/]|~\/|\$HOME\/)/.test(word));
  return [...stringLiterals(code).map((literal) => literal.replace(/^\s*(\+?[<>]{1,2}|\|)\s*/, "").trim()), ...bareWords].filter(
    (literal) =>
      /^(\/|~|\.\.?\/|\$HOME\/)/.test(literal) ||
      /(^|\/)\.(git|ssh|bashrc|zshrc|profile|claude|agentwire|mcp\.json|envrc)(\/|$)/.test(literal),
  );
}

/** Text between matching quotes of any kind the common languages use. */
function stringLiterals(code: string): string[] {
  const literals: string[] = [];
  const quote = /(["'`])((?:\\.|(?!\1)[^\\])*)\1/gs;
  for (const match of code.matchAll(quote)) literals.push(match[2]!.replace(/\\(.)/g, "$1"));
  return literals;
}
