import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLAUDE_CODE_VERSION } from "../../protocol/version.js";
import { BIN, ROOT } from "../helpers/agentwire.js";

const PACKAGE_VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const HAS_PYTHON = spawnSync("python3", ["--version"]).status === 0;

/**
 * The Python Agent SDK (0.2.143, `SubprocessCLITransport._check_claude_version`) runs `CLI -v`
 * before it connects, takes the first `N.N.N` at the very start of the trimmed output, and logs a
 * warning when it is below its minimum, 2.0.0. The same steps, in Python, on our output.
 */
const PYTHON_SDK_VERSION_CHECK = `
import re, sys
output = sys.stdin.read().strip()
match = re.match(r"([0-9]+\\.[0-9]+\\.[0-9]+)", output)
if not match:
    print("no version")
elif [int(x) for x in match.group(1).split(".")] < [int(x) for x in "2.0.0".split(".")]:
    print("warning: " + match.group(1))
else:
    print("ok " + match.group(1))
`;

function probe(flag: string): string {
  const run = spawnSync(process.execPath, [BIN, flag], { encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stderr).toBe("");
  return run.stdout;
}

describe("the version probe (-v / --version)", () => {
  it("leads with the Claude Code release agentwire follows, then names agentwire and its version", () => {
    for (const flag of ["-v", "--version"]) expect(probe(flag)).toBe(`${CLAUDE_CODE_VERSION} (agentwire ${PACKAGE_VERSION})\n`);
  });

  it("a version the SDKs' minimum (2.0.0) accepts: read the way the Python SDK reads it", () => {
    const leading = /^([0-9]+)\.([0-9]+)\.([0-9]+)/.exec(probe("-v").trim());
    expect(leading).not.toBeNull();
    const [major, minor, patch] = leading!.slice(1).map(Number) as [number, number, number];
    expect(major * 1e6 + minor * 1e3 + patch).toBeGreaterThanOrEqual(2e6);
  });

  it.skipIf(!HAS_PYTHON)("the Python SDK's own parsing, run by python3, finds no reason to warn", () => {
    const checked = spawnSync("python3", ["-c", PYTHON_SDK_VERSION_CHECK], { input: probe("-v"), encoding: "utf8" });
    expect(checked.stderr).toBe("");
    expect(checked.stdout.trim()).toBe(`ok ${CLAUDE_CODE_VERSION}`);
    // The check does fire on what agentwire 0.1.0 printed before (its own version first).
    const old = spawnSync("python3", ["-c", PYTHON_SDK_VERSION_CHECK], { input: "0.1.0 (agentwire)\n", encoding: "utf8" });
    expect(old.stdout.trim()).toBe("warning: 0.1.0");
  });
});
