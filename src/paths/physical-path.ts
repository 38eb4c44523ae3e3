import { realpathSync } from "node:fs";
import path from "node:path";

/**
 * Where the kernel lands for `written` (a path as a program receives it) opened from `base`:
 * symlinks are followed before `..` is applied, so `lnk/../x` is the folder above lnk's target,
 * not `x` beside lnk. `path.resolve` would drop `lnk/..` first and miss that. The longest prefix
 * that exists is resolved by the system's realpath; the missing rest is appended as written
 * (the kernel could not open through it anyway).
 *
 * Contract: never throws; `base` must be absolute.
 */
export function physicalPath(base: string, written: string): string {
  const full = path.isAbsolute(written) ? written : `${base}/${written}`;
  const segments = full.split("/");
  for (let length = segments.length; length > 1; length--) {
    const prefix = segments.slice(0, length).join("/") || "/";
    try {
      return path.resolve(realpathSync.native(prefix), ...segments.slice(length));
    } catch {
      // Missing (or not a folder on the way): try the shorter prefix.
    }
  }
  return path.resolve(full);
}
