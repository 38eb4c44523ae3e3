import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/agentwire.js";
import { typecheck } from "./helpers/typescript.js";

/**
 * The build (esbuild) strips types without checking them, so a type error would otherwise
 * reach CI unnoticed: the one test command also runs the compiler's strict check.
 */
describe("typecheck", () => {
  it("tsc --noEmit passes (strict, no unused locals or parameters)", async () => {
    expect(await typecheck(ROOT, "project")).toBe("");
  }, 120_000);

  it("the web page's plain JavaScript passes a check against the browser's types", async () => {
    expect(await typecheck(`${ROOT}/tsconfig.web.json`, "web")).toBe("");
  }, 120_000);
});
