/**
 * The first, byte-level look at a file of a tree search: read it whole (up to a limit), drop it
 * when it is binary, and drop it when a literal pattern's bytes are not in it, before any of it is
 * decoded. On a large tree almost every file ends here, so this is the search's hot loop.
 */

/** What a screen needs to know. Plain data, so that it crosses to a worker thread as it is. */
export interface FileScreen {
  /** The pattern's UTF-8 bytes when it is a plain literal (see `literalBytes`); files without them cannot match. */
  literal: Uint8Array | undefined;
  /** Files larger than this are left to a streaming search ("large"). */
  maxBytes: number;
  /** A NUL byte in the first `binaryProbeBytes` means binary (ripgrep's and git's heuristic). */
  binaryProbeBytes: number;
}

/** The synchronous file calls the screen makes: node:fs's, passed in because a worker has no imports (see search-worker-pool). */
export interface SyncFileCalls {
  openSync(path: string, flags: string): number;
  readSync(descriptor: number, buffer: Uint8Array, offset: number, length: number, position: null): number;
  closeSync(descriptor: number): void;
}

/**
 * The file's bytes (a view of `buffer`, valid until the next call) when it may match; "large"
 * when it has more than `screen.maxBytes`; undefined when it is binary or lacks the literal.
 * No fstat: a read that returns 0 bytes means the end (one syscall fewer per file, which on a
 * 100k-file tree is a good share of the cost). Throws when the file cannot be read.
 *
 * Self-contained (no imports, no outside names, nothing a compiler would need a helper for): a
 * worker thread runs this very function from its source text.
 */
export function screenFile(absolutePath: string, screen: FileScreen, buffer: Buffer, fs: SyncFileCalls): Buffer | "large" | undefined {
  const descriptor = fs.openSync(absolutePath, "r");
  let filled = 0;
  try {
    for (;;) {
      const bytesRead = fs.readSync(descriptor, buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled > screen.maxBytes) return "large";
    }
  } finally {
    fs.closeSync(descriptor);
  }
  const bytes = buffer.subarray(0, filled);
  if (bytes.subarray(0, screen.binaryProbeBytes).includes(0)) return undefined;
  if (screen.literal !== undefined && bytes.indexOf(screen.literal) === -1) return undefined;
  return bytes;
}

/**
 * The pattern's UTF-8 bytes when every match of it must contain them: a pattern without regex
 * metacharacters, matched case-sensitively. Decoding never joins or splits a valid UTF-8 sequence
 * (an invalid byte becomes U+FFFD on its own), so text that contains the literal comes from bytes
 * that contain its encoding; a literal with U+FFFD itself is left to the regex, as that character
 * can also come from invalid bytes.
 */
export function literalBytes(pattern: string, caseInsensitive: boolean): Uint8Array | undefined {
  if (caseInsensitive || pattern === "" || /[\\^$.*+?()[\]{}|\uFFFD]/.test(pattern)) return undefined;
  // Its own memory, not a view of Buffer's shared pool: sending a view to a worker copies the whole pool.
  return new Uint8Array(Buffer.from(pattern, "utf8"));
}
