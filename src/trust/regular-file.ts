import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** A repository's `.mcp.json` or settings file larger than this is not a configuration. */
const MAX_PROJECT_FILE_BYTES = 1024 * 1024;

/**
 * The bytes of a file a repository supplies, or why they were not read (a reason to follow the
 * file's name: "it is not a regular file"). Opened without blocking
 * and checked to be a regular file of sane size first: a FIFO named `.mcp.json` would otherwise
 * hang every run in that repository, and `/dev/zero` behind a symlink would fill the memory.
 */
export function readRegularFile(file: string, maxBytes = MAX_PROJECT_FILE_BYTES): { bytes: Buffer } | { problem: string } {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { problem: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) return { problem: "it is not a regular file" };
    if (stats.size > maxBytes) return { problem: `it is larger than ${maxBytes} bytes` };
    const bytes = Buffer.alloc(stats.size);
    let offset = 0;
    while (offset < bytes.length) {
      const read = readSync(descriptor, bytes, offset, bytes.length - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    return { bytes: bytes.subarray(0, offset) };
  } catch (error) {
    return { problem: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  } finally {
    closeSync(descriptor);
  }
}
