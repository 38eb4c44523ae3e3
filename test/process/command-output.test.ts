import { describe, expect, it } from "vitest";
import { CommandOutput, StreamCapture } from "../../src/process/command-output.js";

describe("StreamCapture", () => {
  it("holds a bounded number of bytes however much is appended, and counts everything", () => {
    const capture = new StreamCapture();
    const line = Buffer.from(`${"x".repeat(63)}\n`);
    const chunk = Buffer.concat(Array.from({ length: 1024 }, () => line));
    let peakRetained = 0;
    // 64 MB in 64 KB chunks.
    for (let index = 0; index < 1024; index += 1) {
      capture.append(chunk);
      peakRetained = Math.max(peakRetained, capture.retainedBytes);
    }
    expect(capture.totalBytes).toBe(64 * 1024 * 1024);
    expect(capture.totalLines).toBe(1024 * 1024);
    expect(peakRetained).toBeLessThan(100_000);
    const shown = capture.text().trimEnd().split("\n");
    expect(shown).toHaveLength(101);
    expect(shown[50]).toBe(`[... ${1024 * 1024 - 100} lines truncated ...]`);
  });

  it("shows short output whole", () => {
    const capture = new StreamCapture();
    capture.append(Buffer.from("a\nb"));
    expect(capture.isTruncated).toBe(false);
    expect(capture.totalLines).toBe(2);
    expect(capture.text()).toBe("a\nb");
  });
});

describe("CommandOutput", () => {
  it("does not create a spool file for output short enough to show", () => {
    let created = 0;
    const output = new CommandOutput(
      () => {
        created += 1;
        return { path: "/nonexistent", descriptor: -1 };
      },
      { pause: () => {}, resume: () => {} },
    );
    output.append("stdout", Buffer.from("hello\n"));
    output.append("stderr", Buffer.from("warning\n"));
    expect(created).toBe(0);
    expect(output.fullOutputPath).toBeUndefined();
  });

  it("reports a spool that cannot be created and keeps capturing", () => {
    const output = new CommandOutput(
      () => {
        throw new Error("disk full");
      },
      { pause: () => {}, resume: () => {} },
    );
    for (let index = 0; index < 200; index += 1) output.append("stdout", Buffer.from(`${index}\n`));
    expect(output.spoolError).toBe("disk full");
    expect(output.fullOutputPath).toBeUndefined();
    const shown = output.stdout.text().trimEnd().split("\n");
    expect(shown.slice(0, 50)).toEqual(Array.from({ length: 50 }, (_, index) => String(index)));
    expect(shown[50]).toBe("[... 100 lines truncated ...]");
    expect(shown.slice(51)).toEqual(Array.from({ length: 50 }, (_, index) => String(150 + index)));
  });
});
