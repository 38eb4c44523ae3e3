import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/agentwire.js";

const BIOME = join(ROOT, "node_modules", ".bin", "biome");

function biome(args: string[], cwd = ROOT) {
  return spawnSync(BIOME, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
}

describe("code style (Biome)", () => {
  it("the code base is formatted and passes the linter", () => {
    const run = biome(["ci", "--max-diagnostics=20", "."]);
    expect(run.stdout + run.stderr, "run `npx biome check --write .` and fix what remains").not.toMatch(/error|×/i);
    expect(run.status).toBe(0);
  });

  it("fails on a file that is not formatted or breaks a rule", () => {
    const scratch = mkdtempSync(join(tmpdir(), "agentwire-style-"));
    try {
      writeFileSync(
        join(scratch, "biome.jsonc"),
        `{ "extends": [${JSON.stringify(join(ROOT, "biome.jsonc"))}], "vcs": { "enabled": false } }`,
      );
      writeFileSync(join(scratch, "bad.ts"), "export const a = {b:1}\nexport function f(x: number) { if (x == 1) { debugger; } }\n");
      const run = biome(["ci", "bad.ts"], scratch);
      expect(run.status).not.toBe(0);
      expect(run.stdout + run.stderr).toMatch(/format/i);
      expect(run.stdout + run.stderr).toMatch(/noDebugger/);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
