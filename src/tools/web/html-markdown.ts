import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** The longest a page's conversion may take; a normal page takes well under a second. */
const CONVERSION_MS = 20_000;

/** A page's HTML could not be turned into markdown in time (or the converter failed on it). */
export class PageConversionError extends Error {}

/**
 * The converter, run in a worker. turndown's DOM parser (domino) and its GFM table rule take
 * time that grows much faster than the page: a hostile (or just large) page of 5,000 table rows
 * or a few thousand nested elements, a few hundred KB, kept the main thread busy for minutes,
 * and a busy main thread reads no interrupt, no control request and no signal. In a worker it
 * can be stopped. The modules are loaded by absolute path, resolved from agentwire's own files:
 * a worker's `require` by name would look in the working directory, a repository's node_modules.
 * Output is in the style Claude Code's WebFetch gives the model (turndown's: setext headings,
 * `*` bullets) with GitHub tables; scripts, styles and other content no reader sees are dropped.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const TurndownService = require(workerData.turndown);
const { gfm } = require(workerData.gfm);
const converter = new TurndownService({ headingStyle: "setext", codeBlockStyle: "fenced" })
  .use(gfm)
  .remove(["script", "style", "noscript", "template", "iframe", "object", "embed"]);
parentPort.postMessage(converter.turndown(workerData.html).replace(/\\n{3,}/g, "\\n\\n").trim());
`;

/**
 * An HTML page as markdown; the `<title>` comes first, as the text of the page's head. Rejects
 * with a PageConversionError when the conversion fails or outlasts `timeoutMs`, and with the
 * signal's reason when it is aborted (the worker is stopped either way).
 */
export function htmlToMarkdown(html: string, signal: AbortSignal, timeoutMs = CONVERSION_MS): Promise<string> {
  const resolve = createRequire(import.meta.url).resolve;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { html, turndown: resolve("turndown"), gfm: resolve("@joplin/turndown-plugin-gfm") },
  });
  return new Promise<string>((done, fail) => {
    const finish = (settle: () => void): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      void worker.terminate();
      settle();
    };
    const timer = setTimeout(
      () => finish(() => fail(new PageConversionError(`its HTML could not be turned into text within ${timeoutMs / 1000} s`))),
      timeoutMs,
    );
    const onAbort = (): void => finish(() => fail(signal.reason));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (markdown: string) => finish(() => done(markdown)));
    worker.once("error", (error) =>
      finish(() => fail(new PageConversionError(`its HTML could not be turned into text: ${error.message}`))),
    );
    worker.once("exit", (code) => finish(() => fail(new PageConversionError(`the HTML converter stopped (exit code ${code})`))));
  });
}
