import { randomUUID } from "../text/random-uuid.js";
import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import * as z from "zod/mini";
import "../validation/english-issues.js";

/**
 * The projects a user has trusted (`agentwire trust`), in `$AGENTWIRE_HOME/trusted-projects.json`:
 * per repository root, the fingerprint of each file or skill folder that was shown and accepted.
 * A file whose fingerprint differs, or that the record lacks, is not trusted.
 */
const TRUST_FILE_NAME = "trusted-projects.json";

const FingerprintSchema = z.string().check(z.regex(/^sha256:[0-9a-f]{64}$/, "must be sha256:<64 hex digits>"));

const ProjectRecordSchema = z.strictObject({
  /** When the record last changed (ISO 8601). */
  trustedAt: z.string(),
  /** Path relative to the root (a skill folder ends with `/`) → its fingerprint. */
  files: z.record(z.string(), FingerprintSchema),
});

const TrustStoreSchema = z.strictObject({
  version: z.literal(1),
  /** Absolute, symlink-free repository root → what was trusted there. */
  projects: z.record(z.string(), ProjectRecordSchema),
});

export type TrustStore = z.output<typeof TrustStoreSchema>;

export function emptyTrustStore(): TrustStore {
  return { version: 1, projects: {} };
}

export function trustFilePath(home: string): string {
  return path.join(home, TRUST_FILE_NAME);
}

/**
 * The store, an empty one when there is no file yet, or why it cannot be used. A file that is not
 * a regular file, that another user owns, or that others may write is refused: whoever can write
 * it could make any repository trusted.
 */
export function readTrustStore(home: string): { store: TrustStore } | { problem: string } {
  const file = trustFilePath(home);
  let stats;
  try {
    stats = lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { store: emptyTrustStore() };
    return { problem: `${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  if (!stats.isFile()) return { problem: `${file} is not a regular file` };
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) return { problem: `${file} belongs to another user (uid ${stats.uid})` };
  if ((stats.mode & 0o022) !== 0)
    return { problem: `${file} may be written by other users (mode ${(stats.mode & 0o777).toString(8)}); chmod 600 it` };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return { problem: `${file} is not valid JSON: ${(error as Error).message}` };
  }
  const parsed = TrustStoreSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `${file} is not a trust store: ${issue?.path.join(".") || "(document)"}: ${issue?.message ?? "invalid"}` };
  }
  return { store: parsed.data };
}

/**
 * Replaces the store in one step: written to a private temporary file beside it (mode 0600,
 * synced) and renamed over the old one, so a crash or a concurrent reader never sees half a file.
 */
export function writeTrustStore(home: string, store: TrustStore): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = trustFilePath(home);
  const temporary = `${file}.${process.pid}.${randomUUID()}.tmp`;
  const descriptor = openSync(temporary, "wx", 0o600);
  try {
    writeSync(descriptor, `${JSON.stringify(TrustStoreSchema.parse(store), null, 2)}\n`);
    fsyncSync(descriptor);
  } catch (error) {
    closeSync(descriptor);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(descriptor);
  try {
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The store with `root`'s record holding `files` (added to, or replacing, what it had). */
export function withTrusted(store: TrustStore, root: string, files: Readonly<Record<string, string>>, now: Date): TrustStore {
  const previous = store.projects[root]?.files ?? {};
  return { ...store, projects: { ...store.projects, [root]: { trustedAt: now.toISOString(), files: { ...previous, ...files } } } };
}

/** The store without `root`'s record. */
export function withoutProject(store: TrustStore, root: string): TrustStore {
  const { [root]: _removed, ...projects } = store.projects;
  return { ...store, projects };
}
