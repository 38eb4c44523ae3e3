import { writeFileSync } from "node:fs";
import type { ResultEvent } from "../../protocol/events.js";
import { createLineWriter } from "../server/jsonl.js";
import type { RunConfig } from "./config.js";
import type { Logger } from "./log.js";

/** `json` prints only the last result; `text` prints its text (errors go to stderr, unless the progress showed them). */
export function writeFinalOutput(
  config: RunConfig,
  last: ResultEvent | undefined,
  progress: { errorShown: boolean; reportError: (message: string) => void },
): void {
  if (!last || config.outputFormat === "stream-json") return;
  if (config.outputFormat === "json") {
    createLineWriter(process.stdout)(last);
    return;
  }
  if (last.is_error) {
    if (!progress.errorShown) progress.reportError((last.errors ?? ["unknown error"]).join("; "));
  } else process.stdout.write(`${finalAnswer(last)}\n`);
}

/** With --json-schema the answer is the structured output, ready for jq. */
function finalAnswer(result: ResultEvent): string {
  return result.structured_output !== undefined ? JSON.stringify(result.structured_output) : (result.result ?? "");
}

/**
 * `--output-last-message FILE` (as Codex has it): the answer of a successful last turn, whatever
 * the output format. A failed turn has no answer: the file is not written, and stderr says why.
 */
export function writeLastMessage(file: string, last: ResultEvent, log: Logger): void {
  if (last.is_error) {
    log.warn(`the last turn failed; ${file} was not written.`);
    return;
  }
  try {
    writeFileSync(file, `${finalAnswer(last)}\n`);
  } catch (error) {
    log.warn(`could not write ${file}: ${(error as Error).message}`);
  }
}
