/**
 * Where an Edit's old_string most likely is when it does not occur exactly. Two careful steps:
 *
 * 1. Whitespace drift: the same tokens (words and punctuation) with different whitespace
 *    between them — tabs for spaces, re-indented blocks, `a,b` for `a, b`, wrapped lines.
 * 2. Near match: whole-line windows of the file whose whitespace-normalized text is at least
 *    ACCEPT_SIMILARITY similar to old_string's, scored by diff-match-patch's Levenshtein distance.
 *
 * Either step yields a match only when exactly one place qualifies; two or more is `ambiguous`,
 * because guessing between them could change the wrong code.
 */

/** Fraction of characters (after whitespace normalization) that must agree for a near match. */
const ACCEPT_SIMILARITY = 0.9;
/** Below this a window is not even worth reporting as "the closest text". */
const REPORT_FLOOR = 0.5;
/** Near-match search is quadratic-ish; past this size only the whitespace step runs. */
const MAX_NEAR_MATCH_FILE_CHARACTERS = 2_000_000;
/** At most this many candidates are listed in an ambiguity message. */
const MAX_LISTED_CANDIDATES = 5;

export interface MatchCandidate {
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** 0–1, after whitespace normalization (1 for a whitespace-drift match). */
  similarity: number;
}

export type FuzzyMatch =
  /** Character offsets into the searched text; `end` is exclusive. */
  | ({ kind: "whitespace" | "similar"; start: number; end: number } & MatchCandidate)
  | { kind: "ambiguous"; candidates: MatchCandidate[] }
  | { kind: "none"; nearest: MatchCandidate | undefined };

/**
 * Contract: pure apart from loading diff-match-patch on first use; never throws. `content` and
 * `oldString` must use the same line endings (the caller normalizes both to LF).
 */
export async function findFuzzyMatch(content: string, oldString: string): Promise<FuzzyMatch> {
  const whitespaceMatches = whitespaceInsensitiveMatches(content, oldString);
  if (whitespaceMatches.length === 1) {
    const [match] = whitespaceMatches as [{ start: number; end: number }];
    return { kind: "whitespace", ...match, ...lineRange(content, match.start, match.end), similarity: 1 };
  }
  if (whitespaceMatches.length > 1) {
    const candidates = whitespaceMatches.map((match) => ({ ...lineRange(content, match.start, match.end), similarity: 1 }));
    return { kind: "ambiguous", candidates: candidates.slice(0, MAX_LISTED_CANDIDATES) };
  }
  if (content.length > MAX_NEAR_MATCH_FILE_CHARACTERS) return { kind: "none", nearest: undefined };
  return nearMatch(content, oldString);
}

function whitespaceInsensitiveMatches(content: string, oldString: string): Array<{ start: number; end: number }> {
  const tokens = oldString.match(/\w+|[^\s\w]/g);
  if (tokens === null) return [];
  let source = "";
  tokens.forEach((token, index) => {
    if (index > 0) {
      // Two words were necessarily separated by whitespace in old_string, so they must be here
      // too (`return x` must not match `returnx`); elsewhere whitespace may appear or vanish.
      const betweenWords = /\w$/.test(tokens[index - 1]!) && /^\w/.test(token);
      source += betweenWords ? "\\s+" : "\\s*";
    }
    source += token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  });
  return [...content.matchAll(new RegExp(source, "g"))].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
}

