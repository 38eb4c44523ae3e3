import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/agentwire.js";

/**
 * The build (esbuild) strips types without checking them, so a type error would otherwise
 * reach CI unnoticed: the one test command also runs the compiler's strict check.
 */
describe("typecheck", () => {
  it("tsc --noEmit passes (strict, no unused locals or parameters)", async () => {
    const tsc = `${ROOT}/node_modules/typescript/bin/tsc`;
    const result = await promisify(execFile)(process.execPath, [tsc, "--noEmit", "-p", ROOT], { cwd: ROOT }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe("");
  }, 120_000);
});
