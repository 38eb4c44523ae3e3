import type { SupervisedProcess } from "./supervised-process.js";

/** Collects a stream's bytes up to a cap; the rest is read and dropped, so the child never blocks on a full pipe. */
export class CappedText {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  append(chunk: Buffer): void {
    if (this.size >= this.maxBytes) return;
    const kept = chunk.subarray(0, this.maxBytes - this.size);
    this.chunks.push(kept);
    this.size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

/** Captures a supervised child's stdout and stderr, each up to `maxBytes`. */
export function captureCappedOutput(
  child: Pick<SupervisedProcess, "stdout" | "stderr">,
  maxBytes: number,
): { stdout: CappedText; stderr: CappedText } {
  const stdout = new CappedText(maxBytes);
  const stderr = new CappedText(maxBytes);
  child.stdout.on("data", (chunk: Buffer) => stdout.append(chunk));
  child.stderr.on("data", (chunk: Buffer) => stderr.append(chunk));
  return { stdout, stderr };
}
