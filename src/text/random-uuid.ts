import { closeSync, openSync, readSync } from "node:fs";

/**
 * Random (version 4) UUIDs, and random bytes for shorter ids, from the kernel's random device,
 * for session, message, file and task identifiers. node:crypto's randomUUID draws from the same
 * kernel source, but loading node:crypto costs ~2.5 ms of CPU on every start, and a single answer
 * needs nothing else from it.
 */

/** Bytes read ahead: sixteen per identifier, so one read serves a whole session's first many. */
const POOL_BYTES = 16 * 64;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

export function randomUUID(): string {
  const bytes = randomBytes(16);
  // Version 4 (random) and the RFC 9562 variant.
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `count` (at most 1024) fresh random bytes, for short identifiers (task and agent ids). */
export function randomBytes(count: number): Buffer {
  if (used + count > POOL_BYTES) refill();
  // A copy: the pool is overwritten on the next refill.
  const bytes = Buffer.from(pool.subarray(used, used + count));
  used += count;
  return bytes;
}

function refill(): void {
  used = 0;
  let descriptor: number | undefined;
  try {
    descriptor = openSync("/dev/urandom", "r");
    for (let filled = 0; filled < POOL_BYTES; ) {
      const read = readSync(descriptor, pool, filled, POOL_BYTES - filled, null);
      if (read === 0) throw new Error("the random device ended");
      filled += read;
    }
    return;
  } catch {
    // No random device (Windows): Web Crypto's generator, which loads what the device spared.
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
  globalThis.crypto.getRandomValues(pool);
}
