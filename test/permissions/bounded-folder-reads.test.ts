import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { boundedFolderReader } from "../../src/permissions/shell/bounded-folder-reads.js";

describe("bounded folder reads", () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), "agentwire-reads-"));
  for (const name of ["a", "b", "c"]) writeFileSync(path.join(folder, name), "");
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("reads folders until the entries read in all pass the limit, then says so", () => {
    const read = boundedFolderReader(5);
    expect((read(folder) as { name: string }[]).map((entry) => entry.name).sort()).toEqual(["a", "b", "c"]);
    expect(read(folder)).toBe("too many");
  });

  it("an unreadable folder is undefined and costs nothing", () => {
    const read = boundedFolderReader(3);
    expect(read(path.join(folder, "missing"))).toBeUndefined();
    expect(read(path.join(folder, "a"))).toBeUndefined();
    expect(read(folder)).toHaveLength(3);
  });
});
