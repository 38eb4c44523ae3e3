import { closeSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * A random (version 4) UUID, as node:crypto's randomUUID makes: agentwire's one way to make one
 * (test/text/random-uuid.test.ts keeps it so). Every run needs one for its session id before its
 * first line, and loading node:crypto cost ~1.5 ms of CPU before that line (measured: 28.3 ms for
 * a bare Node start with it, 26.7 ms with this); the kernel's random source gives the same bits.
 * Bytes are read for 32 UUIDs at a time, as node:crypto caches its own. Where there is no
 * /dev/urandom (Windows), node:crypto makes them.
 */
export function randomUuid(): string {
  if (pool.offset === POOL_BYTES && !refill()) {
    return (createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto")).randomUUID();
  }
  const bytes = pool.bytes.subarray(pool.offset, pool.offset + 16);
  pool.offset += 16;
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const POOL_BYTES = 16 * 32;
const pool = { bytes: Buffer.alloc(POOL_BYTES), offset: POOL_BYTES };

function refill(): boolean {
  try {
    const descriptor = openSync("/dev/urandom", "r");
    try {
      if (readSync(descriptor, pool.bytes, 0, POOL_BYTES, null) !== POOL_BYTES) return false;
    } finally {
      closeSync(descriptor);
    }
  } catch {
    return false;
  }
  pool.offset = 0;
  return true;
}
