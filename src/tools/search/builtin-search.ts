import fs from "node:fs";
import { open } from "node:fs/promises";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { literalBytes, screenFile } from "./file-screen.js";
import type { FileScreen } from "./file-screen.js";
import { FILE_TYPE_EXTENSIONS } from "./file-types.js";
import { ScreeningPool } from "./screening-pool.js";
import type { ScreenChunk } from "./screening-pool.js";
import { MAX_COLLECTED_LINES } from "./text-search.js";
import type { FileMatches, SearchedLine, TextSearchOutcome, TextSearchRequest } from "./text-search.js";
import { globPatterns, isNameGlob, nameGlobFilter } from "./search-glob.js";
import { walkFiles } from "./walk-files.js";
import { walkSearchTree } from "./walk-search-tree.js";

/** Files searched at once: enough to hide file-open latency, few enough to stay far from fd limits. */
const CONCURRENT_FILES = 32;
const READ_CHUNK_BYTES = 1024 * 1024;
/** Same heuristic as ripgrep and git: a NUL byte in the first 8 KB means binary; skip the file. */
const BINARY_PROBE_BYTES = 8192;
/**
 * Files up to this size are read synchronously in one go: for the many small files of a source
 * tree that is several times faster than async reads through the thread pool. The loop yields to
 * the event loop every YIELD_INTERVAL_MS so stdin (interrupts) and stdout stay responsive.
 */
const SMALL_FILE_BYTES = 1024 * 1024;
const YIELD_INTERVAL_MS = 10;
/**
 * Files searched on the main thread before the rest go to the screening workers: a small tree is
 * done before a worker would have started; on a large one the workers read in parallel.
 */
const MAIN_THREAD_FILES = 1000;
/**
 * Files per message to a worker. Each message wakes a thread, which on a small VM cost ~0.2 ms;
 * 1024 files (a few ms of reading) measured faster than 256 or 2048 on a 100k-file tree.
 */
const CHUNK_FILES = 1024;
/** Multiline search holds a whole file in memory; larger files are skipped. */
const MAX_MULTILINE_FILE_BYTES = 64 * 1024 * 1024;

interface SearchBudget {
  collectedLines: number;
  stopped: boolean;
}

/**
 * Grep's search when ripgrep is not installed: walks the tree (skipping what git ignores), reads
 * each file (past the first thousand, in worker threads that drop binary files and files that
 * cannot match; see screening-pool.ts), and tests every line of the rest with a JavaScript RegExp,
 * keeping only matches and their context. Files over 1 MB are read in 1 MB chunks, so memory
 * stays small on large trees and large files.
 * Differences from ripgrep: JavaScript regex syntax (no `(?i)` inline flags; lookaround works),
 * only .gitignore files are honoured (not .ignore / .rgignore), and a shorter type list.
 *
 * Contract: never throws for bad input (invalid regex or unknown type → `invalid_input`);
 * unreadable files are skipped; throws the abort reason when `signal` aborts.
 */
