import { mkdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Writes `files` (relative path → content) under `root`, creating folders. Modification times
 * are set one minute apart in the given order (first = oldest), so "newest first" is testable.
 */
export async function writeTree(root: string, files: Record<string, string | Buffer>): Promise<void> {
  const baseSeconds = Math.floor(Date.now() / 1000) - 3600;
  let index = 0;
  for (const [relativePath, content] of Object.entries(files)) {
    const filePath = path.join(root, relativePath);
    await mkdir(path.dirname(filePath), { recursive: true });
    await writeFile(filePath, content);
    const seconds = baseSeconds + index * 60;
    await utimes(filePath, seconds, seconds);
    index += 1;
  }
}
