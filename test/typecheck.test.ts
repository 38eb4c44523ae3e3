import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/agentwire.js";

/**
 * The build (esbuild) strips types without checking them, so a type error would otherwise
 * reach CI unnoticed: the one test command also runs the compiler's strict check.
 */
describe("typecheck", () => {
  const check = (project: string): Promise<string> =>
    promisify(execFile)(process.execPath, [`${ROOT}/node_modules/typescript/bin/tsc`, "--noEmit", "-p", project], { cwd: ROOT }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );

  it("tsc --noEmit passes (strict, no unused locals or parameters)", async () => {
    expect(await check(ROOT)).toBe("");
  }, 120_000);

  it("the web page's plain JavaScript passes a check against the browser's types", async () => {
    expect(await check(`${ROOT}/tsconfig.web.json`)).toBe("");
  }, 120_000);
});
