/** The sha256 of `data`, in hex. */
export function sha256Hex(data: string | Uint8Array): string {
  // Loaded at the first hash, not with this module: the start-up code imports it, and most runs
  // (a project without settings to fingerprint, skills already in place) hash nothing, while
  // node:crypto costs ~2.5 ms of CPU to load.
  return process.getBuiltinModule("node:crypto").createHash("sha256").update(data).digest("hex");
}
