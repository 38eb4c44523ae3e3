/**
 * Whether a sed script only prints: addresses plus commands that work on sed's own buffers.
 * Anything that reads or writes files or runs programs — `r`, `R`, `w`, `W`, `e`, `F`, `v`, the
 * `w`/`e` flags of `s`, and text commands (`a`, `i`, `c`) we do not parse — fails the check.
 * Regular expressions are scanned the way GNU sed scans them: a backslash escapes the next
 * character and nothing else (brackets do not hide the delimiter).
 */

/** Commands without an argument that touch only the pattern and hold spaces or stdout. */
const BUFFER_COMMANDS = "pP=dDnNgGhHxz";
/** Flags of `s` that only change matching or printing. */
const SAFE_SUBSTITUTE_FLAGS = /^[gpiImM0-9]*$/;

export function isPrintOnlySedScript(script: string): boolean {
  const reader = new ScriptReader(script);
  try {
    reader.readScript();
    return true;
  } catch {
    return false;
  }
}

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
    while (this.peek() === "!") {
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
      this.readDelimited(this.take());
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
    if (command === "q" || command === "Q" || command === "l") {
      // A number may follow: the exit code, or the line length for `l`.
      this.skip(/[ \t]/);
      if (/[0-9]/.test(this.peek())) this.readDigits();
    } else if (command === "s") {
      const delimiter = this.take();
      if (delimiter === "\n" || delimiter === "\\") this.fail();
      this.readDelimited(delimiter);
      this.readDelimited(delimiter);
      const flags = /^[^\s;}]*/.exec(this.script.slice(this.index))![0];
      if (!SAFE_SUBSTITUTE_FLAGS.test(flags)) this.fail();
      this.index += flags.length;
    } else if (command === "y") {
      const delimiter = this.take();
      if (delimiter === "\n" || delimiter === "\\") this.fail();
      this.readDelimited(delimiter);
      this.readDelimited(delimiter);
    } else if (command === ":" || command === "b" || command === "t" || command === "T") {
      // Labels run to the end of the line or a semicolon.
      this.skip(/[^;\n]/);
    } else if (command === "#") {
      this.skip(/[^\n]/);
    } else if (!BUFFER_COMMANDS.includes(command)) this.fail();
    this.skip(/[ \t]/);
    if (this.index < this.script.length && !/[;\n}]/.test(this.peek())) this.fail();
  }

  /** Text up to an unescaped `delimiter`, which is consumed. */
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
    throw new Error("not a print-only sed script");
  }
}
