import {
  substitutedCommands,
  type SegmentKind,
  type ShellHazard,
  type ShellScript,
  type ShellWord,
  type SimpleCommand,
  type WordSegment,
} from "./shell-ast.js";
import { decodeAnsiC, findAnsiQuoteEnd, findClosing } from "./shell-quoting.js";

const SIMPLE_BRACED_PARAMETER = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?#@*$!-])$/;
const SPECIAL_PARAMETER = /[0-9?#@*$!-]/;
const PARAMETER_NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
/** How deeply substitutions inside substitutions are followed before the rest counts as opaque. */
const MAX_DEPTH = 16;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
/** Characters that end an unquoted word. */
const WORD_BREAK = /[\s;&|()<>]/;

interface PendingHereDocument {
  command: SimpleCommand;
  delimiter: string;
  stripTabs: boolean;
  /** An unquoted delimiter means the body is expanded like a double-quoted string. */
  expands: boolean;
}

/** One pass over a command line (or a substitution inside one): commands, words and hazards. */
export class ShellParser {
  private readonly commands: SimpleCommand[] = [];
  private readonly hazards = new Set<ShellHazard>();
  private pipeline = 0;
  private command: SimpleCommand = emptyCommand(0);
  private segments: WordSegment[] = [];
  private wordStarted = false;
  private pendingRedirection: { fd: string | undefined; operator: string } | undefined;
  private pendingHereDocuments: PendingHereDocument[] = [];
  /** Open `(` seen inside a `$(…)` being read, so its own `)` does not end it. */
  private parenthesisDepth = 0;
  /** Set when the `)` closing the substitution this parser reads was reached. */
  closed = false;

  /**
   * @param index where to start reading.
   * @param insideSubstitution whether this reads the inside of `$(…)`, which ends at the first
   *   unbalanced `)` — found with the full rules, so quotes and here-documents inside it count.
   */
  constructor(
    private readonly source: string,
    public index = 0,
    private readonly insideSubstitution = false,
    private readonly depth = 0,
  ) {}

  parse(): ShellScript {
    while (this.index < this.source.length && !this.closed) this.step(this.source[this.index]!);
    this.endCommand("list");
    this.readHereDocuments();
    return { commands: this.commands, hazards: this.hazards };
  }

  private step(character: string): void {
    const next = this.source[this.index + 1];
    switch (character) {
      case " ":
      case "\t":
        this.finishWord();
        this.index++;
        return;
      case "\n":
        this.endCommand("list");
        this.index++;
        this.readHereDocuments();
        return;
      case "#":
        if (this.wordStarted) break;
        while (this.index < this.source.length && this.source[this.index] !== "\n") this.index++;
        return;
      case "'":
        return this.readSingleQuoted();
      case '"':
        this.index++;
        this.wordStarted = true;
        return this.readDoubleQuoted('"');
      case "\\":
        return this.readEscape();
      case "$":
        return this.readDollar("plain");
      case "`":
        return this.readBackticks(false);
      case "*":
      case "?":
        this.append("glob", character);
        this.index++;
        return;
      case "[":
      case "{":
        // Only a bracket closed within the word is a pattern or a brace expansion; `[ -f x ]` is
        // the test command and `{ ls; }` a group.
        this.append(this.closesWithinWord(character === "[" ? "]" : "}") ? "glob" : "plain", character);
        this.index++;
        return;
      case ";":
        if (next === ";" || next === "&") this.hazards.add("syntax");
        this.endCommand("list");
        this.index++;
        return;
      case "&":
        if (next === ">") return this.readRedirection();
        if (next !== "&") this.hazards.add("background");
        this.endCommand("list");
        this.index += next === "&" ? 2 : 1;
        return;
      case "|":
        this.endCommand(next === "|" ? "list" : "pipe");
        this.index += next === "|" || next === "&" ? 2 : 1;
        return;
      case ")":
        if (this.insideSubstitution && this.parenthesisDepth === 0) {
          this.endCommand("list");
          this.readHereDocuments();
          this.closed = true;
          this.index++;
          return;
        }
        this.parenthesisDepth--;
        this.hazards.add("subshell");
        this.endCommand("list");
        this.index++;
        return;
      case "(":
        this.parenthesisDepth++;
        this.hazards.add("subshell");
        this.endCommand("list");
        this.index++;
        return;
      case "<":
      case ">":
        if (next === "(") return this.readSubstitution(this.index + 1, this.index, false);
        return this.readRedirection();
    }
    this.append("plain", character);
    this.index++;
  }

  private readSingleQuoted(): void {
    const end = this.source.indexOf("'", this.index + 1);
    if (end === -1) this.hazards.add("syntax");
    const stop = end === -1 ? this.source.length : end;
    this.wordStarted = true;
    this.append("quoted", this.source.slice(this.index + 1, stop));
    this.index = stop + 1;
  }

  /** Reads up to `terminator` (or the end, for here-document bodies) with double-quote rules. */
  private readDoubleQuoted(terminator: '"' | undefined): void {
    while (this.index < this.source.length) {
      const character = this.source[this.index]!;
      if (character === terminator) {
        this.index++;
        return;
      }
      if (character === "\\") {
        const escaped = this.source[this.index + 1];
        if (escaped === "\n") this.hazards.add("continuation");
        else if (escaped !== undefined && '$`"\\'.includes(escaped)) this.append("quoted", escaped);
        else this.append("quoted", `\\${escaped ?? ""}`);
        this.index += 2;
      } else if (character === "$") this.readDollar("quoted");
      else if (character === "`") this.readBackticks(true);
      else {
        this.append("quoted", character);
        this.index++;
      }
    }
    if (terminator) this.hazards.add("syntax");
  }

  private readEscape(): void {
    const escaped = this.source[this.index + 1];
    if (escaped === "\n") this.hazards.add("continuation");
    else this.append("quoted", escaped ?? "\\");
    this.index += 2;
  }

  /** `$` at `this.index`; `context` is how a lone `$` counts. */
  private readDollar(context: "plain" | "quoted"): void {
    const start = this.index;
    const next = this.source[start + 1];
    if (next === "(") {
      if (this.source[start + 2] === "(") this.hazards.add("expansion");
      return this.readSubstitution(start + 1, start, context === "quoted");
    }
    if (next === "{") {
      const end = findClosing(this.source, start + 1, "{", "}");
      if (end === -1) this.hazards.add("syntax");
      const stop = end === -1 ? this.source.length : end;
      const content = this.source.slice(start + 2, stop);
      const simple = SIMPLE_BRACED_PARAMETER.test(content);
      if (!simple) this.hazards.add("expansion");
      const segment: WordSegment = { kind: "parameter", text: this.source.slice(start, stop + 1), inQuotes: context === "quoted" };
      if (simple) segment.name = content;
      else if (this.depth < MAX_DEPTH)
        segment.commands = new ShellParser(content, 0, false, this.depth + 1).parse().commands.flatMap(substitutedCommands);
      this.pushSegment(segment);
      this.index = stop + 1;
      return;
    }
    if (next === "'") {
      this.hazards.add("expansion");
      const end = findAnsiQuoteEnd(this.source, start + 2);
      if (end >= this.source.length) this.hazards.add("syntax");
      this.wordStarted = true;
      this.append("quoted", decodeAnsiC(this.source.slice(start + 2, end)));
      this.index = end + 1;
      return;
    }
    if (next === '"') {
      this.hazards.add("expansion");
      this.index = start + 2;
      this.wordStarted = true;
      return this.readDoubleQuoted('"');
    }
    if (next === "[") {
      this.hazards.add("expansion");
      const end = findClosing(this.source, start + 1, "[", "]");
      const stop = end === -1 ? this.source.length : end;
      this.pushSegment({ kind: "parameter", text: this.source.slice(start, stop + 1), inQuotes: context === "quoted" });
      this.index = stop + 1;
      return;
    }
    PARAMETER_NAME.lastIndex = start + 1;
    const name = next !== undefined && SPECIAL_PARAMETER.test(next) ? next : PARAMETER_NAME.exec(this.source)?.[0];
    if (name === undefined) {
      // A `$` before a blank or the end is literal; before anything else it may be an expansion
      // of another shell (zsh's `$=x` splits words), so it is not taken as plain text.
      if (next !== undefined && !/\s/.test(next) && !(context === "quoted" && next === '"')) this.hazards.add("expansion");
      this.append(context, "$");
      this.index++;
      return;
    }
    this.pushSegment({ kind: "parameter", text: `$${name}`, name, inQuotes: context === "quoted" });
    this.index = start + 1 + name.length;
  }

  /** `$(…)`, `<(…)` or `>(…)`: `open` is the index of `(`, `start` of the first character. */
  private readSubstitution(open: number, start: number, inQuotes: boolean): void {
    this.hazards.add("substitution");
    if (this.depth >= MAX_DEPTH) return this.giveUp();
    const inner = new ShellParser(this.source, open + 1, true, this.depth + 1);
    if (inner.parse().hazards.has("depth")) this.hazards.add("depth");
    if (!inner.closed) this.hazards.add("syntax");
    const innerEnd = inner.closed ? inner.index - 1 : this.source.length;
    this.pushSegment({
      kind: "substitution",
      text: this.source.slice(start, inner.index),
      commands: [this.source.slice(open + 1, innerEnd)],
      inQuotes,
    });
    this.index = inner.index;
  }

  /** Too deeply nested to follow: the rest of the input is one opaque piece. */
  private giveUp(): void {
    this.hazards.add("depth");
    this.pushSegment({ kind: "substitution", text: this.source.slice(this.index) });
    this.index = this.source.length;
  }

  private readBackticks(inQuotes: boolean): void {
    this.hazards.add("substitution");
    let end = this.index + 1;
    while (end < this.source.length && this.source[end] !== "`") end += this.source[end] === "\\" ? 2 : 1;
    if (end >= this.source.length) this.hazards.add("syntax");
    const inner = this.source.slice(this.index + 1, end).replace(/\\([$`\\])/g, "$1");
    this.pushSegment({ kind: "substitution", text: this.source.slice(this.index, end + 1), commands: [inner], inQuotes });
    this.index = end + 1;
  }

  private readRedirection(): void {
    // `2>` — digits written right before the operator name the file descriptor.
    const fdWord =
      this.wordStarted && this.segments.length === 1 && this.segments[0]!.kind === "plain" && /^[0-9]+$/.test(this.segments[0]!.text);
    const fd = fdWord ? this.segments[0]!.text : undefined;
    if (fdWord) this.resetWord();
    else this.finishWord();
    if (this.pendingRedirection) this.hazards.add("syntax");
    const operator = /^(&>>|&>|>>|>\||>&|<<<|<<-|<<|<>|<&|>|<)/.exec(this.source.slice(this.index))![0];
    this.pendingRedirection = { fd, operator };
    this.index += operator.length;
  }

  private readHereDocuments(): void {
    for (const pending of this.pendingHereDocuments) {
      const lines: string[] = [];
      while (this.index < this.source.length) {
        const newline = this.source.indexOf("\n", this.index);
        const lineEnd = newline === -1 ? this.source.length : newline;
        const line = this.source.slice(this.index, lineEnd);
        this.index = lineEnd + 1;
        const compared = pending.stripTabs ? line.replace(/^\t+/, "") : line;
        if (compared === pending.delimiter) break;
        lines.push(compared);
      }
      const body = lines.join("\n");
      pending.command.hereDocuments.push(
        pending.expands ? this.expandedBody(body) : { text: body, segments: [{ kind: "quoted", text: body }] },
      );
    }
    this.pendingHereDocuments = [];
  }

  private expandedBody(body: string): ShellWord {
    const parser = new ShellParser(body, 0, false, this.depth + 1);
    parser.readDoubleQuoted(undefined);
    parser.hazards.forEach((hazard) => this.hazards.add(hazard));
    return { text: body, segments: parser.segments };
  }

  private closesWithinWord(closing: string): boolean {
    for (let index = this.index + 1; index < this.source.length; index++) {
      const character = this.source[index]!;
      if (character === closing) return true;
      if (WORD_BREAK.test(character)) return false;
    }
    return false;
  }

  private append(kind: SegmentKind, text: string): void {
    this.wordStarted = true;
    const last = this.segments.at(-1);
    if (last && last.kind === kind && (kind === "plain" || kind === "quoted")) last.text += text;
    else this.segments.push({ kind, text });
  }

  private pushSegment(segment: WordSegment): void {
    this.wordStarted = true;
    this.segments.push(segment);
  }

  private resetWord(): void {
    this.segments = [];
    this.wordStarted = false;
  }

  private finishWord(): void {
    if (!this.wordStarted) return;
    const word: ShellWord = { text: this.segments.map((segment) => segment.text).join(""), segments: this.segments };
    this.resetWord();
    const redirection = this.pendingRedirection;
    this.pendingRedirection = undefined;
    if (redirection) {
      this.command.redirections.push({ ...redirection, target: word });
      if (redirection.operator === "<<" || redirection.operator === "<<-") {
        const expands = word.segments.every((segment) => segment.kind === "plain");
        this.pendingHereDocuments.push({ command: this.command, delimiter: word.text, stripTabs: redirection.operator === "<<-", expands });
      }
      return;
    }
    const first = word.segments[0];
    if (this.command.words.length === 0 && first?.kind === "plain" && ASSIGNMENT.test(first.text)) this.command.assignments.push(word);
    else this.command.words.push(word);
  }

  private endCommand(separator: "pipe" | "list"): void {
    this.finishWord();
    if (this.pendingRedirection) this.hazards.add("syntax");
    this.pendingRedirection = undefined;
    const { assignments, words, redirections } = this.command;
    if (assignments.length + words.length + redirections.length > 0) this.commands.push(this.command);
    if (separator === "list") this.pipeline++;
    this.command = emptyCommand(this.pipeline);
  }
}

function emptyCommand(pipeline: number): SimpleCommand {
  return { assignments: [], words: [], redirections: [], hereDocuments: [], pipeline };
}
