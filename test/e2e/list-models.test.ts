import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelListing } from "../../src/cli/list-models.js";
import { createWorkspace, runAgentwire, type Workspace } from "../helpers/agentwire.js";

// `--list-models` run as users run it, against the replay server's model lists. The harness
// always sets ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL; an empty value removes a key.

let workspace: Workspace;

afterEach(async () => {
  await workspace?.cleanup();
});

const MOCK_IDS = ["mock-model", "mock-model-large"];

function parseListing(stdout: string): ModelListing[] {
  expect(stdout.split("\n"), "exactly one line").toHaveLength(2);
  return (JSON.parse(stdout) as { providers: ModelListing[] }).providers;
}

/** A loopback port nothing listens on: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("--list-models", () => {
  it("with keys: every provider's live list from its API, as one JSON line", async () => {
    workspace = await createWorkspace("text");
    const { url } = workspace.server;
    const run = await runAgentwire(["--list-models", "--output-format", "json"], {
      workspace,
      env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: `${url}/v1`, GEMINI_API_KEY: "k", GEMINI_BASE_URL: url },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const listings = parseListing(run.stdout);
    expect(listings.map((listing) => listing.provider)).toEqual(["anthropic", "openai", "gemini"]);
    for (const listing of listings) {
      expect(listing.source).toBe("live");
      expect(listing).not.toHaveProperty("error");
      expect(listing.models.map((model) => model.id)).toEqual(MOCK_IDS);
    }
    expect(listings[2]!.models[0]).toEqual({ id: "mock-model", aliases: [], context_window: 1_048_576, max_output_tokens: 65_536 });
  });

  it("without keys: the known models, as text with a header per provider", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["--list-models"], { workspace, env: { ANTHROPIC_API_KEY: "" } });
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines.filter((line) => !line.startsWith("  "))).toEqual(["anthropic (known)", "openai (known)", "gemini (known)", ""]);
    expect(lines).toContain("  claude-opus-5-5    opus    1,000,000 context  $4 in / $20 out per Mtok");
    expect(lines.some((line) => /^ {2}gemini-3\.8-flash +gemini, gemini-flash +1,048,576 context/.test(line))).toBe(true);
  });

  it("--provider restricts the list; a local server is asked at --base-url with no key", async () => {
    workspace = await createWorkspace("text");
    const { url } = workspace.server;
    const gemini = await runAgentwire(["--list-models", "--provider", "gemini", "--output-format", "json"], {
      workspace,
      env: { GOOGLE_API_KEY: "k", GEMINI_BASE_URL: url },
    });
    expect(parseListing(gemini.stdout)).toEqual([expect.objectContaining({ provider: "gemini", source: "live" })]);
    const ollama = await runAgentwire(["--list-models", "--provider", "ollama", "--base-url", `${url}/v1`, "--output-format", "json"], {
      workspace,
    });
    expect(ollama.code).toBe(0);
    const [listing] = parseListing(ollama.stdout);
    expect(listing).toMatchObject({ provider: "ollama", source: "live" });
    expect(listing!.models.map((model) => model.id)).toEqual(MOCK_IDS);
  });

  it("a dead endpoint: the known list with a note, exit 0, at once", async () => {
    workspace = await createWorkspace("text");
    const port = await closedPort();
    const started = Date.now();
    const run = await runAgentwire(["--list-models", "--output-format", "json"], {
      workspace,
      env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` },
    });
    // Far below the 3 s lookup timeout: a refused connection is not waited out.
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(run.code).toBe(0);
    const [anthropic] = parseListing(run.stdout);
    expect(anthropic).toMatchObject({
      provider: "anthropic",
      source: "known",
      error: expect.stringContaining(`127.0.0.1:${port}/v1/models failed: connect ECONNREFUSED`),
    });
    expect(anthropic!.models[0]).toMatchObject({ id: "claude-opus-5-5", aliases: ["opus"] });
  });
});
