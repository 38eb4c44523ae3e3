import { closeSync, fstatSync, openSync, readSync } from "node:fs";

const CHUNK_BYTES = 1 << 20;

/**
 * Calls `visit` with each line of `file` from the last to the first (without its "\n"), and the
 * byte offset where the line starts, until `visit` returns false. Reads the file in chunks from
 * its end, so a caller that stops early never reads, let alone parses, the part before: resuming
 * a session of hundreds of MB reads only what follows its last compaction. Synchronous, like the
 * session store's appends.
 */
export function readLinesBackward(file: string, visit: (line: Buffer, offset: number) => boolean, chunkBytes = CHUNK_BYTES): void {
  const descriptor = openSync(file, "r");
  try {
    const size = fstatSync(descriptor).size;
    if (size === 0) return;
    const last = Buffer.alloc(1);
    readSync(descriptor, last, 0, 1, size - 1);
    // The file's own final newline ends its last line; it does not start an empty one.
    let position = last[0] === 0x0a ? size - 1 : size;
    // The end of the line being assembled: the bytes after the last "\n" seen so far.
    let pending: Buffer[] = [];
    while (position > 0) {
      const length = Math.min(chunkBytes, position);
      position -= length;
      const chunk = Buffer.allocUnsafe(length);
      readSync(descriptor, chunk, 0, length, position);
      let end = length;
      for (let index = chunk.lastIndexOf(0x0a, end - 1); index >= 0; index = index === 0 ? -1 : chunk.lastIndexOf(0x0a, index - 1)) {
        const line = pending.length === 0 ? chunk.subarray(index + 1, end) : Buffer.concat([chunk.subarray(index + 1, end), ...pending]);
        pending = [];
        if (!visit(line, position + index + 1)) return;
        end = index;
      }
      if (end > 0) pending.unshift(chunk.subarray(0, end));
    }
    visit(pending.length === 1 ? pending[0]! : Buffer.concat(pending), 0);
  } finally {
    closeSync(descriptor);
  }
}
