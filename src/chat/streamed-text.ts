import { renderMarkdown } from "../render/markdown.js";
import type { Style } from "../render/style.js";

/**
 * One streamed answer, as the chat shows it: whole lines formatted as `agentwire render` formats
 * an answer (markdown, word-wrapped), the unfinished last line as a preview that is formatted the
 * same way each time it grows. A line is final once its newline has arrived; a fence opened on an
 * earlier line keeps the following ones code. Pure: the chat decides where the lines go.
 */
export class StreamedText {
  private readonly whole: string[] = [];
  private partial = "";
  private shown = 0;

  constructor(
    private readonly width: number,
    private readonly style: Style,
  ) {}

  /** Adds a delta; returns the formatted lines that became final, and the preview of the rest. */
  add(delta: string): { final: string[]; preview: string[] } {
    const pieces = (this.partial + delta).split("\n");
    this.partial = pieces.pop()!;
    this.whole.push(...pieces);
    return { final: pieces.length > 0 ? this.takeFinal() : [], preview: this.preview() };
  }

  /** The end of the answer: what was not final yet, formatted. */
  finish(): string[] {
    if (this.partial !== "") this.whole.push(this.partial);
    this.partial = "";
    return this.takeFinal();
  }

  private takeFinal(): string[] {
    const rendered = this.format(this.whole);
    const fresh = rendered.slice(this.shown);
    this.shown = rendered.length;
    return fresh;
  }

  /** The partial line formatted in the context of the whole lines before it (inside a fence or not). */
  private preview(): string[] {
    if (this.partial === "") return [];
    return this.format([...this.whole, this.partial]).slice(this.shown);
  }

  private format(lines: string[]): string[] {
    return lines.length === 0 ? [] : renderMarkdown(lines.join("\n"), this.width, this.style);
  }
}
