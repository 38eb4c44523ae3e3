import type { ToolErrorCode } from "../../conversation/tool-result.js";
import { findFuzzyMatch, lineRange, type MatchCandidate } from "./fuzzy-match.js";
import { REDACTION_MARKER_PREFIX } from "../redact-secrets.js";

/** One replacement, as Edit and each MultiEdit entry take it (line endings already LF). */
export interface EditInstruction {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

/** Says what an inexact match replaced, so the model (and a reviewer) can check it. */
export interface FuzzyMatchNote {
  strategy: "whitespace" | "similar";
  startLine: number;
  endLine: number;
  similarity: number;
  /** The file text that was taken as old_string. */
  matchedText: string;
}

export type EditApplication =
  | { ok: true; content: string; replacements: number; fuzzyMatch?: FuzzyMatchNote }
  | { ok: false; code: ToolErrorCode; message: string };

/**
 * Applies one replacement to LF text. Exact matches are replaced literally (no `$&` or other
 * replacement patterns: the text is sliced, never passed to `String.replace`). With no exact
 * match, `findFuzzyMatch` may find one unique place that differs only in whitespace (the new
 * text is re-indented to fit) or is nearly identical (only the spans that change from old_string
 * to new_string are replaced there, so the file's own differences survive).
 *
 * Contract: pure apart from loading diff-match-patch; never throws. Failures carry a code and a
 * message for the model that does not name the file (callers add it).
 */
export async function applyEdit(content: string, edit: EditInstruction): Promise<EditApplication> {
  const { oldString, newString, replaceAll } = edit;
  if (oldString.trim() === "") {
    return failure(
      "invalid_input",
      "old_string is empty or only whitespace, which does not identify a place in the file. Quote the text to replace (with a line or two around it), or use Write to create or replace the whole file.",
    );
  }
  if (oldString === newString) {
    return failure("invalid_input", "No changes to make: old_string and new_string are exactly the same.");
  }
  if (countOccurrences(newString, REDACTION_MARKER_PREFIX) > countOccurrences(oldString, REDACTION_MARKER_PREFIX)) {
    return failure(
      "redacted_secret",
      `new_string contains a ${REDACTION_MARKER_PREFIX}…] placeholder. agentwire shows those instead of secrets; writing one would destroy the real value. Leave the lines with secrets out of old_string and new_string.`,
    );
  }

  const positions = exactPositions(content, oldString);
  if (positions.length > 1 && !replaceAll) {
    const lines = positions.map((position) => lineRange(content, position, position + oldString.length).startLine);
    return failure(
      "edit_not_unique",
      `Found ${positions.length} matches of old_string (starting at lines ${lines.join(", ")}), but replace_all is false. ` +
        "To replace one of them, add surrounding lines to old_string until it matches only there; to replace every one, set replace_all to true.",
    );
  }
  if (positions.length > 0) {
    return { ok: true, content: replaceAt(content, positions, oldString.length, newString), replacements: positions.length };
  }
  if (replaceAll) {
    // replace_all promises every exact occurrence; approximate ones would be guesses.
    return failure("edit_no_match", `String to replace not found in file (replace_all only replaces exact matches).\nString: ${oldString}`);
  }
  return applyFuzzy(content, edit);
}

async function applyFuzzy(content: string, edit: EditInstruction): Promise<EditApplication> {
  const match = await findFuzzyMatch(content, edit.oldString);
  switch (match.kind) {
    case "none":
      return failure("edit_no_match", noMatchMessage(content, edit.oldString, match.nearest));
    case "ambiguous":
      return failure(
        "edit_ambiguous",
        "old_string does not occur exactly, and several places match it about equally well: " +
          `${match.candidates.map(describeCandidate).join("; ")}. ` +
          "Read the file and copy old_string exactly from the place you mean, with enough surrounding lines to make it unique.",
      );
    case "whitespace":
    case "similar": {
      const matchedText = content.slice(match.start, match.end);
      const replacement =
        match.kind === "whitespace"
          ? fitWhitespace(edit.newString, edit.oldString, matchedText)
          : await patchNearMatch(edit.oldString, edit.newString, matchedText);
      if (replacement === undefined) {
        return failure(
          "edit_no_match",
          `old_string does not occur exactly. ${describeCandidate(match)} come closest, but the change could not be applied there safely. ` +
            "Read those lines and copy old_string exactly.",
        );
      }
      return {
        ok: true,
        content: content.slice(0, match.start) + replacement + content.slice(match.end),
        replacements: 1,
        fuzzyMatch: {
          strategy: match.kind,
          startLine: match.startLine,
          endLine: match.endLine,
          similarity: Math.round(match.similarity * 1000) / 1000,
          matchedText,
        },
      };
    }
  }
}

function failure(code: ToolErrorCode, message: string): EditApplication {
  return { ok: false, code, message };
}

function exactPositions(content: string, search: string): number[] {
  const positions: number[] = [];
  for (let index = content.indexOf(search); index !== -1; index = content.indexOf(search, index + search.length)) {
    positions.push(index);
  }
  return positions;
}

function countOccurrences(text: string, search: string): number {
  return exactPositions(text, search).length;
}

function replaceAt(content: string, positions: number[], length: number, replacement: string): string {
  let result = "";
  let previousEnd = 0;
  for (const position of positions) {
    result += content.slice(previousEnd, position) + replacement;
    previousEnd = position + length;
  }
  return result + content.slice(previousEnd);
}

function describeCandidate(candidate: MatchCandidate): string {
  const lines =
    candidate.startLine === candidate.endLine ? `line ${candidate.startLine}` : `lines ${candidate.startLine}-${candidate.endLine}`;
  return `${lines} (${Math.round(candidate.similarity * 100)}% similar)`;
}

function noMatchMessage(content: string, oldString: string, nearest: MatchCandidate | undefined): string {
  const head = `String to replace not found in file.\nString: ${oldString}`;
  if (nearest === undefined) return `${head}\nNothing in the file is close to it; Read the file to see its current contents.`;
  const lines = content.split("\n").slice(nearest.startLine - 1, nearest.endLine);
  const numbered = lines.map((line, index) => `${nearest.startLine + index}\t${line}`).join("\n");
  return `${head}\nThe closest text is ${describeCandidate(nearest)}:\n${numbered}\nCopy old_string exactly from the file (without the line-number prefix), or Read the file again if it has changed.`;
}

/**
 * A whitespace-drift match covers old_string's tokens only, so the file keeps its own whitespace
 * around them: new_string loses the leading and trailing whitespace old_string had, and its
 * later lines trade old_string's indentation for the file's, line by line where they align.
 */
function fitWhitespace(newString: string, oldString: string, matchedText: string): string {
  const oldLeading = /^\s*/.exec(oldString)![0];
  const oldTrailing = /\s*$/.exec(oldString)![0];
  let body = newString.startsWith(oldLeading) ? newString.slice(oldLeading.length) : newString.trimStart();
  if (oldTrailing.length > 0 && body.endsWith(oldTrailing)) body = body.slice(0, -oldTrailing.length);

  const oldLines = oldString.slice(oldLeading.length).split("\n");
  const matchedLines = matchedText.split("\n");
  const indentationMap = new Map<string, string>();
  for (let index = 1; index < Math.min(oldLines.length, matchedLines.length); index += 1) {
    const oldIndentation = indentationOf(oldLines[index]!);
    if (!indentationMap.has(oldIndentation)) indentationMap.set(oldIndentation, indentationOf(matchedLines[index]!));
  }
  // Longest first, so a deeper indentation is not mistaken for a shallower one plus text.
  const knownIndentations = [...indentationMap.keys()].sort((left, right) => right.length - left.length);
  return body
    .split("\n")
    .map((line, index) => {
      if (index === 0) return line;
      const known = knownIndentations.find((indentation) => indentation.length > 0 && line.startsWith(indentation));
      return known === undefined ? line : indentationMap.get(known)! + line.slice(known.length);
    })
    .join("\n");
}

function indentationOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/**
 * Carries the change from old_string to new_string over to the nearly matching file text: the
 * changed spans are located in old_string, mapped into the file text through a diff-match-patch
 * alignment of the two, and replaced there. Characters where the file differs from old_string
 * outside the changed spans are kept. A span's ends are anchored to the character before it
 * ("right after `)`"), so text the file has beyond old_string's end stays after an insertion.
 * Undefined when the mapped spans would overlap or run backwards (no safe way to apply).
 */
async function patchNearMatch(oldString: string, newString: string, matchedText: string): Promise<string | undefined> {
  const { default: DiffMatchPatch } = await import("diff-match-patch");
  const differ = new DiffMatchPatch();
  const changes = differ.diff_main(oldString, newString);
  differ.diff_cleanupSemantic(changes);
  const alignment = differ.diff_main(oldString, matchedText);
  const toMatched = (oldIndex: number): number =>
    oldIndex === 0 ? differ.diff_xIndex(alignment, 0) : differ.diff_xIndex(alignment, oldIndex - 1) + 1;

  // Replacements in old_string coordinates: a deletion followed by an insertion is one.
  const replacements: Array<{ from: number; to: number; insert: string }> = [];
  let oldIndex = 0;
  for (const [operation, text] of changes) {
    if (operation === 0) {
      oldIndex += text.length;
      continue;
    }
    const previous = replacements.at(-1);
    const from = oldIndex;
    if (operation < 0) oldIndex += text.length;
    const to = oldIndex;
    if (previous !== undefined && previous.to === from) {
      previous.to = to;
      if (operation > 0) previous.insert += text;
    } else {
      replacements.push({ from, to, insert: operation > 0 ? text : "" });
    }
  }

  let result = "";
  let copiedUpTo = 0;
  for (const replacement of replacements) {
    const start = toMatched(replacement.from);
    const end = replacement.to === replacement.from ? start : toMatched(replacement.to);
    if (start < copiedUpTo || end < start) return undefined;
    result += matchedText.slice(copiedUpTo, start) + replacement.insert;
    copiedUpTo = end;
  }
  return result + matchedText.slice(copiedUpTo);
}
