import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, expectWellFormedRun, results, runAgentwire, type Workspace } from "../helpers/agentwire.js";

// With neither --provider nor --model, the API key that is set picks the provider. The harness
// always sets ANTHROPIC_API_KEY; an empty value removes it.

const STREAM = ["-p", "hi", "--output-format", "stream-json", "--verbose"];
let workspace: Workspace;

afterEach(async () => {
  await workspace?.cleanup();
});

describe("provider inference from API keys", () => {
  it("only OPENAI_API_KEY: openai with its default model, reported in system/init and used", async () => {
    workspace = await createWorkspace("text");
    const { url } = workspace.server;
    const run = await runAgentwire(STREAM, {
      workspace,
      env: { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "k", OPENAI_BASE_URL: `${url}/v1` },
    });
    expectWellFormedRun(run, 1);
    expect(run.events[0]).toMatchObject({ subtype: "init", provider: "openai", model: "gpt-5.5", apiKeySource: "OPENAI_API_KEY" });
    expect(workspace.server.requests.map((request) => request.path)).toEqual(["/v1/chat/completions"]);
    expect((workspace.server.requests[0]!.body as { model: string }).model).toBe("gpt-5.5");
  });

  it("only GEMINI_API_KEY: gemini with its default model", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(STREAM, {
      workspace,
      env: { ANTHROPIC_API_KEY: "", GEMINI_API_KEY: "k", GEMINI_BASE_URL: workspace.server.url },
    });
    expectWellFormedRun(run, 1);
    expect(run.events[0]).toMatchObject({ subtype: "init", provider: "gemini", model: "gemini-3.8-flash", apiKeySource: "GEMINI_API_KEY" });
    expect(workspace.server.requests[0]!.path).toMatch(/^\/v1beta\/models\/gemini-3\.8-flash:streamGenerateContent/);
  });

  it("ANTHROPIC_API_KEY wins over the others", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(STREAM, { workspace, env: { OPENAI_API_KEY: "k", GEMINI_API_KEY: "k" } });
    expectWellFormedRun(run, 1);
    expect(run.events[0]).toMatchObject({ provider: "anthropic", model: "claude-opus-5-5" });
    expect(workspace.server.requests[0]!.path).toMatch(/^\/v1\/messages/);
  });

  it("no key at all: anthropic, and its own clear auth error", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(STREAM, { workspace, env: { ANTHROPIC_API_KEY: "" } });
    expectWellFormedRun(run, 1);
    expect(run.events[0]).toMatchObject({ provider: "anthropic", model: "claude-opus-5-5", apiKeySource: "none" });
    expect(results(run.events)[0]!.errors![0]).toMatch(/ANTHROPIC_API_KEY is not set/);
    expect(workspace.server.requests).toHaveLength(0);
  });

  it("a local model's name without --provider goes to Ollama, not to Anthropic", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire([...STREAM, "--model", "llama3.1:8b", "--base-url", `${workspace.server.url}/v1`], { workspace });
    expectWellFormedRun(run, 1);
    expect(run.events[0]).toMatchObject({ provider: "ollama", model: "llama3.1:8b" });
    expect(workspace.server.requests.map((request) => request.path)).toContain("/api/chat");
  });

  it("--model still decides: a Claude model stays with anthropic when only an OpenAI key is set", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire([...STREAM, "--model", "haiku"], { workspace, env: { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "k" } });
    expect(run.events[0]).toMatchObject({ provider: "anthropic", model: "claude-haiku-4-5" });
  });
});
