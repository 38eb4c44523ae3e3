import { createReadStream, statSync } from "node:fs";
import { resolve } from "node:path";
import yargs from "yargs";
import { strictParse } from "./strict-parse.js";
import { writeRendered } from "../render/render-stream.js";
import { outputWidth, wantsColor } from "../render/style.js";
import { findSessionFile } from "../sessions/session-catalog.js";
import { agentwireHome } from "../sessions/session-file.js";

const USAGE = `agentwire render [SESSION_ID|FILE]

Prints stream-json (agentwire's or Claude Code's) as a readable transcript. Reads standard input
when no argument is given:

  agentwire -p "fix the test" --output-format stream-json --verbose | agentwire render
  agentwire render 0f9c…            a stored session (as listed by agentwire sessions list)
  agentwire render run.jsonl        a saved stream-json or session file

Colours only on a terminal, never with NO_COLOR; --width sets the wrapping width.`;

/** `agentwire render …`; returns the exit code. */
export async function runRenderCommand(argv: string[], processCwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const fail = (message: string): number => {
    process.stderr.write(`Error: ${message}\n`);
    return 1;
  };
  const parser = yargs(argv)
    .scriptName("agentwire render")
    .usage(USAGE)
    .help(false)
    .version(false)
    .options({
      width: { type: "number", description: "Wrap to this many columns (default: the terminal's, else $COLUMNS, else 100)" },
      color: {
        type: "boolean",
        description: "Force colours on (--color) or off (--no-color); default: only on a terminal without NO_COLOR",
      },
      help: { alias: "h", type: "boolean", default: false },
    });
  const outcome = await strictParse(parser);
  if ("mistake" in outcome) return fail(`${outcome.mistake}\n\n${USAGE}`);
  const { parsed } = outcome;
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [target, ...extra] = parsed._.map(String);
  if (extra.length > 0) return fail(`Unexpected argument: ${extra.join(" ")}`);
  let input: AsyncIterable<Uint8Array | string> = process.stdin;
  if (target !== undefined && target !== "-") {
    const file = isFile(resolve(processCwd, target))
      ? resolve(processCwd, target)
      : findSessionFile(agentwireHome(env), target, processCwd);
    if (!file) return fail(`${target} is neither a file nor a stored session (agentwire sessions list --all shows them).`);
    input = createReadStream(file);
  } else if (process.stdin.isTTY) {
    return fail(`nothing to render: pipe stream-json in, or name a session or a file.\n\n${USAGE}`);
  }

  await writeRendered(input, process.stdout, {
    width: parsed.width ?? outputWidth(process.stdout, env),
    color: parsed.color ?? wantsColor(process.stdout, env),
  });
  return 0;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