export async function searchWithBuiltin(request: TextSearchRequest): Promise<TextSearchOutcome> {
  let regex: RegExp;
  try {
    const flags = `g${request.caseInsensitive ? "i" : ""}${request.multiline ? "ms" : ""}`;
    regex = new RegExp(request.pattern, flags);
  } catch (error) {
    return {
      ok: false,
      code: "invalid_input",
      message: `Invalid regular expression: ${(error as Error).message}. (Without ripgrep installed, patterns use JavaScript syntax: use -i instead of (?i).)`,
    };
  }
  let extensions: ReadonlySet<string> | undefined;
  if (request.fileType !== undefined) {
    const known = FILE_TYPE_EXTENSIONS[request.fileType];
    if (known === undefined) {
      return {
        ok: false,
        code: "invalid_input",
        message: `Unknown file type "${request.fileType}". Known types: ${Object.keys(FILE_TYPE_EXTENSIONS).join(", ")}. Or filter with glob instead (e.g. "*.ext").`,
      };
    }
    extensions = new Set(known);
  }

  const budget: SearchBudget = { collectedLines: 0, stopped: false };
  const files: FileMatches[] = [];
  const inFlight = new Set<Promise<void>>();
  const keep = (result: FileMatches | undefined): void => {
    if (result !== undefined) files.push(result);
  };
  const screen: FileScreen = {
    literal: literalBytes(request.pattern, request.caseInsensitive),
    maxBytes: SMALL_FILE_BYTES,
    binaryProbeBytes: BINARY_PROBE_BYTES,
  };
  const startLargeFile = (filePath: string): void => {
    const task = searchLargeFile(filePath, regex, request, budget)
      .then(keep, () => undefined)
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  };
  /** The whole search of one file on this thread; large files start a streaming search. */
  const searchOnMainThread = (filePath: string): void => {
    let small: FileMatches | undefined | "large";
    try {
      small = searchSmallFileSync(filePath, screen, regex, request, budget);
    } catch {
      return; // unreadable: skipped, as ripgrep does
    }
    if (small === "large") startLargeFile(filePath);
    else keep(small);
  };

  const chunks = new Set<Promise<void>>();
  let pool: ScreeningPool | undefined;
  let unscreened: string[] = [];
  // The workers' whole-text test: the screen of searchBytes, or in multiline mode the regex itself
  // (any match, even an empty one, lets a file through; searchWholeText then decides).
  const workerRegex = request.multiline ? new RegExp(regex.source, regex.flags.replace("g", "")) : screeningRegex(regex);
  /** Sends the files gathered so far to a worker; what it lets through is searched here. */
  const dispatchChunk = (): void => {
    const paths = unscreened;
    unscreened = [];
    const chunk: ScreenChunk = {
      paths: paths.join("\0"),
      screen,
      regex: workerRegex === null ? undefined : { source: workerRegex.source, flags: workerRegex.flags },
    };
    const task = pool!
      .screen(chunk)
      .then(
        (reply) => {
          if (budget.stopped || request.signal.aborted) return;
          for (const { index, bytes } of reply.candidates) {
            if (budget.stopped) return;
            keep(searchBytes(paths[index]!, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), regex, request, budget));
          }
          for (const index of reply.large) startLargeFile(paths[index]!);
        },
        // The worker failed: this thread searches the chunk after all.
        () => {
          for (const filePath of paths) if (!budget.stopped && !request.signal.aborted) searchOnMainThread(filePath);
        },
      )
      .finally(() => chunks.delete(task));
    chunks.add(task);
  };

  let searchedOnMainThread = 0;
  let lastYield = performance.now();
  walk: for await (const batch of candidateBatches(request, extensions)) {
    for (const filePath of batch) {
      if (budget.stopped) break walk;
      if (searchedOnMainThread < MAIN_THREAD_FILES) {
        searchedOnMainThread += 1;
        searchOnMainThread(filePath);
        continue;
      }
      pool ??= ScreeningPool.shared();
      unscreened.push(filePath);
      if (unscreened.length >= CHUNK_FILES) dispatchChunk();
    }
    if (chunks.size > 2 * (pool?.size ?? 0)) await Promise.race(chunks);
    if (inFlight.size >= CONCURRENT_FILES) await Promise.race(inFlight);
    if (performance.now() - lastYield > YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      request.signal.throwIfAborted();
      lastYield = performance.now();
    }
  }
  if (unscreened.length > 0 && !budget.stopped) dispatchChunk();
  await Promise.all(chunks);
  await Promise.all(inFlight);
  request.signal.throwIfAborted();
  return { ok: true, files, stoppedEarly: budget.stopped };
}

/**
 * The files to search, a folder's worth at a time: one await per folder instead of one per file
 * (per-file async iteration was a visible share of a 100k-file search).
 */
