import { createWriteStream, lstatSync, mkdirSync, openSync } from "node:fs";
import type { WriteStream } from "node:fs";
import path from "node:path";
import type { SupervisedProcess } from "./supervised-process.js";

/** The model sees at most this many lines from the start and from the end of each stream. */
export const HEAD_LINES = 50;
export const TAIL_LINES = 50;
/**
 * Byte caps per side, for output with few but enormous lines (minified code, binary noise):
 * only these bytes are held in memory, however much a command prints.
 */
const HEAD_BYTES = 15_000;
const TAIL_BYTES = 15_000;
const NEWLINE_BYTE = 0x0a;
/** The spool file's write buffer; the child is paused while it is full. */
const SPOOL_BUFFER_BYTES = 1024 * 1024;

/**
 * One output stream (stdout or stderr) as the model will see it: the first HEAD_BYTES and a
 * rolling window of the last TAIL_BYTES, plus exact byte and line counts of everything.
 */
export class StreamCapture {
  private readonly headChunks: Buffer[] = [];
  private headBytes = 0;
  private tailChunks: Buffer[] = [];
  private tailBytes = 0;
  private totalNewlines = 0;
  private lastByte: number | undefined;
  totalBytes = 0;

  append(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.totalBytes += chunk.length;
    this.totalNewlines += countNewlines(chunk);
    this.lastByte = chunk[chunk.length - 1];
    let rest = chunk;
    const headRoom = HEAD_BYTES - this.headBytes;
    if (headRoom > 0) {
      const headPart = rest.subarray(0, headRoom);
      this.headChunks.push(headPart);
      this.headBytes += headPart.length;
      rest = rest.subarray(headPart.length);
    }
    if (rest.length === 0) return;
    this.tailChunks.push(rest);
    this.tailBytes += rest.length;
    while (this.tailBytes - (this.tailChunks[0]?.length ?? 0) >= TAIL_BYTES) {
      this.tailBytes -= this.tailChunks.shift()!.length;
    }
  }

  /** Lines, counting a last line without "\n". */
  get totalLines(): number {
    return this.totalNewlines + (this.lastByte !== undefined && this.lastByte !== NEWLINE_BYTE ? 1 : 0);
  }

  /** Bytes held in memory (for tests: stays bounded whatever the output size). */
  get retainedBytes(): number {
    return this.headBytes + this.tailBytes;
  }

  /** Whether the model cannot be shown everything (then the full output goes to a file). */
  get isTruncated(): boolean {
    return this.totalLines > HEAD_LINES + TAIL_LINES || this.totalBytes > HEAD_BYTES + TAIL_BYTES;
  }

  /** The text for the model: everything, or head, a `[... N lines truncated ...]` marker and tail. */
  text(): string {
    const head = Buffer.concat(this.headChunks);
    const tail = lastBytes(Buffer.concat(this.tailChunks), TAIL_BYTES);
    if (!this.isTruncated) return Buffer.concat([head, tail]).toString("utf8");
    const shownHead = firstLines(head, HEAD_LINES);
    // With nothing dropped between head and tail (many short lines), the tail's lines may still
    // sit in the head buffer; the remainder after the shown head then starts on a line boundary.
    const nothingDropped = this.totalBytes === head.length + tail.length;
    const remainder = nothingDropped ? Buffer.concat([head.subarray(shownHead.length), tail]) : tail;
    const shownTail = lastLines(remainder, TAIL_LINES, nothingDropped);
    const shownLines = countNewlines(shownHead) + countLinesOf(shownTail);
    const truncatedLines = this.totalLines - shownLines;
    const truncatedBytes = this.totalBytes - shownHead.length - shownTail.length;
    const headText = shownHead.toString("utf8");
    const separator = headText === "" || headText.endsWith("\n") ? "" : "\n";
    // A single enormous line loses no line breaks; count bytes then.
    const marker = truncatedLines > 0 ? `[... ${truncatedLines} lines truncated ...]` : `[... ${truncatedBytes} bytes truncated ...]`;
    return `${headText}${separator}${marker}\n${shownTail.toString("utf8")}`;
  }
}

/**
 * A command's stdout and stderr: captured for the model, and, once either stream is too long to
 * show whole, also written in arrival order to a spool file so nothing is lost. Output short
 * enough to show never touches the disk.
 *
 * Contract: `append` never throws; a spool that cannot be created or written is reported by
 * `spoolError` while capturing goes on. `pause` / `resume` are called to apply the file's
 * backpressure to the child's pipes, so memory stays flat however fast the command prints.
 */
export class CommandOutput {
  readonly stdout = new StreamCapture();
  readonly stderr = new StreamCapture();
  /** Everything so far, held only until the spool starts (bounded by the head/tail caps). */
  private pending: Buffer[] = [];
  private spool: WriteStream | undefined;
  private spoolPath: string | undefined;
  spoolError: string | undefined;

  constructor(
    private readonly createSpoolFile: () => SpoolFile,
    private readonly flowControl: { pause(): void; resume(): void },
  ) {}

  append(source: "stdout" | "stderr", chunk: Buffer): void {
    this[source].append(chunk);
    if (this.spoolError !== undefined) return;
    if (this.spool === undefined) {
      this.pending.push(chunk);
      if (this.stdout.isTruncated || this.stderr.isTruncated) this.startSpool();
      return;
    }
    this.write(chunk);
  }

