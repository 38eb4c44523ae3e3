import { visibleLength } from "../render/style.js";

/** The transient part at the bottom of the screen: a status line during a turn, the input area between turns. */
export type BottomView =
  | { kind: "status"; text: string; startedAt: number }
  | { kind: "input"; lines: string[]; cursorRow: number; cursorColumn: number };

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPINNER_INTERVAL_MS = 100;

/**
 * The one writer of the terminal (the seed design's lesson: two writers, a spinner and streamed
 * text, overwrite each other). Lines that stay — rendered events, streamed text — are written
 * above a transient bottom view (the spinner's status line or the input area), which is erased
 * and redrawn around every write, in the same `write` call, so it never flickers or interleaves.
 * Streamed text that has not ended its line yet is a preview above the bottom view, redrawn as it
 * grows and replaced by the finished, formatted line: a line is never broken mid-word by the
 * terminal, and markdown is formatted once its line is whole. On a terminal without cursor
 * control (`fancy` false) nothing is redrawn: lines are printed as they come, with no spinner and
 * no preview, and the input is the terminal's own line editing.
 */
export class Screen {
  private bottom: BottomView | undefined;
  /** Rows the drawn bottom view takes, and the row of the cursor within them. */
  private drawnRows = 0;
  private drawnCursorRow = 0;
  private previewLines: string[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly out: { write(text: string): unknown; columns?: number },
    readonly fancy: boolean,
    private readonly dim: (text: string) => string = (text) => text,
  ) {}

  /** Lines that stay on the screen. */
  print(lines: string[]): void {
    if (lines.length === 0) return;
    this.out.write(`${this.erase()}${lines.join("\n")}\n${this.draw()}`);
  }

  /**
   * The unfinished streamed line, already wrapped to fewer columns than the terminal has, shown
   * until the next `preview` or `print` replaces it; an empty list removes it.
   */
  preview(lines: string[]): void {
    if (!this.fancy) return;
    const erased = this.erase();
    this.previewLines = lines;
    this.out.write(erased + this.draw());
  }

  /** Shows (or, undefined, removes) the bottom view. */
  setBottom(view: BottomView | undefined): void {
    this.stopSpinner();
    if (!this.fancy) {
      this.bottom = view;
      return;
    }
    const erased = this.erase();
    this.bottom = view;
    this.out.write(erased + this.draw());
    if (view?.kind === "status") this.timer = setInterval(() => this.tick(), SPINNER_INTERVAL_MS);
  }

  /** Erases the bottom view for good (exit). */
  close(): void {
    this.stopSpinner();
    this.out.write(this.fancy ? this.erase() : "");
    this.bottom = undefined;
    this.previewLines = [];
  }

  private tick(): void {
    if (this.bottom?.kind !== "status") return;
    this.out.write(this.erase() + this.draw());
  }

  private stopSpinner(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private get columns(): number {
    return this.out.columns && this.out.columns > 0 ? this.out.columns : 80;
  }

  /** The escape codes that remove the drawn bottom view, leaving the cursor where it began. */
  private erase(): string {
    if (!this.fancy || this.drawnRows === 0) return "";
    const up = this.drawnCursorRow > 0 ? `\u001b[${this.drawnCursorRow}A` : "";
    this.drawnRows = 0;
    this.drawnCursorRow = 0;
    return `${up}\r\u001b[J`;
  }

  /** The preview and the bottom view, and the cursor placed in the view. */
  private draw(): string {
    const view = this.bottom;
    if (!this.fancy || (!view && this.previewLines.length === 0)) return "";
    const columns = this.columns;
    const rowsOf = (line: string) => Math.max(1, Math.ceil(visibleLength(line) / columns));
    const preview = this.previewLines;
    const previewRows = preview.reduce((sum, line) => sum + rowsOf(line), 0);
    const above = preview.length > 0 ? `${preview.join("\n")}${view ? "\n" : ""}` : "";
    if (!view) {
      // The cursor stays at the end of the preview's last row.
      this.drawnRows = previewRows;
      this.drawnCursorRow = previewRows - 1;
      return above;
    }
    if (view.kind === "status") {
      const seconds = Math.floor((Date.now() - view.startedAt) / 1000);
      const frame = SPINNER[Math.floor(Date.now() / SPINNER_INTERVAL_MS) % SPINNER.length]!;
      const line = clipTo(`${frame} ${view.text} (${seconds} s · esc to interrupt)`, columns - 1);
      this.drawnRows = previewRows + 1;
      this.drawnCursorRow = previewRows;
      return `${above}${this.dim(line)}\r`;
    }
    const rows = view.lines.map(rowsOf);
    this.drawnRows = previewRows + rows.reduce((sum, count) => sum + count, 0);
    const before = rows.slice(0, view.cursorRow).reduce((sum, count) => sum + count, 0);
    const cursorRow = previewRows + before + Math.floor(view.cursorColumn / columns);
    const lastRow = this.drawnRows - 1;
    this.drawnCursorRow = cursorRow;
    const up = lastRow > cursorRow ? `\u001b[${lastRow - cursorRow}A` : "";
    return `${above}${view.lines.join("\n")}${up}\u001b[${(view.cursorColumn % columns) + 1}G`;
  }
}

function clipTo(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(1, width - 1))}…` : text;
}
