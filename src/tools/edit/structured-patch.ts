import type { StructuredPatchHunk } from "diff";

/**
 * One hunk of a unified diff, in the shape Claude Code puts in `tool_use_result.structuredPatch`
 * (the `diff` package's `structuredPatch` hunks): 1-based starts, line counts, and lines prefixed
 * with " ", "-" or "+", without their line endings.
 */
export type PatchHunk = Pick<StructuredPatchHunk, "oldStart" | "oldLines" | "newStart" | "newLines" | "lines">;

/** Unchanged lines shown around each change, as in `diff -u`. */
const CONTEXT_LINES = 3;
/** A diff of huge, very different files may take long; past this the whole file counts as replaced. */
const DIFF_TIMEOUT_MS = 2_000;

/**
 * Line-level diff of two texts as unified-diff hunks, for renderers (GUIs draw them; the model
 * never sees them), computed by the `diff` package (loaded on first use: only edits need it).
 *
 * Contract: never throws; identical texts give `[]`.
 */
export async function structuredPatch(oldText: string, newText: string): Promise<PatchHunk[]> {
  if (oldText === newText) return [];
  const { structuredPatch: diff } = await import("diff");
  const patch = diff("", "", oldText, newText, undefined, undefined, { context: CONTEXT_LINES, timeout: DIFF_TIMEOUT_MS });
  if (patch)
    return patch.hunks.map(({ oldStart, oldLines, newStart, newLines, lines }) => ({ oldStart, oldLines, newStart, newLines, lines }));
  // Timed out: one hunk that replaces every line, still a correct patch.
  const oldLinesOf = oldText.split("\n");
  const newLinesOf = newText.split("\n");
  if (oldText.endsWith("\n")) oldLinesOf.pop();
  if (newText.endsWith("\n")) newLinesOf.pop();
  return [
    {
      oldStart: oldLinesOf.length === 0 ? 0 : 1,
      oldLines: oldLinesOf.length,
      newStart: newLinesOf.length === 0 ? 0 : 1,
      newLines: newLinesOf.length,
      lines: [...oldLinesOf.map((line) => `-${line}`), ...newLinesOf.map((line) => `+${line}`)],
    },
  ];
}
