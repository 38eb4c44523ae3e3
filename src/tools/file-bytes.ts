import { closeSync, constants as fileConstants, fstatSync, openSync, read, readSync } from "node:fs";
import { promisify } from "node:util";

/**
 * A regular file opened for reading at given positions. The first bytes of a file are read
 * synchronously: a Read of a source file is a few small reads, and each read through the thread
 * pool is a hand-off to a worker and back, two wake-ups that each wait for a turn on a busy
 * machine (six of them made up about a third of a Read call there). Past SYNC_READ_BYTES the
 * reads go through the thread pool, so scanning a multi-GB file leaves the event loop free for
 * interrupts between chunks.
 */
export interface FileBytes {
  /** Reads into `buffer` from `position`; resolves with the number of bytes read (0 at the end). */
  readAt(buffer: Buffer, position: number): Promise<number>;
  close(): void;
}

/** Reads that start below this offset are synchronous: enough for any source file. */
const SYNC_READ_BYTES = 1024 * 1024;

const readAsync = promisify(read);

/**
 * Opens `filePath` if it is (still) a regular file: without blocking on a FIFO swapped in since
 * the caller's stat, and checked again on the descriptor itself. Returns undefined for anything
 * else; throws the open's error (ENOENT, EACCES) for the caller to explain.
 */
export function openRegularFile(filePath: string): FileBytes | undefined {
  const descriptor = openSync(filePath, fileConstants.O_RDONLY | (fileConstants.O_NONBLOCK ?? 0));
  if (!fstatSync(descriptor).isFile()) {
    closeSync(descriptor);
    return undefined;
  }
  return {
    async readAt(buffer, position) {
      if (position < SYNC_READ_BYTES) return readSync(descriptor, buffer, 0, buffer.length, position);
      return (await readAsync(descriptor, buffer, 0, buffer.length, position)).bytesRead;
    },
    close: () => closeSync(descriptor),
  };
}
