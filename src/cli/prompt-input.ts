import { readFileSync } from "node:fs";
import type { Logger } from "./log.js";
import type { PromptSources } from "./parsed-command.js";
import { StartupError } from "./startup-failure.js";

/** `--system-prompt[-file]` and `--append-system-prompt[-file]` as session settings. */
export function promptSettings(files: PromptSources): { systemPrompt?: string; appendSystemPrompt?: string } {
  const systemPrompt = readPromptSource(files.systemPrompt, files.systemPromptFile);
  const appendSystemPrompt = readPromptSource(files.appendSystemPrompt, files.appendSystemPromptFile);
  return { ...(systemPrompt === undefined ? {} : { systemPrompt }), ...(appendSystemPrompt === undefined ? {} : { appendSystemPrompt }) };
}

function readPromptSource(text: string | undefined, file: string | undefined): string | undefined {
  if (text !== undefined) return text;
  if (file === undefined) return undefined;
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new StartupError(`Cannot read prompt file ${file}: ${(error as Error).message}`, "invalid_arguments");
  }
}

/**
 * How long a prompt argument waits for piped input to start. Data already written (`echo x |`,
 * `< file`) or an empty or closed stdin answer at once; only a pipe nobody writes to waits.
 */
const PIPED_INPUT_WAIT_MS = 3_000;

/**
 * The prompt of a text-input run. Without a prompt argument, stdin is the prompt, read to its end
 * (and required). With one, piped input is appended (`git diff | agentwire -p "review this"`), as
 * `claude -p` does: the returned promise settles once stdin ends, or after a short wait if no data
 * comes. A terminal is never read.
 */
export async function promptSource(argument: string | undefined, log: Logger): Promise<{ text: Promise<string> }> {
  if (argument === undefined || argument.trim() === "") {
    const piped = process.stdin.isTTY ? undefined : await readStream(process.stdin);
    if (!piped?.trim())
      throw new StartupError("Input must be provided either through stdin or as a prompt argument when using --print", "invalid_arguments");
    return { text: Promise.resolve(piped) };
  }
  if (process.stdin.isTTY) return { text: Promise.resolve(argument) };
  // Wrapped: an async function would otherwise wait for the piped input before returning.
  return {
    text: readPipedInput(PIPED_INPUT_WAIT_MS, log).then((piped) =>
      piped === undefined || piped.trim() === "" ? argument : `${argument}\n\n${piped}`,
    ),
  };
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** All of stdin once its first bytes come within `waitMs`; undefined if none come (and stdin is let go). */
function readPipedInput(waitMs: number, log: Logger): Promise<string | undefined> {
  const stdin = process.stdin;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const giveUp = setTimeout(() => {
      stdin.off("data", onData).off("end", onEnd).off("error", onEnd);
      stdin.destroy();
      log.warn(
        `no input arrived on stdin within ${waitMs / 1000} s; running the prompt without it (redirect stdin from /dev/null to skip the wait).`,
      );
      resolve(undefined);
    }, waitMs);
    const onData = (chunk: Buffer): void => {
      clearTimeout(giveUp);
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      clearTimeout(giveUp);
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    stdin.on("data", onData).once("end", onEnd).once("error", onEnd);
  });
}
