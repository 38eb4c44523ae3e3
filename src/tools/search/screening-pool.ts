import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import * as z from "zod";
import { screenFile } from "./file-screen.js";
import type { FileScreen, SyncFileCalls } from "./file-screen.js";

/** One request to a worker: files to screen, and how. */
export interface ScreenChunk {
  /** Absolute paths, NUL-separated (no path holds a NUL): one string clones far faster than an array of them (~0.2 ms a message). */
  paths: string;
  screen: FileScreen;
  /** A whole-text regex that every matching file passes (see screeningRegex in search-one-file.ts). */
  regex: { source: string; flags: string } | undefined;
}

const screenReplySchema = z.object({
  /** Files that may match, by position in the chunk's `paths`, with their bytes. */
  candidates: z.array(z.object({ index: z.number().int(), bytes: z.instanceof(Uint8Array) })),
  /** Files over `screen.maxBytes`, left to the caller's streaming search. */
  large: z.array(z.number().int()),
});
export type ScreenReply = z.infer<typeof screenReplySchema>;

/**
 * Screens a chunk of files: reads each (screenFile), and decodes and tests with the regex those
 * that pass. Unreadable files are dropped, as the search skips them anyway. Self-contained, like
 * screenFile: the workers run it from its source text, with node:fs and screenFile passed in.
 */
export function screenChunk(chunk: ScreenChunk, buffer: Buffer, calls: SyncFileCalls, screen: typeof screenFile): ScreenReply {
  const regex = chunk.regex === undefined ? undefined : new RegExp(chunk.regex.source, chunk.regex.flags);
  const reply: ScreenReply = { candidates: [], large: [] };
  const paths = chunk.paths.split("\0");
  for (let index = 0; index < paths.length; index += 1) {
    let bytes: Buffer | "large" | undefined;
    try {
      bytes = screen(paths[index]!, chunk.screen, buffer, calls);
    } catch {
      continue;
    }
    if (bytes === undefined) continue;
    if (bytes === "large") {
      reply.large.push(index);
      continue;
    }
    if (regex !== undefined && !regex.test(bytes.toString("utf8"))) continue;
    // A copy: the shared buffer is overwritten by the next file.
    reply.candidates.push({ index, bytes: new Uint8Array(bytes) });
  }
  return reply;
}

/**
 * The worker's program. Evaluated source rather than a module file, so it survives bundling into
 * dist/ (and into the benchmark's bundle) without a second entry point; the functions it runs are
 * the same ones the main thread uses, typed and tested there.
 */
const workerSource = `
const { parentPort } = require("node:worker_threads");
const fs = require("node:fs");
const screenFile = (${screenFile.toString()});
const screenChunk = (${screenChunk.toString()});
let buffer;
parentPort.on("message", ({ id, chunk }) => {
  buffer ??= Buffer.allocUnsafe(chunk.screen.maxBytes + 1);
  const reply = screenChunk(chunk, buffer, fs, screenFile);
  parentPort.postMessage({ id, reply }, reply.candidates.map((candidate) => candidate.bytes.buffer));
});
`;

interface PooledWorker {
  worker: Worker;
  /** Chunks sent and not yet answered, by id. */
  waiting: Map<number, { resolve: (reply: ScreenReply) => void; reject: (error: Error) => void }>;
}

/**
 * Worker threads that read and screen files for a tree search. Opening and reading 100k small
 * files is most of such a search and is synchronous system-call work, so it scales with cores
 * where the libuv thread pool's per-call overhead made it slower than one synchronous thread.
 * Workers start on first use and stay, unreferenced while idle so they never keep the process alive.
 */
export class ScreeningPool {
  private readonly workers: PooledWorker[] = [];
  private nextId = 0;

  private constructor(size: number) {
    for (let index = 0; index < size; index += 1) this.workers.push(this.start());
  }

  /** The process's pool: the main thread walks and searches candidates, so one worker per core. */
  static shared(): ScreeningPool {
    sharedPool ??= new ScreeningPool(Math.max(1, Math.min(4, availableParallelism())));
    return sharedPool;
  }

  get size(): number {
    return this.workers.length;
  }

  /** Rejects when the worker fails, or none is left (the caller then searches the chunk itself). */
  screen(chunk: ScreenChunk): Promise<ScreenReply> {
    if (this.workers.length === 0) return Promise.reject(new Error("No screening worker is running"));
    const target = this.workers.reduce(
      (least, candidate) => (candidate.waiting.size < least.waiting.size ? candidate : least),
      this.workers[0]!,
    );
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (target.waiting.size === 0) target.worker.ref();
      target.waiting.set(id, { resolve, reject });
      target.worker.postMessage({ id, chunk });
    });
  }

  private start(): PooledWorker {
    const worker = new Worker(workerSource, { eval: true });
    const pooled: PooledWorker = { worker, waiting: new Map() };
    worker.unref();
    worker.on("message", (message: { id: number; reply: unknown }) => {
      const waiter = pooled.waiting.get(message.id);
      pooled.waiting.delete(message.id);
      if (pooled.waiting.size === 0) worker.unref();
      const parsed = screenReplySchema.safeParse(message.reply);
      if (parsed.success) waiter?.resolve(parsed.data);
      else waiter?.reject(new Error(`Malformed screening reply: ${parsed.error.message}`));
    });
    const fail = (error: Error): void => {
      // A failed worker leaves the pool for good (no restarts: a worker that cannot start would
      // loop), and its chunks go back to the caller, which searches them itself.
      for (const waiter of pooled.waiting.values()) waiter.reject(error);
      pooled.waiting.clear();
      const position = this.workers.indexOf(pooled);
      if (position !== -1) this.workers.splice(position, 1);
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`Screening worker exited with code ${code}`)));
    return pooled;
  }
}

let sharedPool: ScreeningPool | undefined;
