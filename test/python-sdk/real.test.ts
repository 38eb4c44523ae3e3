import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, ROOT, type Workspace } from "../helpers/agentwire.js";
import { fixtureFromRecording, readRecording } from "./fixture.js";
import { findPythonSdk, pythonEnv, runPythonUse, sdkOptionsEnv, type AvailablePythonSdk } from "./python-sdk.js";
import { SDK_PROVIDERS, USES, type SdkProvider } from "./uses.js";

/**
 * The official Python Agent SDK drives the built agentwire for real, every use with every
 * provider, where the SDK can be imported (CI has no Python package index: there the replay
 * test plays the recorded traffic instead). With AGENTWIRE_PYTHON_SDK_RECORD=1 the anthropic
 * runs go through record-cli.mjs and rewrite fixtures/python-sdk/<use>.json.
 */
const sdk = findPythonSdk();
const RECORD = process.env.AGENTWIRE_PYTHON_SDK_RECORD === "1";
const RECORDER = join(ROOT, "test", "python-sdk", "record-cli.mjs");

let workspace: Workspace | undefined;
let recording: string | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  if (recording) await rm(recording, { recursive: true, force: true });
  workspace = recording = undefined;
});

if (!sdk.available) {
  // A test that says why, so the skip shows in the run's summary.
  it.skip(`Python Agent SDK → agentwire, for real: skipped, ${sdk.reason}`, () => {});
} else {
  describe(`Python Agent SDK ${sdk.version} → agentwire, for real`, () => {
    describe.each(SDK_PROVIDERS)("$name", (provider) => {
      it.each(USES)("$name", { timeout: 90_000 }, async (use) => {
        workspace = await createWorkspace("text");
        await workspace.useScenario(await use.prepare(workspace));
        const record = RECORD && provider.name === "anthropic";
        if (record) recording = await mkdtemp(join(tmpdir(), "agentwire-pysdk-record-"));
        const { report } = await runPythonUse(sdk, use.name, {
          workspace,
          provider,
          ...(record ? { cliPath: RECORDER, extraEnv: { AGENTWIRE_PYSDK_RECORD_DIR: recording! } } : {}),
        });
        use.check(report, { workspace, provider, requests: workspace.server.requests });
        // The SDK's version check passes quietly: it logs at WARNING when the version is too old.
        expect(report.warnings).toEqual([]);
        if (record) await writeFixture(sdk, use.name, provider, workspace, recording!);
      });
    });
  });
}

/** fixtures/python-sdk/<use>.json from what record-cli.mjs logged in `recording`. */
async function writeFixture(
  sdk: AvailablePythonSdk,
  use: string,
  provider: SdkProvider,
  workspace: Workspace,
  recording: string,
): Promise<void> {
  const fixture = fixtureFromRecording(readRecording(recording), {
    use,
    provider: provider.name,
    sdkVersion: `claude-agent-sdk ${sdk.version} (Python)`,
    agentwireVersion: execFileSync("git", ["-C", ROOT, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim(),
    placeholders: [
      [workspace.root, "${ROOT}"],
      [workspace.server.url, "${SERVER}"],
    ],
    baseEnv: { ...pythonEnv(sdk, workspace), AGENTWIRE_PYSDK_RECORD_DIR: recording },
    optionsEnv: sdkOptionsEnv(workspace, provider),
    model: provider.model,
    otherModel: provider.otherModel.alias,
  });
  await writeFile(join(ROOT, "fixtures", "python-sdk", `${use}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
}
