import { RUN_OPTIONS } from "./option-tables.js";

/** Single-letter aliases of RUN_OPTIONS: after `-p` they are flags, not its value. */
const SHORT_FLAGS = new Set(Object.values(RUN_OPTIONS).flatMap((options) => ("alias" in options ? [`-${options.alias}`] : [])));

/**
 * What agentwire takes beyond Claude Code's `-p`, a plain flag: `--print=prompt`, and a prompt
 * that starts with a dash right after `-p` (`-p "-what is this"`), which would otherwise read as
 * a cluster of short flags. Both prompts go to `values`; `-p` stays in argv, where it ends a
 * list flag's values as any flag does. A known flag after `-p` stays a flag (`-p -c`).
 */
export function withoutPrintValues(argv: string[], values: string[]): string[] {
  const rest: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--") {
      rest.push(...argv.slice(index));
      break;
    }
    if (argument.startsWith("--print=")) {
      values.push(argument.slice("--print=".length));
      rest.push("--print");
      continue;
    }
    rest.push(argument);
    const next = argv[index + 1];
    if ((argument === "-p" || argument === "--print") && next !== undefined && isDashPrompt(next)) {
      values.push(next);
      index++;
    }
  }
  return rest;
}

/** `-what is this` or `- item`; a long flag (known or mistyped) and a known short flag are flags. */
function isDashPrompt(argument: string): boolean {
  return argument.startsWith("-") && !argument.startsWith("--") && !SHORT_FLAGS.has(argument);
}
