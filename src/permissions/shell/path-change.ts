import type { ShellWord } from "./shell-syntax.js";

/** One path a command changes, and how. */
export interface ChangedPath {
  word: ShellWord;
  /** `links`: a link made to it (`ln -s ~/.bashrc x`), which only matters when it is protected. */
  change: "writes" | "deletes" | "permissions" | "extracts" | "links";
  /** Where a relative word starts when the program moves there first (`git -C D`, `tar -C D`). */
  base?: ShellWord;
  /** For deletes: the whole tree under it goes (`rm -r`). */
  recursive?: boolean;
  /** For writes: the path is remote (`rsync x host:dir`), so it is another machine that changes. */
  remote?: boolean;
}

/** A plain write, relative to `base` when the program moves there first. */
export function writes(word: ShellWord, base?: ShellWord): ChangedPath {
  return base ? { word, change: "writes", base } : { word, change: "writes" };
}