async function* candidateBatches(request: TextSearchRequest, extensions: ReadonlySet<string> | undefined): AsyncGenerator<string[]> {
  if (request.targetIsFile) {
    yield [request.target];
    return;
  }
  const hasType = (absolutePath: string): boolean =>
    extensions === undefined || extensions.has(path.extname(absolutePath).slice(1).toLowerCase());
  if (request.glob !== undefined && !isNameGlob(request.glob)) {
    for await (const file of walkFiles({
      root: request.target,
      patterns: globPatterns(request.glob),
      signal: request.signal,
      withModificationTime: false,
    })) {
      if (hasType(file.absolutePath)) yield [file.absolutePath];
    }
    return;
  }
  const includesFile = request.glob === undefined ? undefined : nameGlobFilter(request.glob);
  for await (const folderFiles of walkSearchTree({ root: request.target, includesFile, signal: request.signal })) {
    yield extensions === undefined ? folderFiles : folderFiles.filter(hasType);
  }
}

/**
 * One buffer for every small-file read: a tree search reads thousands of small files one after
 * another, synchronously, so there is never more than one read in flight.
 */
let sharedReadBuffer: Buffer | undefined;

/**
 * Searches a file of at most SMALL_FILE_BYTES from synchronous reads into the shared buffer, once
 * the byte-level screen (see file-screen.ts) has let it through; "large" for bigger ones.
 */
function searchSmallFileSync(
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
function searchBytes(
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
function screeningRegex(regex: RegExp): RegExp | null {
  let screen = screens.get(regex);
  if (screen === undefined) {
    screen = /\(\?<?[=!]/.test(regex.source) ? null : new RegExp(regex.source, `${regex.flags.replace("g", "")}m`);
    screens.set(regex, screen);
  }
  return screen;
}

/** Files over SMALL_FILE_BYTES: read in 1 MB chunks, so a multi-GB log never sits in memory. */
async function searchLargeFile(
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

/**
 * Keeps what one file contributes: matching lines, the context around them (each line once),
 * and the count. `add` returns false when reading can stop (first match in files mode, or the
 * global budget is spent).
 */
class LineCollector {
  private lineNumber = 0;
  private matchingLines = 0;
  private readonly lines: SearchedLine[] = [];
  private readonly before: SearchedLine[] = [];
  private afterRemaining = 0;

  constructor(
    private readonly absolutePath: string,
    private readonly regex: RegExp,
    private readonly request: TextSearchRequest,
    private readonly budget: SearchBudget,
  ) {}

  add(rawLine: string): boolean {
    this.lineNumber += 1;
    const text = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    this.regex.lastIndex = 0;
    const isMatch = this.regex.test(text);
    if (isMatch) this.matchingLines += 1;
    if (this.request.mode === "files_with_matches") return !isMatch;
    if (this.request.mode === "count") return true;
    if (isMatch) {
      this.keep(...this.before.splice(0));
      this.keep(...this.matchLines(text));
      this.afterRemaining = this.request.contextAfter;
    } else if (this.afterRemaining > 0) {
      this.afterRemaining -= 1;
      this.keep({ lineNumber: this.lineNumber, text, isMatch: false });
    } else if (this.request.contextBefore > 0) {
      this.before.push({ lineNumber: this.lineNumber, text, isMatch: false });
      if (this.before.length > this.request.contextBefore) this.before.shift();
    }
    return !this.budget.stopped;
  }

  result(): FileMatches | undefined {
    return this.matchingLines === 0 ? undefined : { absolutePath: this.absolutePath, matchingLines: this.matchingLines, lines: this.lines };
  }

  private matchLines(text: string): SearchedLine[] {
    if (!this.request.onlyMatching) return [{ lineNumber: this.lineNumber, text, isMatch: true }];
    // matchAll starts where the shared regex's lastIndex points, which test() just moved.
    this.regex.lastIndex = 0;
    return [...text.matchAll(this.regex)]
      .filter((match) => match[0] !== "")
      .map((match) => ({ lineNumber: this.lineNumber, text: match[0], isMatch: true }));
  }

  private keep(...lines: SearchedLine[]): void {
    this.lines.push(...lines);
    this.budget.collectedLines += lines.length;
    if (this.budget.collectedLines >= MAX_COLLECTED_LINES) this.budget.stopped = true;
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
