import { MAX_COLLECTED_LINES } from "./text-search.js";
import type { FileMatches, SearchedLine, TextSearchRequest } from "./text-search.js";

/** How many lines the whole search has kept, shared by every file's search; `stopped` once that is enough. */
export interface SearchBudget {
  collectedLines: number;
  stopped: boolean;
}

/**
 * Keeps what one file contributes: matching lines, the context around them (each line once),
 * and the count. `add` returns false when reading can stop (first match in files mode, or the
 * global budget is spent).
 */
export class LineCollector {
  private lineNumber = 0;
  private matchingLines = 0;
  private readonly lines: SearchedLine[] = [];
  private readonly before: SearchedLine[] = [];
  private afterRemaining = 0;

  constructor(
    private readonly absolutePath: string,
    private readonly regex: RegExp,
    private readonly request: TextSearchRequest,
    private readonly budget: SearchBudget,
  ) {}

  add(rawLine: string): boolean {
    this.lineNumber += 1;
    const text = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    this.regex.lastIndex = 0;
    const isMatch = this.regex.test(text);
    if (isMatch) this.matchingLines += 1;
    if (this.request.mode === "files_with_matches") return !isMatch;
    if (this.request.mode === "count") return true;
    if (isMatch) {
      this.keep(...this.before.splice(0));
      this.keep(...this.matchLines(text));
      this.afterRemaining = this.request.contextAfter;
    } else if (this.afterRemaining > 0) {
      this.afterRemaining -= 1;
      this.keep({ lineNumber: this.lineNumber, text, isMatch: false });
    } else if (this.request.contextBefore > 0) {
      this.before.push({ lineNumber: this.lineNumber, text, isMatch: false });
      if (this.before.length > this.request.contextBefore) this.before.shift();
    }
    return !this.budget.stopped;
  }

  result(): FileMatches | undefined {
    return this.matchingLines === 0 ? undefined : { absolutePath: this.absolutePath, matchingLines: this.matchingLines, lines: this.lines };
  }

  private matchLines(text: string): SearchedLine[] {
    if (!this.request.onlyMatching) return [{ lineNumber: this.lineNumber, text, isMatch: true }];
    // matchAll starts where the shared regex's lastIndex points, which test() just moved.
    this.regex.lastIndex = 0;
    return [...text.matchAll(this.regex)]
      .filter((match) => match[0] !== "")
      .map((match) => ({ lineNumber: this.lineNumber, text: match[0], isMatch: true }));
  }

  private keep(...lines: SearchedLine[]): void {
    this.lines.push(...lines);
    this.budget.collectedLines += lines.length;
    if (this.budget.collectedLines >= MAX_COLLECTED_LINES) this.budget.stopped = true;
  }
}
