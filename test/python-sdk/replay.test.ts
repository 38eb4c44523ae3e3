import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, ROOT, type Workspace } from "../helpers/agentwire.js";
import { FixtureSchema, type Fixture } from "./fixture.js";
import { replayFixture } from "./replay.js";
import { SDK_PROVIDERS, USES } from "./uses.js";

/**
 * The Python Agent SDK's recorded traffic (fixtures/python-sdk/, recorded by real.test.ts)
 * played against the built agentwire for every use and provider, with no Python: CI has no
 * Python package index, so this is where the Python SDK's uses are checked on every run.
 */
const FIXTURE_DIR = join(ROOT, "fixtures", "python-sdk");

function loadFixture(use: string): Fixture {
  return FixtureSchema.parse(JSON.parse(readFileSync(join(FIXTURE_DIR, `${use}.json`), "utf8")));
}

/** The Python SDK's check of `cli -v`: a leading x.y.z at least 2.0.0, or it logs a warning. */
function passesPythonVersionCheck(output: string): boolean {
  const match = /^([0-9]+)\.[0-9]+\.[0-9]+/.exec(output.trim());
  // Any 2.x.y is at least 2.0.0. (No leading version at all is silently accepted by the SDK, but
  // says nothing to it either: agentwire must give one.)
  return match !== null && Number(match[1]) >= 2;
}

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

describe("Python Agent SDK fixtures", () => {
  it("every use has a fixture recorded from the SDK, and every fixture is a use", () => {
    const files = readdirSync(FIXTURE_DIR).filter((name) => name.endsWith(".json"));
    expect(files.sort()).toEqual(USES.map((use) => `${use.name}.json`).sort());
    for (const use of USES)
      expect(loadFixture(use.name)).toMatchObject({
        use: use.name,
        recorded: { sdk: expect.stringMatching(/^claude-agent-sdk .* \(Python\)$/) },
      });
  });

  it("the version check reads a leading x.y.z the way the SDK does", () => {
    expect(passesPythonVersionCheck("2.1.330 (agentwire 0.1.0)")).toBe(true);
    expect(passesPythonVersionCheck("2.0.0")).toBe(true);
    expect(passesPythonVersionCheck("0.1.0 (agentwire)")).toBe(false);
    expect(passesPythonVersionCheck("1.9.9")).toBe(false);
    expect(passesPythonVersionCheck("agentwire 2.1.330")).toBe(false);
  });
});

describe.each(SDK_PROVIDERS)("Python Agent SDK traffic replayed ($name)", (provider) => {
  it.each(USES)("$name", async (use) => {
    const fixture = loadFixture(use.name);
    workspace = await createWorkspace("text");
    await workspace.useScenario(await use.prepare(workspace));
    const { report, problems, versionProbes } = await replayFixture(fixture, { workspace, provider });
    expect(problems).toEqual([]);
    // The SDK runs `cli -v` before each process; it must pass quietly and still say what answers.
    expect(versionProbes.length).toBeGreaterThan(0);
    for (const probe of versionProbes) {
      expect(passesPythonVersionCheck(probe.output), probe.output).toBe(true);
      expect(probe.output).toMatch(/agentwire/);
      expect(probe.ms).toBeLessThan(2_000);
    }
    use.check(report, { workspace, provider, requests: workspace.server.requests });
  });
});
