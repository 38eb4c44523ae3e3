import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, expectWellFormedRun, results, runAgentwire, sequence, type ProviderUnderTest, type Workspace } from "../helpers/agentwire.js";

let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

describe("a model stream that stalls", () => {
  it.each(["anthropic", "openai-chat", "openai-responses", "gemini"] as ProviderUnderTest[])(
    "%s: abandoned after the idle timeout, announced as a retry, and the retry's answer is the result",
    async (provider) => {
      workspace = await createWorkspace("text");
      await workspace.useScenario({ turns: [{ text: "This answer starts and then the server goes quiet", chunk_chars: 4, stall_after_chunks: 4 }, { text: "Recovered." }] });
      const started = Date.now();
      const run = await runAgentwire(["-p", "hi", "--output-format", "stream-json", "--verbose"], { workspace, provider, env: { AGENTWIRE_STREAM_IDLE_TIMEOUT_MS: "400" } });
      expectWellFormedRun(run, 1);
      const retries = run.events.filter((event) => event.type === "system" && event.subtype === "api_retry");
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatchObject({ attempt: 1, error_status: null });
      expect(results(run.events)[0]).toMatchObject({ is_error: false, result: "Recovered." });
      expect(sequence(run.events).filter((kind) => kind.startsWith("assistant"))).toEqual(["assistant:text"]);
      expect(workspace.server.requests).toHaveLength(2);
      expect(Date.now() - started).toBeLessThan(8_000);
    },
  );

  it("the idle timeout leaves a slow but live stream alone", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "Slow but steady.", chunk_chars: 4, chunk_delay_ms: 150 }] });
    const run = await runAgentwire(["-p", "hi", "--output-format", "stream-json", "--verbose"], { workspace, env: { AGENTWIRE_STREAM_IDLE_TIMEOUT_MS: "400" } });
    expectWellFormedRun(run, 1);
    expect(run.events.filter((event) => event.type === "system" && event.subtype === "api_retry")).toEqual([]);
    expect(results(run.events)[0]).toMatchObject({ result: "Slow but steady." });
  });
});
