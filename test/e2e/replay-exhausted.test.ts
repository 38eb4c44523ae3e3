import { afterEach, describe, expect, it } from "vitest";
import {
  createWorkspace,
  expectWellFormedRun,
  PROVIDERS_UNDER_TEST,
  results,
  runAgentwire,
  type ProviderUnderTest,
  type Workspace,
} from "../helpers/agentwire.js";

let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

describe("a replay scenario that runs out of turns", () => {
  it.each(Object.keys(PROVIDERS_UNDER_TEST) as ProviderUnderTest[])(
    "%s: the turn ends at once with an error naming the scenario file and its turn count",
    async (provider) => {
      workspace = await createWorkspace("text");
      const started = Date.now();
      const run = await runAgentwire(["-p", "Say hello.", "--output-format", "stream-json", "--verbose"], {
        workspace,
        provider,
        env: { AGENTWIRE_MAX_RETRIES: "10" },
      });
      expectWellFormedRun(run, 1);
      // text.json scripts one turn, which the first run used: the second run's request finds none.
      const again = await runAgentwire(["-p", "Say hello again.", "--output-format", "stream-json", "--verbose"], {
        workspace,
        provider,
        env: { AGENTWIRE_MAX_RETRIES: "10" },
      });
      expect(again.code).toBe(1);
      expect(again.events.filter((event) => event.type === "system" && event.subtype === "api_retry")).toEqual([]);
      const result = results(again.events)[0]!;
      expect(result).toMatchObject({ is_error: true, terminal_reason: "api_error", api_error_status: 400 });
      expect(result.errors![0]).toContain(
        "Replay scenario fixtures/scenarios/text.json is exhausted: request 2 arrived, but it scripts 1 turn, all already served.",
      );
      expect(Date.now() - started).toBeLessThan(10_000);
    },
  );
});
