/**
 * A one-prompt run whose V8 heap grows past this is a long one, and from then V8 favours memory.
 * A persistent session (stream-json input, chat) favours memory from the start: it is long by
 * nature, and a long session allocates a fresh request body per model call; with V8's default
 * heap growth the garbage piled up (RSS +60 MiB over 300 turns while the live heap grew 1 MiB).
 * For a short run the same setting is GC work for nothing (two incremental mark-compacts in ten
 * tool turns: ~1.4 ms per turn in npm run bench).
 */
const LONG_RUN_HEAP_BYTES = 32 * 1024 * 1024;

/** V8 settings for a process that runs a session; set before its first model request. */
export async function tuneV8ForSessions(run: { persistent: boolean }): Promise<void> {
  const { getHeapStatistics, setFlagsFromString } = await import("node:v8");
  // Node's fetch parses HTTP with a WebAssembly module; at exit V8 waits for its background
  // optimizing compiles, which delayed every exit by ~60 ms (measured: 68 ms → 10 ms between the
  // exit handler and process end). Baseline WASM code is plenty for parsing SSE.
  setFlagsFromString("--liftoff-only");
  if (run.persistent) {
    setFlagsFromString("--optimize-for-size");
    return;
  }
  const { PerformanceObserver } = await import("node:perf_hooks");
  const afterCollections = new PerformanceObserver(() => {
    if (getHeapStatistics().total_heap_size < LONG_RUN_HEAP_BYTES) return;
    setFlagsFromString("--optimize-for-size");
    afterCollections.disconnect();
  });
  afterCollections.observe({ entryTypes: ["gc"] });
}
