import { randomUUID } from "../text/random-uuid.js";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where tools write their output files, and whether the session removes it at close. */
export interface OutputDirectory {
  path: string;
  /** Removes the folder if the session made it; a caller's own folder stays. */
  remove(): void;
}

/**
 * Bash's full outputs: disposable and possibly gigabytes, so in the OS temp folder rather than
 * the agentwire home (which keeps sessions), and private to this session object.
 */
export function outputDirectory(given: string | undefined, sessionId: string): OutputDirectory {
  if (given !== undefined) return { path: given, remove() {} };
  const path = join(tmpdir(), `agentwire-${sessionId}-${randomUUID().slice(0, 8)}`);
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
