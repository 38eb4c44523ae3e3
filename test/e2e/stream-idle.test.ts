import { afterEach, describe, expect, it } from "vitest";
import {
  createWorkspace,
  expectWellFormedRun,
  results,
  runAgentwire,
  sequence,
  type ProviderUnderTest,
  type Workspace,
} from "../helpers/agentwire.js";

let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

/**
 * The idle timeout is short so the tests are quick, yet long enough that a live stream's pauses on
 * a loaded 2-core machine do not count as stalls: at 400 ms the retry's own answer was once taken
 * for a second stall.
 */
const IDLE_TIMEOUT_MS = "1500";

describe("a model stream that stalls", () => {
  it.each(["anthropic", "openai-chat", "openai-responses", "gemini"] as ProviderUnderTest[])(
    "%s: abandoned after the idle timeout, announced as a retry, and the retry's answer is the result",
    async (provider) => {
      workspace = await createWorkspace("text");
      await workspace.useScenario({
        turns: [
          { text: "This answer starts and then the server goes quiet", chunk_chars: 4, stall_after_chunks: 4 },
          { text: "Recovered." },
        ],
      });
      const started = Date.now();
      const run = await runAgentwire(["-p", "hi", "--output-format", "stream-json", "--verbose"], {
        workspace,
        provider,
        env: { AGENTWIRE_STREAM_IDLE_TIMEOUT_MS: IDLE_TIMEOUT_MS },
      });
      expectWellFormedRun(run, 1);
      const retries = run.events.filter((event) => event.type === "system" && event.subtype === "api_retry");
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatchObject({ attempt: 1, error_status: null });
      expect(results(run.events)[0]).toMatchObject({ is_error: false, result: "Recovered." });
      expect(sequence(run.events).filter((kind) => kind.startsWith("assistant"))).toEqual(["assistant:text"]);
      expect(workspace.server.requests).toHaveLength(2);
      // Far sooner than the default timeout would have abandoned it.
      expect(Date.now() - started).toBeLessThan(10_000);
    },
  );

  it("the idle timeout leaves a slow but live stream alone", async () => {
    workspace = await createWorkspace("text");
    // Gaps well under the timeout, the whole answer more than twice as long: only a timer that
    // restarts on every chunk lets it through.
    await workspace.useScenario({ turns: [{ text: "Slow but steady, and never silent.", chunk_chars: 4, chunk_delay_ms: 400 }] });
    const run = await runAgentwire(["-p", "hi", "--output-format", "stream-json", "--verbose"], {
      workspace,
      env: { AGENTWIRE_STREAM_IDLE_TIMEOUT_MS: IDLE_TIMEOUT_MS },
    });
    expectWellFormedRun(run, 1);
    expect(run.events.filter((event) => event.type === "system" && event.subtype === "api_retry")).toEqual([]);
    expect(results(run.events)[0]).toMatchObject({ result: "Slow but steady, and never silent." });
  });
});
