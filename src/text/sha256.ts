import { createHash } from "node:crypto";

/** The sha256 of `data`, in hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
