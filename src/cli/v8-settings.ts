import { BEFORE_V8_FLAGS } from "./code-cache-hooks.js";
import { isStdioServer, type McpServers } from "../mcp/mcp-config.js";

/**
 * A one-prompt run whose V8 heap grows past this is a long one, and from then V8 favours memory.
 * A persistent session (stream-json input, chat) favours memory from the start: it is long by
 * nature, and a long session allocates a fresh request body per model call; with V8's default
 * heap growth the garbage piled up (RSS +60 MiB over 300 turns while the live heap grew 1 MiB).
 * For a short run the same setting is GC work for nothing (two incremental mark-compacts in ten
 * tool turns: ~1.4 ms per turn in npm run bench).
 */
const LONG_RUN_HEAP_BYTES = 32 * 1024 * 1024;
const HEAP_CHECK_INTERVAL_MS = 250;

/**
 * Whether a run calls Node's fetch: Gemini's SDK does, and so do MCP servers over HTTP. The
 * Anthropic and OpenAI SDKs' requests go over agentwire's own fetch (src/providers/node-http-fetch.ts).
 */
export function usesNodeFetch(provider: string, mcpServers: McpServers): boolean {
  return provider === "gemini" || Object.values(mcpServers).some((server) => !isStdioServer(server));
}

/**
 * V8 settings for a process that runs a session; set before its first model request. A single
 * answer without Node's fetch sets none: a flag set at run time makes V8 refuse the code cached before
 * it, and the start-up chunks then kept only what was compiled until that moment (16 ms more CPU
 * per answer than with no flag set).
 */
export async function tuneV8ForSessions(run: { persistent: true } | { persistent: false; nodeFetch: boolean }): Promise<void> {
  // Node's fetch parses HTTP with a WebAssembly module; at exit V8 waits for its background
  // optimizing compiles, which delayed every exit by ~60 ms (measured: 68 ms → 10 ms between the
  // exit handler and process end). Baseline WASM code is plenty for parsing SSE.
  if (run.persistent || run.nodeFetch) await setV8Flags("--liftoff-only");
  if (run.persistent) {
    await setV8Flags("--optimize-for-size");
    return;
  }
  // Looked at a few times a second rather than after each collection: watching collections takes
  // node:perf_hooks, ~2.5 ms of CPU to load, and a single answer is over before the first look.
  const heapCheck = setInterval(() => {
    if (process.memoryUsage().heapTotal < LONG_RUN_HEAP_BYTES) return;
    clearInterval(heapCheck);
    void setV8Flags("--optimize-for-size");
  }, HEAP_CHECK_INTERVAL_MS);
  heapCheck.unref();
}

async function setV8Flags(flags: string): Promise<void> {
  const { setFlagsFromString } = await import("node:v8");
  // The code cache keeps what was compiled under the flags so far: V8 refuses it under others.
  (globalThis as Record<symbol, ((flags: string) => void) | undefined>)[BEFORE_V8_FLAGS]?.(flags);
  setFlagsFromString(flags);
}
