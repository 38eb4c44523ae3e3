import { visibleLength } from "../render/style.js";

/** The transient part at the bottom of the screen: a status line during a turn, the input area between turns. */
export type BottomView = { kind: "status"; text: string; startedAt: number } | { kind: "input"; lines: string[]; cursorRow: number; cursorColumn: number };

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPINNER_INTERVAL_MS = 100;

/**
 * The one writer of the terminal (the seed design's lesson: two writers, a spinner and streamed
 * text, overwrite each other). Lines that stay — rendered events, streamed text — are written
 * above a transient bottom view (the spinner's status line or the input area), which is erased
 * and redrawn around every write, in the same `write` call, so it never flickers or interleaves.
 * While streamed text has an unfinished line, the bottom view waits below it until the line ends.
 * On a terminal without cursor control (`fancy` false) nothing is redrawn: lines are printed as
 * they come, with no spinner, and the input is the terminal's own line editing.
 */
export class Screen {
  private bottom: BottomView | undefined;
  /** Rows the drawn bottom view takes, and the row of the cursor within them. */
  private drawnRows = 0;
  private drawnCursorRow = 0;
  private openLine = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly out: { write(text: string): unknown; columns?: number },
    readonly fancy: boolean,
    private readonly dim: (text: string) => string = (text) => text,
  ) {}

  /** Lines that stay on the screen. */
  print(lines: string[]): void {
    if (lines.length === 0) return;
    let text = this.erase();
    if (this.openLine) text += "\n";
    this.openLine = false;
    text += `${lines.join("\n")}\n`;
    this.out.write(text + this.draw());
  }

  /** Streamed text, as it arrives. */
  stream(text: string): void {
    if (text === "") return;
    const erased = this.openLine ? "" : this.erase();
    this.openLine = !text.endsWith("\n");
    this.out.write(erased + text + (this.openLine ? "" : this.draw()));
  }

  /** Ends streamed text with a line break if it has none. */
  endStream(): void {
    if (!this.openLine) return;
    this.openLine = false;
    this.out.write(`\n${this.draw()}`);
  }

  /** Shows (or, undefined, removes) the bottom view. */
  setBottom(view: BottomView | undefined): void {
    this.stopSpinner();
    if (!this.fancy) {
      this.bottom = view;
      return;
    }
    const erased = this.openLine ? "" : this.erase();
    this.bottom = view;
    this.out.write(erased + (this.openLine ? "" : this.draw()));
    if (view?.kind === "status") this.timer = setInterval(() => this.tick(), SPINNER_INTERVAL_MS);
  }

  /** Erases the bottom view for good (exit). */
  close(): void {
    this.stopSpinner();
    const erased = this.fancy && !this.openLine ? this.erase() : "";
    this.out.write(erased + (this.openLine ? "\n" : ""));
    this.bottom = undefined;
    this.openLine = false;
  }

  private tick(): void {
    if (this.openLine || this.bottom?.kind !== "status") return;
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

  /** The bottom view, and the cursor placed in it. */
  private draw(): string {
    const view = this.bottom;
    if (!this.fancy || !view) return "";
    const columns = this.columns;
    const rowsOf = (line: string) => Math.max(1, Math.ceil(visibleLength(line) / columns));
    if (view.kind === "status") {
      const seconds = Math.floor((Date.now() - view.startedAt) / 1000);
      const frame = SPINNER[Math.floor(Date.now() / SPINNER_INTERVAL_MS) % SPINNER.length]!;
      const line = clipTo(`${frame} ${view.text} (${seconds} s · esc to interrupt)`, columns - 1);
      this.drawnRows = 1;
      this.drawnCursorRow = 0;
      return `${this.dim(line)}\r`;
    }
    const rows = view.lines.map(rowsOf);
    this.drawnRows = rows.reduce((sum, count) => sum + count, 0);
    const before = rows.slice(0, view.cursorRow).reduce((sum, count) => sum + count, 0);
    const cursorRow = before + Math.floor(view.cursorColumn / columns);
    const lastRow = this.drawnRows - 1;
    this.drawnCursorRow = cursorRow;
    const up = lastRow > cursorRow ? `\u001b[${lastRow - cursorRow}A` : "";
    return `${view.lines.join("\n")}${up}\u001b[${(view.cursorColumn % columns) + 1}G`;
  }
}

function clipTo(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(1, width - 1))}…` : text;
}
