import { readdirSync, type Dirent } from "node:fs";

/** A folder's entries, undefined when it cannot be read, or "too many" once its reader is past its limit. */
export type FolderReader = (folder: string) => Dirent[] | undefined | "too many";

/**
 * Folder reads for a check that must end quickly whatever a repository holds (a glob's expansion,
 * a walk for links leading out): one reader serves one check and stops once the entries it has
 * read in all pass `limit`, so the check can ask instead of reading on.
 *
 * The reader returns a folder's entries, undefined when it cannot be read (missing, not a folder,
 * no permission), or "too many" once past the limit. Contract: never throws.
 */
export function boundedFolderReader(limit: number): FolderReader {
  let entriesRead = 0;
  return (folder) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return undefined;
    }
    entriesRead += entries.length;
    return entriesRead > limit ? "too many" : entries;
  };
}
