import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The working directory and its parents up to the repository root (the first directory with a
 * `.git`), nearest first; the working directory alone outside a repository. Where project files
 * (skills, AGENTS.md) are looked for.
 */
export function projectDirectories(cwd: string): string[] {
  const chain: string[] = [];
  for (let directory = path.resolve(cwd); ; directory = path.dirname(directory)) {
    chain.push(directory);
    if (existsSync(path.join(directory, ".git"))) return chain;
    if (path.dirname(directory) === directory) return [chain[0]!];
  }
}
