/**
 * The keys through which the CLI, once loaded, talks to its loader (code-cache.ts), in a module of
 * their own: the CLI bundle imports these and nothing of the loader itself.
 */

/**
 * v8-settings.ts calls the function under this global key with the V8 flags it is about to set. V8
 * refuses cached code made under other flags, so the loader first writes the caches of the files
 * loaded so far, and caches made from then on are kept apart, under the new flags' name.
 */
export const BEFORE_V8_FLAGS = Symbol.for("agentwire.before-v8-flags");

/**
 * V8 keeps in a file's cache the functions compiled when the cache was made. A file's cache made
 * by a single answer lacks the functions only a run with tools calls (running a tool, the next
 * request), and V8 then compiles them again in every such run: ~7 ms of each ten-tool run in
 * `npm run bench`. So each cache file records which kinds of run it covers, and a run of a kind
 * a file's cache lacks writes it again at exit, once. headless-run.ts reports the kind through this key.
 */
export const CODE_COVERAGE = Symbol.for("agentwire.code-coverage");

/** Kinds of run, as coverage bits: one that made more than one model request. */
export const MULTI_REQUEST_RUN = 1;

/** Tells the loader that this run is of `kind` (a coverage bit); nothing when no loader runs. */
export function noteRunCoverage(kind: number): void {
  (globalThis as Record<symbol, ((kind: number) => void) | undefined>)[CODE_COVERAGE]?.(kind);
}
