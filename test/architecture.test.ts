import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "./helpers/agentwire.js";

/**
 * The layering in .dependency-cruiser.cjs holds: no cycles, no upward imports, protocol/
 * standalone. A new violation fails the suite with the offending import named.
 */
const rules = createRequire(import.meta.url)(join(ROOT, ".dependency-cruiser.cjs"));
const startDirectory = process.cwd();

async function violationsIn(directory: string, options: Record<string, unknown>): Promise<{ violations: string[]; cruised: number }> {
  process.chdir(directory);
  try {
    const { output } = await cruise(["src", "protocol"], {
      ruleSet: { forbidden: rules.forbidden },
      validate: true,
      ...options,
      outputType: "json",
    });
    const result = (typeof output === "string" ? JSON.parse(output) : output) as ICruiseResult;
    return {
      violations: result.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`),
      cruised: result.summary.totalCruised,
    };
  } finally {
    process.chdir(startDirectory);
  }
}

describe("architecture", () => {
  let scratch: string | undefined;
  afterEach(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  it("imports point one way between layers and no module cycle exists", async () => {
    const { violations, cruised } = await violationsIn(ROOT, rules.options);
    expect(violations).toEqual([]);
    // The check looked at the real tree, not an empty one.
    expect(cruised).toBeGreaterThan(100);
  });

  it("reports an upward import, a cycle and protocol/ reaching into src/", async () => {
    scratch = mkdtempSync(join(tmpdir(), "agentwire-layers-"));
    const files: Record<string, string> = {
      "src/conversation/messages.ts": "export const message = 1;\n",
      "src/agent/loop.ts": 'import { message } from "../conversation/messages.js";\nexport const loop = message;\n',
      // providers sit below agent: importing it is upward.
      "src/providers/anthropic.ts": 'import { loop } from "../agent/loop.js";\nexport const anthropic = loop;\n',
      "src/tools/a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n',
      "src/tools/b.ts": 'import { a } from "./a.js";\nexport const b = () => a;\n',
      // An engine behind an inner wall reaching out to the tool plumbing around it.
      "src/tools/define-tool.ts": "export const defineTool = 1;\n",
      "src/tools/search/walk.ts": 'import { defineTool } from "../define-tool.js";\nexport const walk = defineTool;\n',
      // The presentation module is bundled into the page: a Node built-in there is refused.
      "src/render/present/paths.ts": 'import { sep } from "node:path";\nexport const separator = sep;\n',
      "protocol/events.ts": 'import { message } from "../src/conversation/messages.js";\nexport const events = message;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(scratch, path)), { recursive: true });
      writeFileSync(join(scratch, path), text);
    }
    const { tsConfig: _unused, ...options } = rules.options;
    const { violations } = await violationsIn(scratch, options);
    expect(violations).toEqual(
      expect.arrayContaining([
        "layer-providers: src/providers/anthropic.ts → src/agent/loop.ts",
        "no-circular: src/tools/a.ts → src/tools/b.ts",
        "wall-tools-search: src/tools/search/walk.ts → src/tools/define-tool.ts",
        "protocol-is-standalone: protocol/events.ts → src/conversation/messages.ts",
        "present-runs-in-the-browser: src/render/present/paths.ts → path",
      ]),
    );
  });
});