  get totalBytes(): number {
    return this.stdout.totalBytes + this.stderr.totalBytes;
  }

  get totalLines(): number {
    return this.stdout.totalLines + this.stderr.totalLines;
  }

  /** The spool file, when one was written completely. */
  get fullOutputPath(): string | undefined {
    return this.spoolError === undefined ? this.spoolPath : undefined;
  }

  /** Flushes and closes the spool file. Never rejects. */
  async finish(): Promise<void> {
    const spool = this.spool;
    if (spool === undefined || spool.destroyed) return;
    await new Promise<void>((resolve) => {
      spool.once("close", resolve);
      spool.end();
    });
  }

  private startSpool(): void {
    let file: SpoolFile;
    try {
      file = this.createSpoolFile();
    } catch (error) {
      this.spoolError = (error as Error).message;
      this.pending = [];
      return;
    }
    this.spoolPath = file.path;
    this.spool = createWriteStream("", { fd: file.descriptor, highWaterMark: SPOOL_BUFFER_BYTES });
    this.spool.on("error", (error) => {
      this.spoolError = error.message;
      this.flowControl.resume();
    });
    const pending = this.pending;
    this.pending = [];
    for (const chunk of pending) this.write(chunk);
  }

  private write(chunk: Buffer): void {
    if (this.spool!.write(chunk)) return;
    this.flowControl.pause();
    this.spool!.once("drain", () => this.flowControl.resume());
  }
}

/** A spool file just created, and the descriptor it is written through. */
export interface SpoolFile {
  path: string;
  descriptor: number;
}

/**
 * Creates `<directory>/bash-<n>.log` for writing, with the first free n. The directory is made
 * private (0700) and must be a real directory owned by this user: it may sit in a shared /tmp,
 * where someone else could have planted a symlink under the same name. The file is written
 * through the descriptor of its exclusive creation, never reopened by name: a sandboxed command
 * may write in this directory and could swap a link to another file in under that name.
 */
export function createSpoolFile(directory: string, prefix: string): SpoolFile {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const stats = lstatSync(directory);
  const userId = process.getuid?.();
  if (!stats.isDirectory() || (userId !== undefined && stats.uid !== userId)) {
    throw new Error(`${directory} is not a private directory of this user; the full output was not saved.`);
  }
  for (let attempt = 1; ; attempt += 1) {
    const filePath = path.join(directory, `${prefix}-${attempt}.log`);
    try {
      // "wx": never reuse or follow an existing file.
      return { path: filePath, descriptor: openSync(filePath, "wx", 0o600) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 10_000) throw error;
    }
  }
}

function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let index = bytes.indexOf(NEWLINE_BYTE); index !== -1; index = bytes.indexOf(NEWLINE_BYTE, index + 1)) count += 1;
  return count;
}

function countLinesOf(bytes: Buffer): number {
  return countNewlines(bytes) + (bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE_BYTE ? 1 : 0);
}

function lastBytes(bytes: Buffer, count: number): Buffer {
  return bytes.length <= count ? bytes : bytes.subarray(bytes.length - count);
}

/** Up to `count` whole lines from the start; a head without any newline is kept as it is. */
function firstLines(bytes: Buffer, count: number): Buffer {
  let end = 0;
  for (let line = 0; line < count; line += 1) {
    const newline = bytes.indexOf(NEWLINE_BYTE, end);
    if (newline === -1) break;
    end = newline + 1;
  }
  return end === 0 ? bytes : bytes.subarray(0, end);
}

/**
 * Up to `count` whole lines from the end. Unless `startsOnLineBoundary`, the first line of the
 * window is usually cut, so it is dropped — except when the window holds no newline at all (one
 * enormous line: keep its end).
 */
function lastLines(bytes: Buffer, count: number, startsOnLineBoundary: boolean): Buffer {
  const body = bytes[bytes.length - 1] === NEWLINE_BYTE ? bytes.subarray(0, -1) : bytes;
  let position = body.length;
  for (let taken = 0; taken < count; taken += 1) {
    // A negative offset would count from the end, so position 0 means "no newline before".
    const newline = position === 0 ? -1 : body.lastIndexOf(NEWLINE_BYTE, position - 1);
    if (newline === -1) return taken === 0 || startsOnLineBoundary ? bytes : bytes.subarray(position + 1);
    position = newline;
  }
  return bytes.subarray(position + 1);
}

/**
 * Captures a supervised child's stdout and stderr into a CommandOutput whose spool, once the
 * output is too long to show, is created by `createSpool`; the child's pipes are paused while the
 * spool file is behind.
 */
export function captureCommandOutput(child: Pick<SupervisedProcess, "stdout" | "stderr">, createSpool: () => SpoolFile): CommandOutput {
  const output = new CommandOutput(createSpool, {
    pause: () => {
      child.stdout.pause();
      child.stderr.pause();
    },
    resume: () => {
      child.stdout.resume();
      child.stderr.resume();
    },
  });
  child.stdout.on("data", (chunk: Buffer) => output.append("stdout", chunk));
  child.stderr.on("data", (chunk: Buffer) => output.append("stderr", chunk));
  return output;
}
