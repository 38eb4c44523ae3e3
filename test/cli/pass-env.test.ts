import { describe, expect, it } from "vitest";
import { parseArguments } from "../../src/cli/arguments.js";

describe("--pass-env", () => {
  it("is repeatable and reaches the run's settings", async () => {
    const parsed = await parseArguments(["-p", "hi", "--pass-env", "GITHUB_TOKEN", "--pass-env", "NPM_TOKEN"], "/tmp", {
      ANTHROPIC_API_KEY: "a",
    });
    expect(parsed.kind === "run" && parsed.config.passEnv).toEqual(["GITHUB_TOKEN", "NPM_TOKEN"]);
  });

  it("defaults to nothing passed", async () => {
    const parsed = await parseArguments(["-p", "hi"], "/tmp", { ANTHROPIC_API_KEY: "a" });
    expect(parsed.kind === "run" && parsed.config.passEnv).toEqual([]);
  });

  it("refuses what is not a variable name, rather than passing a pattern it cannot mean", async () => {
    const parsed = await parseArguments(["-p", "hi", "--pass-env", "*_TOKEN"], "/tmp", { ANTHROPIC_API_KEY: "a" });
    expect(parsed).toMatchObject({ kind: "error", message: expect.stringMatching(/^--pass-env.*must be an environment variable name/) });
  });
});
