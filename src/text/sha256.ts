import { createRequire } from "node:module";

/**
 * The sha256 of `data`, in hex. node:crypto is required on first use rather than imported: start-up
 * modules use this only now and then (a retired skill's check, a trust fingerprint), and loading
 * node:crypto costs a few milliseconds before the first line (see random-uuid.ts).
 */
export function sha256Hex(data: string | Uint8Array): string {
  const { createHash } = createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return createHash("sha256").update(data).digest("hex");
}
