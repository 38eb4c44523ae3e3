/**
 * One hunk of a unified diff, in the shape Claude Code puts in `tool_use_result.structuredPatch`
 * (the `diff` package's `structuredPatch` hunks): 1-based starts, line counts, and lines prefixed
 * with " ", "-" or "+", without their line endings.
 */
export interface PatchHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** Unchanged lines shown around each change, as in `diff -u`. */
const CONTEXT_LINES = 3;
const NO_NEWLINE_MARKER = "\\ No newline at end of file";
/** A diff of huge, very different files may take long; past this the diff is coarser, not wrong. */
const DIFF_TIMEOUT_SECONDS = 2;

interface LineOperation {
  kind: " " | "-" | "+";
  /** The line including its "\n", when it has one. */
  line: string;
}

/**
 * Line-level diff of two texts as unified-diff hunks, for renderers (GUIs draw them; the model
 * never sees them). A final line without "\n" gets the usual "\ No newline at end of file" line.
 *
 * Contract: never throws; identical texts give `[]`. diff-match-patch is loaded on first use.
 */
export async function structuredPatch(oldText: string, newText: string): Promise<PatchHunk[]> {
  if (oldText === newText) return [];
  const operations = await diffLines(oldText, newText);
  return buildHunks(operations);
}

async function diffLines(oldText: string, newText: string): Promise<LineOperation[]> {
  const { default: DiffMatchPatch } = await import("diff-match-patch");
  const differ = new DiffMatchPatch();
  differ.Diff_Timeout = DIFF_TIMEOUT_SECONDS;
  // Each distinct line becomes one character, so the character diff is a line diff.
  const { chars1, chars2, lineArray } = differ.diff_linesToChars_(oldText, newText);
  const diffs = differ.diff_main(chars1, chars2, false);
  differ.diff_charsToLines_(diffs, lineArray);
  const operations: LineOperation[] = [];
  for (const [operation, text] of diffs) {
    const kind = operation === 0 ? " " : operation < 0 ? "-" : "+";
    for (const line of splitLinesKeepingEnds(text)) operations.push({ kind, line });
  }
  return operations;
}

/** "a\nb" → ["a\n", "b"]; "a\n" → ["a\n"]; "" → []. */
function splitLinesKeepingEnds(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function buildHunks(operations: LineOperation[]): PatchHunk[] {
  const changeIndexes = operations.flatMap((operation, index) => (operation.kind === " " ? [] : [index]));
  const hunks: PatchHunk[] = [];
  let groupStart = 0;
  while (groupStart < changeIndexes.length) {
    // Changes closer than two contexts apart share a hunk, so context lines are never repeated.
    let groupEnd = groupStart;
    while (
      groupEnd + 1 < changeIndexes.length &&
      changeIndexes[groupEnd + 1]! - changeIndexes[groupEnd]! <= 2 * CONTEXT_LINES + 1
    ) {
      groupEnd += 1;
    }
    const first = Math.max(0, changeIndexes[groupStart]! - CONTEXT_LINES);
    const last = Math.min(operations.length - 1, changeIndexes[groupEnd]! + CONTEXT_LINES);
    hunks.push(hunkFor(operations, first, last));
    groupStart = groupEnd + 1;
  }
  return hunks;
}

function hunkFor(operations: LineOperation[], first: number, last: number): PatchHunk {
  let oldLineNumber = 1;
  let newLineNumber = 1;
  for (const operation of operations.slice(0, first)) {
    if (operation.kind !== "+") oldLineNumber += 1;
    if (operation.kind !== "-") newLineNumber += 1;
  }
  const lines: string[] = [];
  let oldLines = 0;
  let newLines = 0;
  for (const operation of operations.slice(first, last + 1)) {
    if (operation.kind !== "+") oldLines += 1;
    if (operation.kind !== "-") newLines += 1;
    const hasNewline = operation.line.endsWith("\n");
    lines.push(operation.kind + (hasNewline ? operation.line.slice(0, -1) : operation.line));
    if (!hasNewline) lines.push(NO_NEWLINE_MARKER);
  }
  return {
    // Unified-diff convention (and the `diff` package's): an empty side starts one line earlier.
    oldStart: oldLines === 0 ? oldLineNumber - 1 : oldLineNumber,
    oldLines,
    newStart: newLines === 0 ? newLineNumber - 1 : newLineNumber,
    newLines,
    lines,
  };
}