async function nearMatch(content: string, oldString: string): Promise<FuzzyMatch> {
  const { default: DiffMatchPatch } = await import("diff-match-patch");
  const differ = new DiffMatchPatch();
  // Windows are short; a slow diff means the texts are very different anyway.
  differ.Diff_Timeout = 0.05;

  const fileLines = content.split("\n");
  const normalizedFileLines = fileLines.map(normalizeLine);
  const oldLines = trimBlankEdgeLines(oldString.split("\n")).map(normalizeLine);
  const normalizedOld = oldLines.join("\n");
  if (normalizedOld.length === 0) return { kind: "none", nearest: undefined };
  const oldHistogram = characterHistogram(normalizedOld);

  const candidates: MatchCandidate[] = [];
  // One line more or fewer covers a dropped or added blank line.
  const windowSizes = [...new Set([oldLines.length, oldLines.length - 1, oldLines.length + 1])].filter((size) => size >= 1);
  for (const size of windowSizes) {
    for (let startIndex = 0; startIndex + size <= fileLines.length; startIndex += 1) {
      const windowText = normalizedFileLines.slice(startIndex, startIndex + size).join("\n");
      const longer = Math.max(windowText.length, normalizedOld.length);
      if (longer === 0) continue;
      // Cheap upper bounds first: the edit distance is at least the length difference and at
      // least half the character-count difference, so most windows never reach the real diff.
      const lowerBoundDistance = Math.max(
        Math.abs(windowText.length - normalizedOld.length),
        histogramDistance(oldHistogram, windowText) / 2,
      );
      if (1 - lowerBoundDistance / longer < REPORT_FLOOR) continue;
      const distance = differ.diff_levenshtein(differ.diff_main(normalizedOld, windowText, false));
      const similarity = 1 - distance / longer;
      if (similarity >= REPORT_FLOOR) candidates.push({ startLine: startIndex + 1, endLine: startIndex + size, similarity });
    }
  }
  candidates.sort((left, right) => right.similarity - left.similarity || left.startLine - right.startLine);
  const best = candidates[0];
  if (best === undefined || best.similarity < ACCEPT_SIMILARITY) return { kind: "none", nearest: best };

  const rivals = candidates.filter((candidate) => candidate.similarity >= ACCEPT_SIMILARITY && !overlaps(candidate, best));
  if (rivals.length > 0) {
    return { kind: "ambiguous", candidates: [best, ...distinctPlaces(rivals)].slice(0, MAX_LISTED_CANDIDATES) };
  }
  const start = offsetOfLine(fileLines, best.startLine);
  const end = offsetOfLine(fileLines, best.endLine) + fileLines[best.endLine - 1]!.length;
  return { kind: "similar", start, end, ...best };
}

/** Trimmed, with inner whitespace runs collapsed: indentation and spacing do not count. */
function normalizeLine(line: string): string {
  return line.trim().replace(/\s+/g, " ");
}

function trimBlankEdgeLines(lines: string[]): string[] {
  let first = 0;
  let last = lines.length;
  while (first < last && lines[first]!.trim() === "") first += 1;
  while (last > first && lines[last - 1]!.trim() === "") last -= 1;
  return lines.slice(first, last);
}

function characterHistogram(text: string): Map<number, number> {
  const histogram = new Map<number, number>();
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    histogram.set(code, (histogram.get(code) ?? 0) + 1);
  }
  return histogram;
}

function histogramDistance(reference: Map<number, number>, text: string): number {
  const histogram = characterHistogram(text);
  let distance = 0;
  for (const [code, count] of reference) distance += Math.abs(count - (histogram.get(code) ?? 0));
  for (const [code, count] of histogram) if (!reference.has(code)) distance += count;
  return distance;
}

function overlaps(left: MatchCandidate, right: MatchCandidate): boolean {
  return left.startLine <= right.endLine && right.startLine <= left.endLine;
}

/** Keeps the best candidate of each group of overlapping ones (input sorted best first). */
function distinctPlaces(candidates: MatchCandidate[]): MatchCandidate[] {
  const kept: MatchCandidate[] = [];
  for (const candidate of candidates) if (!kept.some((other) => overlaps(other, candidate))) kept.push(candidate);
  return kept;
}

function offsetOfLine(lines: string[], lineNumber: number): number {
  let offset = 0;
  for (let index = 0; index < lineNumber - 1; index += 1) offset += lines[index]!.length + 1;
  return offset;
}

/** 1-based line numbers of the first and last character of `[start, end)`. */
export function lineRange(content: string, start: number, end: number): { startLine: number; endLine: number } {
  const startLine = countNewlines(content, 0, start) + 1;
  return { startLine, endLine: startLine + countNewlines(content, start, Math.max(start, end - 1)) };
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = text.indexOf("\n", from); index !== -1 && index < to; index = text.indexOf("\n", index + 1)) count += 1;
  return count;
}
