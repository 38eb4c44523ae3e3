import { closeSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * A random (version 4) UUID, as node:crypto's randomUUID makes. Every run needs one for its
 * session id before its first line, and loading node:crypto for it cost ~2.5 ms of that start;
 * the kernel's random source gives the same 122 random bits for one read. Where there is no
 * /dev/urandom (Windows), node:crypto does it.
 */
export function randomUuid(): string {
  const bytes = Buffer.alloc(16);
  try {
    const descriptor = openSync("/dev/urandom", "r");
    try {
      if (readSync(descriptor, bytes, 0, 16, null) !== 16) throw new Error("short read");
    } finally {
      closeSync(descriptor);
    }
  } catch {
    return (createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto")).randomUUID();
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
