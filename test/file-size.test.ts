import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/agentwire.js";

/**
 * Small files (issue 28): none in src/ over 400 lines, and the session core, which every run goes
 * through, under 300. A file past its limit fails the suite with its name and length.
 */
const LIMITS: ReadonlyArray<{ folder: string; maxLines: number }> = [
  { folder: "src/session/", maxLines: 299 },
  { folder: "src/", maxLines: 400 },
];

/** Lines as `wc -l` counts them, plus a last line without its newline. */
function lineCount(text: string): number {
  const lines = text.split("\n").length;
  return text.endsWith("\n") ? lines - 1 : lines;
}

/** Every file under `root`/src too long for the first limit whose folder holds it, as `path: lines (limit)`. */
function oversizedFiles(root: string): string[] {
  const files = readdirSync(join(root, "src"), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  expect(files.length, "the check looked at a real tree").toBeGreaterThan(0);
  return files.flatMap((entry) => {
    const path = relative(root, join(entry.parentPath, entry.name)).split("\\").join("/");
    const limit = LIMITS.find(({ folder }) => path.startsWith(folder))!;
    const lines = lineCount(readFileSync(join(root, path), "utf8"));
    return lines > limit.maxLines ? [`${path}: ${lines} lines (at most ${limit.maxLines})`] : [];
  });
}

describe("file sizes", () => {
  it("keeps every file in src/ within 400 lines, and src/session/ under 300", () => {
    expect(oversizedFiles(ROOT), "split these by job into files whose names explain themselves").toEqual([]);
  });

  it("names a file past its limit, and the session core's lower one", () => {
    const scratch = mkdtempSync(join(tmpdir(), "agentwire-file-size-"));
    try {
      const lines = (count: number): string => "x;\n".repeat(count);
      const files: Record<string, string> = {
        "src/tools/fits.ts": lines(400),
        "src/tools/long.ts": lines(401),
        "src/session/fits.ts": lines(299),
        "src/session/long.ts": lines(300),
        // No final newline: the last line still counts.
        "src/agent/unterminated.ts": `${lines(400)}x;`,
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(scratch, path, ".."), { recursive: true });
        writeFileSync(join(scratch, path), text);
      }
      expect(oversizedFiles(scratch).sort()).toEqual([
        "src/agent/unterminated.ts: 401 lines (at most 400)",
        "src/session/long.ts: 300 lines (at most 299)",
        "src/tools/long.ts: 401 lines (at most 400)",
      ]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
