/**
 * Whether a sed script only prints, read with GNU sed's grammar (4.x). GNU sed differs from POSIX
 * where it matters: a label ends at whitespace, `;` or `}` and the next command may follow at once
 * (`:a e CMD`, `b end w FILE` run `e` and `w`); `a`, `i` and `c` take their text to the end of the
 * line; `#` after a command starts a comment. Allowed are addresses and the commands that work on
 * sed's own buffers; refused is everything that reads or writes a file or runs a program — `e`,
 * `r`, `R`, `w`, `W`, the `e` and `w` flags of `s` — and the rarely used `F` and `v`.
 *
 * When this reader and sed could disagree on where something ends, the reader ends it earlier, so
 * it checks at least every command sed will run: labels are limited to plain characters; a
 * regular expression ends at the first unescaped delimiter even inside `[…]` (GNU sed would read
 * on, so such scripts are refused rather than misread).
 */

/** Commands without an argument that touch only the pattern and hold spaces or stdout. */
const BUFFER_COMMANDS = "pP=dDnNgGhHxz";
/** Commands that take an optional number: exit codes of `q`/`Q`, the line length of `l`. */
const NUMBER_COMMANDS = "qQl";
const TEXT_COMMANDS = "aic";
const BRANCH_COMMANDS = "btT";
/** Flags of `s` that only change matching or printing (`e` and `w` are left out). */
const SAFE_SUBSTITUTE_FLAGS = /^[gpiImM0-9]*$/;
/** Characters a label may have here; GNU sed takes more, which this reader refuses instead. */
const LABEL_CHARACTER = /[A-Za-z0-9_.-]/;

/**
 * Contract: pure; true only for scripts this reader understands completely. Several `-e`
 * scripts must be joined with newlines first, as sed joins them.
 */
export function isPrintOnlySedScript(script: string): boolean {
  try {
    new ScriptReader(script).readScript();
    return true;
  } catch (error) {
    if (error instanceof NotPrintOnly) return false;
    throw error;
  }
}

class NotPrintOnly extends Error {}

class ScriptReader {
  private index = 0;
  private blockDepth = 0;

  constructor(private readonly script: string) {}

  readScript(): void {
    for (;;) {
      this.skip(/[\s;]/);
      if (this.index >= this.script.length) break;
      if (this.peek() === "}") {
        if (--this.blockDepth < 0) this.fail();
        this.index++;
        continue;
      }
      this.readAddresses();
      this.readCommand();
    }
    if (this.blockDepth !== 0) this.fail();
  }

  private readAddresses(): void {
    if (!this.readAddress()) return;
    this.skip(/[ \t]/);
    if (this.peek() === ",") {
      this.index++;
      this.skip(/[ \t]/);
      if (/[+~]/.test(this.peek())) {
        this.index++;
        this.readDigits();
      } else if (!this.readAddress()) this.fail();
    }
    this.skip(/[ \t]/);
    if (this.peek() === "!") {
      this.index++;
      this.skip(/[ \t]/);
    }
  }

  /** `12`, `1~2`, `$`, `/re/I`, `\%re%`; false if there is none here. */
  private readAddress(): boolean {
    const character = this.peek();
    if (/[0-9]/.test(character)) {
      this.readDigits();
      if (this.peek() === "~") {
        this.index++;
        this.readDigits();
      }
      return true;
    }
    if (character === "$") {
      this.index++;
      return true;
    }
    if (character === "/" || character === "\\") {
      if (character === "\\") this.index++;
      this.readDelimited(this.readDelimiter());
      while (/[IM]/.test(this.peek())) this.index++;
      return true;
    }
    return false;
  }

  private readCommand(): void {
    const command = this.take();
    if (command === "{") {
      this.blockDepth++;
      return;
    }
    if (command === ":" || BRANCH_COMMANDS.includes(command)) return this.readLabel(command === ":");
    if (TEXT_COMMANDS.includes(command)) return this.readText();
    if (command === "#") return this.skipComment();
    if (NUMBER_COMMANDS.includes(command)) {
      this.skip(/[ \t]/);
      if (/[0-9]/.test(this.peek())) this.readDigits();
    } else if (command === "s") {
      const delimiter = this.readDelimiter();
      this.readDelimited(delimiter);
      this.readDelimited(delimiter);
      const flags = /^[^\s;}#]*/.exec(this.script.slice(this.index))![0];
      if (!SAFE_SUBSTITUTE_FLAGS.test(flags)) this.fail();
      this.index += flags.length;
    } else if (command === "y") {
      const delimiter = this.readDelimiter();
      this.readDelimited(delimiter);
      this.readDelimited(delimiter);
    } else if (!BUFFER_COMMANDS.includes(command)) this.fail();
    this.readCommandEnd();
  }

  /** After a command: blanks, then the end, `;`, a newline, `}` or a comment. */
  private readCommandEnd(): void {
    this.skip(/[ \t]/);
    if (this.peek() === "#") return this.skipComment();
    if (this.index < this.script.length && !/[;\n}]/.test(this.peek())) this.fail();
  }

  /**
   * `:label`, `b [label]`: GNU sed ends the label at whitespace, `;` or `}`, and what follows a
   * blank is the next command (no `;` needed), so the loop in readScript reads it as one.
   */
  private readLabel(required: boolean): void {
    this.skip(/[ \t]/);
    const start = this.index;
    this.skip(LABEL_CHARACTER);
    if (required && this.index === start) this.fail();
    if (this.index < this.script.length && !/[\s;}]/.test(this.peek())) this.fail();
  }

  /**
   * The text of `a`, `i`, `c`: the one-line form (`a text`) and the classic one (`a\` and the text
   * on the next lines) both run to the first newline not escaped by a backslash. Only printed.
   */
  private readText(): void {
    this.skip(/[ \t]/);
    if (this.peek() === "\\") {
      this.index++;
      if (this.peek() === "\n") this.index++;
    }
    while (this.index < this.script.length) {
      const character = this.take();
      if (character === "\\") this.index++;
      else if (character === "\n") return;
    }
  }

  private skipComment(): void {
    this.skip(/[^\n]/);
  }

  /** The delimiter of `s`, `y` or `\cREc`: any character but a newline or a backslash. */
  private readDelimiter(): string {
    const delimiter = this.take();
    if (delimiter === "\n" || delimiter === "\\") this.fail();
    return delimiter;
  }

  /** Text up to an unescaped `delimiter`, which is consumed; a raw newline ends nothing and fails. */
  private readDelimited(delimiter: string): void {
    while (this.index < this.script.length) {
      const character = this.take();
      if (character === "\\") this.index++;
      else if (character === delimiter) return;
      else if (character === "\n") this.fail();
    }
    this.fail();
  }

  private readDigits(): void {
    if (!/[0-9]/.test(this.peek())) this.fail();
    this.skip(/[0-9]/);
  }

  private skip(pattern: RegExp): void {
    while (this.index < this.script.length && pattern.test(this.script[this.index]!)) this.index++;
  }

  private peek(): string {
    return this.script[this.index] ?? "";
  }

  private take(): string {
    if (this.index >= this.script.length) this.fail();
    return this.script[this.index++]!;
  }

  private fail(): never {
    throw new NotPrintOnly("not a print-only sed script");
  }
}
