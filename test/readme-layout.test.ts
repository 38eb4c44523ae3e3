import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/agentwire.js";

/** Every folder under src/, as the README's layout table names it (`src/tools/search/`). */
function sourceFolders(directory = join(ROOT, "src")): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const folder = join(directory, entry.name);
      return [`${relative(ROOT, folder)}/`, ...sourceFolders(folder)];
    });
}

describe("the README's layout table", () => {
  it("has a row for every folder under src/, and none for a folder that is gone", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const rows = [...readme.matchAll(/^\| `(src\/[^`]+\/)` \|/gm)].map((match) => match[1]);
    const folders = sourceFolders();
    expect(folders.length).toBeGreaterThan(20);
    expect([...rows].sort()).toEqual([...folders].sort());
  });
});
