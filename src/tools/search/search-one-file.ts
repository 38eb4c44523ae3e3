import fs from "node:fs";
import { open } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { screenFile } from "./file-screen.js";
import type { FileScreen } from "./file-screen.js";
import { LineCollector, type SearchBudget } from "./line-collector.js";
import { MAX_COLLECTED_LINES } from "./text-search.js";
import type { FileMatches, SearchedLine, TextSearchRequest } from "./text-search.js";

/**
 * The builtin search of one file (builtin-search.ts runs many): a small file from one synchronous
 * read, a large one in chunks, bytes a screening worker passed on, line by line or, in multiline
 * mode, as one text.
 */

const READ_CHUNK_BYTES = 1024 * 1024;
/** Same heuristic as ripgrep and git: a NUL byte in the first 8 KB means binary; skip the file. */
export const BINARY_PROBE_BYTES = 8192;
/**
 * Files up to this size are read synchronously in one go: for the many small files of a source
 * tree that is several times faster than async reads through the thread pool. The loop of
 * builtin-search.ts yields to the event loop every YIELD_INTERVAL_MS so stdin (interrupts) and
 * stdout stay responsive.
 */
export const SMALL_FILE_BYTES = 1024 * 1024;
/** Multiline search holds a whole file in memory; larger files are skipped. */
const MAX_MULTILINE_FILE_BYTES = 64 * 1024 * 1024;

/**
 * One buffer for every small-file read: a tree search reads thousands of small files one after
 * another, synchronously, so there is never more than one read in flight.
 */
let sharedReadBuffer: Buffer | undefined;

/**
 * Searches a file of at most SMALL_FILE_BYTES from synchronous reads into the shared buffer, once
 * the byte-level screen (see file-screen.ts) has let it through; "large" for bigger ones.
 */
export function searchSmallFileSync(
  absolutePath: string,
  screen: FileScreen,
  regex: RegExp,
  request: TextSearchRequest,
  budget: SearchBudget,
): FileMatches | undefined | "large" {
  sharedReadBuffer ??= Buffer.allocUnsafe(SMALL_FILE_BYTES + 1);
  const bytes = screenFile(absolutePath, screen, sharedReadBuffer, fs);
  if (bytes === undefined || bytes === "large") return bytes;
  return searchBytes(absolutePath, bytes, regex, request, budget);
}

/** Searches bytes the screen (file-screen.ts) has let through: not binary. */
export function searchBytes(
  absolutePath: string,
  bytes: Buffer,
  regex: RegExp,
  request: TextSearchRequest,
  budget: SearchBudget,
): FileMatches | undefined {
  const text = bytes.toString("utf8");
  if (request.multiline) return searchWholeText(absolutePath, text, regex, request, budget);
  // Most files of a tree do not match: one scan of the whole text rules them out before any
  // line is split off (the per-line loop below was most of the search's time).
  const screen = screeningRegex(regex);
  if (screen) {
    screen.lastIndex = 0;
    if (!screen.test(text)) return undefined;
  }
  const collector = new LineCollector(absolutePath, regex, request, budget);
  const lines = text.split("\n");
  // A final newline ends the last line; it does not start another one.
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) if (!collector.add(line)) break;
  return collector.result();
}

const screens = new WeakMap<RegExp, RegExp | null>();

/**
 * The pattern as a whole-text test that never misses a line the per-line search would find: with
 * the `m` flag, `^` and `$` match at every line, and a match inside one line is a match in the
 * text. Lookarounds could see across a line break and turn a line's match into none, so patterns
 * with them are searched line by line only (null).
 */
export function screeningRegex(regex: RegExp): RegExp | null {
  let screen = screens.get(regex);
  if (screen === undefined) {
    screen = /\(\?<?[=!]/.test(regex.source) ? null : new RegExp(regex.source, `${regex.flags.replace("g", "")}m`);
    screens.set(regex, screen);
  }
  return screen;
}

/** Files over SMALL_FILE_BYTES: read in 1 MB chunks, so a multi-GB log never sits in memory. */
export async function searchLargeFile(
  absolutePath: string,
  regex: RegExp,
  request: TextSearchRequest,
  budget: SearchBudget,
): Promise<FileMatches | undefined> {
  if (request.multiline) {
    const handle = await open(absolutePath, "r");
    try {
      if ((await handle.stat()).size > MAX_MULTILINE_FILE_BYTES) return undefined;
      const bytes = await handle.readFile();
      // Too large for the screen, so its binary test is made here.
      if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return undefined;
      return searchBytes(absolutePath, bytes, regex, request, budget);
    } finally {
      await handle.close();
    }
  }
  const collector = new LineCollector(absolutePath, regex, request, budget);
  const handle = await open(absolutePath, "r");
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    const decoder = new StringDecoder("utf8");
    let pending = "";
    let first = true;
    for (;;) {
      request.signal.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      if (first && buffer.subarray(0, Math.min(bytesRead, BINARY_PROBE_BYTES)).includes(0)) return undefined;
      first = false;
      const lines = (pending + decoder.write(buffer.subarray(0, bytesRead))).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (!collector.add(line)) return collector.result();
    }
    pending += decoder.end();
    if (pending !== "") collector.add(pending);
    return collector.result();
  } finally {
    await handle.close();
  }
}

/** Multiline mode: the regex runs over the whole text; each match reports every line it spans. */
function searchWholeText(
  absolutePath: string,
  text: string,
  regex: RegExp,
  request: TextSearchRequest,
  budget: SearchBudget,
): FileMatches | undefined {
  const fileLines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  const lineStarts = [0];
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) lineStarts.push(index + 1);
  const lineOf = (offset: number): number => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };

  const matchedLineNumbers = new Set<number>();
  const onlyMatches: SearchedLine[] = [];
  // The regex is shared with concurrent searches; matchAll must start from the beginning.
  regex.lastIndex = 0;
  for (const match of text.matchAll(regex)) {
    if (match[0] === "") continue;
    const first = lineOf(match.index);
    const last = lineOf(match.index + match[0].length - 1);
    for (let lineNumber = first; lineNumber <= last; lineNumber += 1) matchedLineNumbers.add(lineNumber);
    if (request.onlyMatching) onlyMatches.push({ lineNumber: first, text: match[0], isMatch: true });
    if (request.mode === "files_with_matches") break;
  }
  if (matchedLineNumbers.size === 0) return undefined;
  const result: FileMatches = { absolutePath, matchingLines: matchedLineNumbers.size, lines: [] };
  if (request.mode !== "content") return result;
  if (request.onlyMatching) {
    result.lines = onlyMatches;
  } else {
    const shown = new Map<number, boolean>();
    for (const lineNumber of matchedLineNumbers) {
      for (let context = lineNumber - request.contextBefore; context <= lineNumber + request.contextAfter; context += 1) {
        if (context >= 1 && context <= fileLines.length && !shown.has(context)) shown.set(context, false);
      }
      shown.set(lineNumber, true);
    }
    result.lines = [...shown.entries()]
      .sort(([left], [right]) => left - right)
      .map(([lineNumber, isMatch]) => ({ lineNumber, text: fileLines[lineNumber - 1]!, isMatch }));
  }
  budget.collectedLines += result.lines.length;
  if (budget.collectedLines >= MAX_COLLECTED_LINES) budget.stopped = true;
  return result;
}
