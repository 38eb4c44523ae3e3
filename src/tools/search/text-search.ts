import type { ToolErrorCode } from "../../conversation/tool-result.js";

/** What Grep asks a search backend (ripgrep or the built-in one) for. */
export interface TextSearchRequest {
  /** Absolute file or folder. */
  target: string;
  targetIsFile: boolean;
  pattern: string;
  caseInsensitive: boolean;
  /** `.` matches newlines and matches may span lines. */
  multiline: boolean;
  /** ripgrep-style glob filter (`*.ts` matches at any depth). */
  glob: string | undefined;
  /** ripgrep file type name (`ts`, `py`, …). */
  fileType: string | undefined;
  mode: "content" | "files_with_matches" | "count";
  contextBefore: number;
  contextAfter: number;
  /** Content mode: one output line per match, holding only the matched text. */
  onlyMatching: boolean;
  signal: AbortSignal;
}

export interface SearchedLine {
  lineNumber: number;
  text: string;
  /** False for context lines. */
  isMatch: boolean;
}

export interface FileMatches {
  absolutePath: string;
  /** Lines that matched (count mode's number). */
  matchingLines: number;
  /** Content mode only: matches and context lines in file order. */
  lines: SearchedLine[];
}

export type TextSearchOutcome =
  | {
      ok: true;
      files: FileMatches[];
      /** The search stopped at MAX_COLLECTED_LINES output lines; more matches may exist. */
      stoppedEarly: boolean;
    }
  | { ok: false; code: ToolErrorCode; message: string };

/**
 * Content lines a search keeps in memory at most, however many matches exist: enough for any
 * head_limit a model uses in practice, small enough that a pattern like `e` over a huge tree
 * cannot exhaust memory.
 */
export const MAX_COLLECTED_LINES = 20_000;
