import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import path from "node:path";
import { literalBytes } from "./file-screen.js";
import type { FileScreen } from "./file-screen.js";
import { FILE_TYPE_EXTENSIONS } from "./file-types.js";
import type { SearchBudget } from "./line-collector.js";
import { ScreeningPool } from "./screening-pool.js";
import type { ScreenChunk } from "./screening-pool.js";
import {
  BINARY_PROBE_BYTES,
  SMALL_FILE_BYTES,
  screeningRegex,
  searchBytes,
  searchLargeFile,
  searchSmallFileSync,
} from "./search-one-file.js";
import type { FileMatches, TextSearchOutcome, TextSearchRequest } from "./text-search.js";
import { globPatterns, isNameGlob, nameGlobFilter } from "./search-glob.js";
import { walkFiles } from "./walk-files.js";
import { walkSearchTree } from "./walk-search-tree.js";

/** Files searched at once: enough to hide file-open latency, few enough to stay far from fd limits. */
const CONCURRENT_FILES = 32;
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
