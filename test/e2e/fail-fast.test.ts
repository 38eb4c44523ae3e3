import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, expectWellFormedRun, results, runAgentwire, type Workspace } from "../helpers/agentwire.js";

const STREAM = ["-p", "hi", "--output-format", "stream-json", "--verbose"];
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("an endpoint that is not there fails at once, saying which and why", () => {
  it("connection refused on this machine: no retries, the URL and ECONNREFUSED in the result", async () => {
    workspace = await createWorkspace("text");
    const url = `http://127.0.0.1:${await closedPort()}`;
    const started = Date.now();
    const run = await runAgentwire(STREAM, { workspace, env: { ANTHROPIC_BASE_URL: url } });
    const elapsed = Date.now() - started;
    expectWellFormedRun(run, 1);
    expect(run.code).toBe(1);
    expect(run.events.filter((event) => event.type === "system" && event.subtype === "api_retry")).toEqual([]);
    const result = results(run.events)[0]!;
    expect(result).toMatchObject({ is_error: true, terminal_reason: "api_error", error_code: "connection_error" });
    expect(result.errors![0]).toContain(
      `Cannot connect to ${url}/v1/messages: connection refused (ECONNREFUSED). Is the server running on port ${new URL(url).port}?`,
    );
    expect(elapsed).toBeLessThan(5_000);
  });

  it("a port fetch refuses (the issue's http://127.0.0.1:9) says so instead of 'Connection error.'", async () => {
    workspace = await createWorkspace("text");
    // Gemini's SDK requests go through Node's fetch, which will not connect to port 9.
    const gemini = await runAgentwire([...STREAM, "--provider", "gemini", "--base-url", "http://127.0.0.1:9"], {
      workspace,
      env: { GEMINI_API_KEY: "k" },
    });
    expect(gemini.code).toBe(1);
    expect(results(gemini.events)[0]!.errors![0]).toMatch(/Cannot connect to http:\/\/127\.0\.0\.1:9\/v1beta\/.*: fetch refuses port 9/);
    // Anthropic's and OpenAI's go over node:http, which has no blocked ports: nothing listens there.
    const run = await runAgentwire(STREAM, { workspace, env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9" } });
    expect(run.code).toBe(1);
    expect(results(run.events)[0]!.errors![0]).toMatch(
      /Cannot connect to http:\/\/127\.0\.0\.1:9\/v1\/messages: connection refused \(ECONNREFUSED\)/,
    );
  });

  it("the same for local servers: an OpenAI-compatible one and Ollama", async () => {
    workspace = await createWorkspace("text");
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/v1`;
    const llamacpp = await runAgentwire([...STREAM, "--provider", "llamacpp", "--model", "qwen2.5-coder-7b", "--base-url", url], {
      workspace,
    });
    expect(llamacpp.code).toBe(1);
    expect(results(llamacpp.events)[0]!.errors![0]).toContain(
      `Cannot connect to ${url}/chat/completions: connection refused (ECONNREFUSED). Is the server running on port ${port}?`,
    );
    const ollama = await runAgentwire([...STREAM, "--provider", "ollama", "--model", "llama3.1:8b", "--base-url", url], { workspace });
    expect(results(ollama.events)[0]!.errors![0]).toContain(
      `Cannot connect to http://127.0.0.1:${port}/api/chat: connection refused (ECONNREFUSED).`,
    );
  });

  it.each([
    ["ANTHROPIC_BASE_URL", []],
    ["OPENAI_BASE_URL", ["--provider", "openai"]],
    ["GEMINI_BASE_URL", ["--provider", "gemini"]],
  ])("%s=notaurl is refused before any request, like --base-url notaurl", async (variable, args) => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire([...STREAM, ...args], {
      workspace,
      env: { [variable]: "notaurl", OPENAI_API_KEY: "k", GEMINI_API_KEY: "k" },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Error: ${variable} is not an http(s) URL: "notaurl".`);
    expect(results(run.events)[0]).toMatchObject({ is_error: true, terminal_reason: "invalid_arguments" });
    expect(workspace.server.requests).toHaveLength(0);
  });
});
