import { completeCommand } from "./slash-commands.js";

/** A key as node:readline's emitKeypressEvents reports it. */
export interface Key {
  name?: string;
  sequence?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

/** What a key asks the chat to do, besides editing the line. */
export type EditorAction =
  | { type: "none" }
  | { type: "submit"; text: string; shown: string }
  | { type: "interrupt" } // Esc
  | { type: "cancel" } // Ctrl+C
  | { type: "eof" }; // Ctrl+D on an empty line

/** A paste of more lines or characters than this is one placeholder in the line, expanded on submit. */
export const PASTE_PLACEHOLDER_LINES = 10;
export const PASTE_PLACEHOLDER_CHARS = 1000;

/**
 * The chat's line editor, as a state machine without I/O (the chat draws `text` and `cursor`):
 * insertion and deletion, word and line motions (Emacs keys, as readline has them), history on
 * Up/Down, Tab completion of slash commands, multi-line input (a trailing backslash, Alt+Enter
 * or Ctrl+J start a new line), and bracketed paste: a paste never submits, and a large one is
 * shown as `[Pasted text #1 +200 lines]` and sent whole.
 */
export class LineEditor {
  text = "";
  /** Offset into `text`. */
  cursor = 0;
  private history: string[];
  private historyIndex: number;
  private draft = "";
  private pasting: string | undefined;
  private pastes = new Map<string, string>();
  private pasteCount = 0;

  constructor(
    history: string[] = [],
    private readonly completionExtras: () => readonly string[] = () => [],
  ) {
    this.history = [...history];
    this.historyIndex = this.history.length;
  }

  /** Adds a submitted entry to the in-memory history (the chat persists it). */
  remember(entry: string): void {
    if (entry.trim() !== "" && this.history.at(-1) !== entry) this.history.push(entry);
    this.historyIndex = this.history.length;
  }

  handle(character: string | undefined, key: Key): EditorAction {
    if (key.name === "paste-start") {
      this.pasting = "";
      return { type: "none" };
    }
    if (key.name === "paste-end") {
      const pasted = (this.pasting ?? "").replace(/\r\n?/g, "\n");
      this.pasting = undefined;
      this.insertPaste(pasted);
      return { type: "none" };
    }
    if (this.pasting !== undefined) {
      this.pasting += character ?? key.sequence ?? "";
      return { type: "none" };
    }
    if (key.ctrl) return this.control(key.name);
    if (key.meta && (key.name === "return" || key.name === "enter")) return this.insert("\n");
    switch (key.name) {
      case "return":
        return this.submit();
      case "enter": // Ctrl+J
        return this.insert("\n");
      case "escape":
        return { type: "interrupt" };
      case "backspace":
        if (key.meta) return this.deleteWordBack();
        if (this.cursor > 0) this.splice(this.cursor - 1, this.cursor, "");
        return { type: "none" };
      case "delete":
        if (this.cursor < this.text.length) this.splice(this.cursor, this.cursor + 1, "");
        return { type: "none" };
      case "left":
        this.cursor = Math.max(0, this.cursor - 1);
        return { type: "none" };
      case "right":
        this.cursor = Math.min(this.text.length, this.cursor + 1);
        return { type: "none" };
      case "home":
        this.cursor = this.lineStart();
        return { type: "none" };
      case "end":
        this.cursor = this.lineEnd();
        return { type: "none" };
      case "up":
        return this.verticalMove(-1);
      case "down":
        return this.verticalMove(1);
      case "tab": {
        const completed = completeCommand(this.text, this.completionExtras());
        if (completed !== undefined) this.set(completed);
        return { type: "none" };
      }
      default:
        if (character !== undefined && character >= " " && !key.meta) return this.insert(character);
        return { type: "none" };
    }
  }

  private control(name: string | undefined): EditorAction {
    switch (name) {
      case "c":
        return { type: "cancel" };
      case "d":
        if (this.text === "") return { type: "eof" };
        if (this.cursor < this.text.length) this.splice(this.cursor, this.cursor + 1, "");
        return { type: "none" };
      case "a":
        this.cursor = this.lineStart();
        break;
      case "e":
        this.cursor = this.lineEnd();
        break;
      case "b":
        this.cursor = Math.max(0, this.cursor - 1);
        break;
      case "f":
        this.cursor = Math.min(this.text.length, this.cursor + 1);
        break;
      case "u":
        this.splice(this.lineStart(), this.cursor, "");
        break;
      case "k":
        this.splice(this.cursor, this.lineEnd(), "");
        break;
      case "w":
        return this.deleteWordBack();
      case "j":
        return this.insert("\n");
      case "p":
        return this.verticalMove(-1);
      case "n":
        return this.verticalMove(1);
      default:
        break;
    }
    return { type: "none" };
  }

  private submit(): EditorAction {
    // A backslash before Enter continues the input on a new line.
    if (this.text.slice(0, this.cursor).endsWith("\\")) {
      this.splice(this.cursor - 1, this.cursor, "\n");
      return { type: "none" };
    }
    const shown = this.text;
    let text = shown;
    for (const [placeholder, content] of this.pastes) text = text.split(placeholder).join(content);
    this.pastes.clear();
    this.set("");
    this.draft = "";
    return { type: "submit", text, shown };
  }

  private insertPaste(pasted: string): void {
    const lines = pasted.split("\n").length;
    if (lines <= PASTE_PLACEHOLDER_LINES && pasted.length <= PASTE_PLACEHOLDER_CHARS) {
      this.insert(pasted);
      return;
    }
    this.pasteCount++;
    const placeholder = `[Pasted text #${this.pasteCount} +${lines} lines]`;
    this.pastes.set(placeholder, pasted);
    this.insert(placeholder);
  }

  /** Up/Down: between the lines of a multi-line input, else through the history. */
  private verticalMove(direction: -1 | 1): EditorAction {
    const before = this.text.slice(0, this.cursor);
    const row = before.split("\n").length - 1;
    const rows = this.text.split("\n").length;
    if ((direction < 0 && row > 0) || (direction > 0 && row < rows - 1)) {
      const column = this.cursor - this.lineStart();
      const lines = this.text.split("\n");
      const target = row + direction;
      const start = lines.slice(0, target).reduce((sum, line) => sum + line.length + 1, 0);
      this.cursor = start + Math.min(column, lines[target]!.length);
      return { type: "none" };
    }
    const next = this.historyIndex + direction;
    if (next < 0 || next > this.history.length) return { type: "none" };
    if (this.historyIndex === this.history.length) this.draft = this.text;
    this.historyIndex = next;
    this.set(next === this.history.length ? this.draft : this.history[next]!);
    return { type: "none" };
  }

  private deleteWordBack(): EditorAction {
    const before = this.text.slice(0, this.cursor);
    const start = before.replace(/\S+\s*$/, "").length;
    this.splice(start === before.length ? Math.max(0, before.length - 1) : start, this.cursor, "");
    return { type: "none" };
  }

  private insert(text: string): EditorAction {
    this.splice(this.cursor, this.cursor, text);
    return { type: "none" };
  }

  private splice(from: number, to: number, text: string): void {
    this.text = this.text.slice(0, from) + text + this.text.slice(to);
    this.cursor = from + text.length;
  }

  private set(text: string): void {
    this.text = text;
    this.cursor = text.length;
  }

  private lineStart(): number {
    return this.text.lastIndexOf("\n", this.cursor - 1) + 1;
  }

  private lineEnd(): number {
    const end = this.text.indexOf("\n", this.cursor);
    return end === -1 ? this.text.length : end;
  }
}
